// Links that carry only a numeric id: X's handle-less post permalinks, /i/user/{id} and its versioned twin, posts
// addressed with the wrong handle, and pasted x.com/i/… URLs in url=. All through the real server and simulator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCorpus, HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

const corpus = getCorpus();
const alice = corpus.usersByHandle.get(HANDLES.alice)!;
const locked = corpus.usersByHandle.get(HANDLES.protected)!;
const suspended = corpus.usersByHandle.get(HANDLES.suspended)!;

interface PostJson {
  post: { id: string; author: { handle: string } };
}
interface ProfileJson {
  profile: { id: string; handle: string };
  posts: { id: string }[];
  nextCursor?: string;
}

describe('numeric ids', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(async () => {
    await s.close();
  });

  for (const path of [`/i/status/${IDS.threadPhoto}`, `/i/web/status/${IDS.threadPhoto}`]) {
    test(`${path} reads the post and names its author`, async () => {
      const res = await s.get(path);
      assert.equal(res.status, 200);
      const md = await res.text();
      assert.ok(md.includes(`@${HANDLES.alice}`), 'the author is named');
      assert.equal(
        res.headers.get('link'),
        `<${TEST_BASE}/${HANDLES.alice}/status/${IDS.threadPhoto}>; rel="canonical"`,
      );
      const json = (await (await s.get(`${path}?format=json&thread=off`)).json()) as PostJson;
      assert.equal(json.post.id, IDS.threadPhoto);
      assert.equal(json.post.author.handle, HANDLES.alice);
    });
  }

  test('a post under the wrong handle still reads, names the real author and points at the right URL', async () => {
    const res = await s.get(`/${HANDLES.bob}/status/${IDS.threadPhoto}?format=json`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as PostJson).post.author.handle, HANDLES.alice);
    assert.equal(res.headers.get('link'), `<${TEST_BASE}/${HANDLES.alice}/status/${IDS.threadPhoto}>; rel="canonical"`);
    const right = await s.get(`/${HANDLES.alice.toUpperCase()}/status/${IDS.threadPhoto}`);
    assert.equal(right.headers.get('link'), null, 'the right handle (in any case) needs no canonical pointer');
  });

  test('pasted x.com/i/… URLs work in url=', async () => {
    for (const url of [
      `https://x.com/i/status/${IDS.threadPhoto}`,
      `https://twitter.com/i/web/status/${IDS.threadPhoto}`,
      `x.com/i/status/${IDS.threadPhoto}/photo/1`,
    ]) {
      const res = await s.get(`/api/v1/posts?url=${encodeURIComponent(url)}&format=json&thread=off`);
      assert.equal(res.status, 200, url);
      assert.equal(((await res.json()) as PostJson).post.author.handle, HANDLES.alice);
    }
    for (const url of [
      'https://x.com/i/status/',
      'https://x.com/i/web/status/abc',
      'https://x.com/i/lists/123',
      'https://x.com/i/web/123',
    ]) {
      const res = await s.get(`/api/v1/posts?url=${encodeURIComponent(url)}`);
      assert.equal(res.status, 400, url);
      assert.equal((await problemOf(res)).code, 'invalid_path', url);
    }
  });

  test('/i/status with a malformed or unknown id', async () => {
    const bad = await s.get('/i/status/12ab');
    assert.equal(bad.status, 400);
    assert.equal((await problemOf(bad)).code, 'invalid_params');
    const unknown = await s.get(`/i/status/${IDS.unknown}?format=json`);
    assert.equal(unknown.status, 404);
    assert.equal((await problemOf(unknown)).code, 'not_found');
  });

  for (const path of [`/i/user/${alice.id}`, `/api/v1/users/${alice.id}`]) {
    test(`${path} reads the profile and tells its current handle`, async () => {
      const res = await s.get(`${path}?format=json`);
      assert.equal(res.status, 200);
      const json = (await res.json()) as ProfileJson;
      assert.equal(json.profile.id, alice.id);
      assert.equal(json.profile.handle, HANDLES.alice);
      assert.ok(json.posts.length > 0);
      assert.equal(res.headers.get('link'), `<${TEST_BASE}/${HANDLES.alice}>; rel="canonical"`);
      assert.equal(res.headers.get('x-browse-resource'), 'profile');
      const md = await (await s.get(path)).text();
      assert.ok(md.includes(`@${HANDLES.alice}`));
    });
  }

  test('paging by account id: the cursor continues on the same route, and only there', async () => {
    const first = (await (await s.get(`/api/v1/users/${alice.id}?format=json&limit=5`)).json()) as ProfileJson;
    assert.ok(first.nextCursor, 'alice has more than five posts');
    const second = await s.get(
      `/api/v1/users/${alice.id}?format=json&limit=5&cursor=${encodeURIComponent(first.nextCursor)}`,
    );
    assert.equal(second.status, 200);
    const ids = ((await second.json()) as ProfileJson).posts.map((p) => p.id);
    assert.ok(
      ids.every((id) => !first.posts.some((p) => p.id === id)),
      'no post repeated',
    );
    const elsewhere = await s.get(`/api/v1/profiles/${HANDLES.alice}?cursor=${encodeURIComponent(first.nextCursor)}`);
    assert.equal(elsewhere.status, 400);
    assert.equal((await problemOf(elsewhere)).code, 'invalid_cursor');
  });

  test('bad, unknown, protected and suspended account ids', async () => {
    for (const bad of ['abc', '12345678901234567890123', '-1', '1.5']) {
      const res = await s.get(`/api/v1/users/${bad}`);
      assert.equal(res.status, 400, bad);
      const p = await problemOf(res);
      assert.equal(p.code, 'invalid_user_id');
      assert.match(p.type, /#invalid-user-id$/);
    }
    for (const id of ['999999999999', locked.id, suspended.id]) {
      const res = await s.get(`/api/v1/users/${id}?format=json`);
      assert.equal(res.status, 404, id);
      assert.equal((await problemOf(res)).code, 'not_found');
    }
    const md = await s.get('/i/user/999999999999', { headers: { accept: 'text/markdown' } });
    assert.equal(md.status, 404);
    assert.match(await md.text(), /account 999999999999/, 'the recovery document names what is missing');
  });

  test('a link-preview crawler gets the profile page by id', async () => {
    const res = await s.get(`/i/user/${alice.id}`, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } });
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await res.text(), /<meta property="og:type" content="profile">/);
  });
});

