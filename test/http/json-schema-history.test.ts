// The JSON members added for date windows, timeline options and edits are described by the declared schemas:
// real bodies from the server parse against them, and a wrong shape would not.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { postJsonSchema, profileJsonSchema, searchJsonSchema } from '../../src/contract/json-schemas.ts';

let s: Stack;
before(async () => {
  s = await startStack({ THREADMARK_PROVIDERS: 'syndication,fxtwitter' });
});
after(() => s.close());

test('windowed profile and search bodies, and an edited post, match their schemas', async () => {
  const profile = await (
    await s.get(`/api/v1/profiles/${HANDLES.alice}?since=2026-03-02&until=2026-03-03&with_replies=true&format=json`)
  ).json();
  assert.ok(profileJsonSchema.safeParse(profile).success);
  assert.ok(!profileJsonSchema.safeParse({ ...profile, window: { since: 5 } }).success, 'a wrong window is refused');
  const search = await (await s.get('/api/v1/search?q=caching&until=2026-03-01&format=json')).json();
  assert.ok(searchJsonSchema.safeParse(search).success);
  const post = (await (await s.get(`/${HANDLES.dave}/status/${IDS.editedFirst}?format=json`)).json()) as {
    post: { edits?: unknown };
  };
  assert.ok(post.post.edits);
  assert.ok(postJsonSchema.safeParse(post).success);
  assert.ok(
    !postJsonSchema.safeParse({ ...post, post: { ...post.post, edits: { versions: ['1'] } } }).success,
    'one version is not an edit',
  );
});