describe('numeric account ids on the X provider alone (UserByRestId)', () => {
  let s: Stack;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'threadmark-user-by-id-'));
    const sessions = join(dir, 'sessions.jsonl');
    writeFileSync(sessions, JSON.stringify({ username: 'u', auth_token: 'user_by_id_tok', ct0: 'c' }) + '\n');
    s = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: sessions });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('/i/user/{id} reads the profile through UserByRestId, then its posts under the handle it found', async () => {
    const res = await s.get(`/i/user/${alice.id}?format=json&limit=3`);
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('x-source'), 'x');
    const json = (await res.json()) as ProfileJson;
    assert.equal(json.profile.handle, HANDLES.alice);
    assert.ok(json.posts.length > 0 && json.posts.length <= 3, String(json.posts.length));
    assert.equal(res.headers.get('link'), `<${TEST_BASE}/${HANDLES.alice}>; rel="canonical"`);
    assert.equal(s.sim.calls({ target: 'x', path: '/UserByRestId?' }), 1);
  });

  test('an id X has no account for, and a suspended account, are 404 not_found', async () => {
    for (const id of ['999999999999', suspended.id, locked.id]) {
      const res = await s.get(`/api/v1/users/${id}?format=json`);
      assert.equal(res.status, 404, id);
      assert.equal((await problemOf(res)).code, 'not_found');
    }
  });
});
