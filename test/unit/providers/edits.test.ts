// X's edit_control in its two shapes (original post: flat; later version: under edit_control_initial), read the same
// way by the GraphQL and syndication parsers; real captures of never-edited posts give no edit history.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEditControl } from '../../../src/providers/shared/edits.ts';
import { parseTweet as parseSyndication } from '../../../src/providers/syndication/parse.ts';
import { parseTweetResult } from '../../../src/providers/x/post.ts';
import { isEarlierVersion, latestVersionId, type Post } from '../../../src/domain/models.ts';
import { fixture } from './fixtures.ts';

const V = ['1600000000000000001', '1600000000000000002', '1600000000000000003'];
const flat = { edit_tweet_ids: V, editable_until_msecs: '1682034673000', is_edit_eligible: true, edits_remaining: '3' };

test('the original version carries the list at the top level', () => {
  assert.deepEqual(parseEditControl(V[0]!, flat), { versions: V });
});

test('a later version carries it under edit_control_initial', () => {
  assert.deepEqual(parseEditControl(V[1]!, { initial_tweet_id: V[0], edit_control_initial: flat }), { versions: V });
});

test('never edited, malformed, or a list that does not name the post: no history', () => {
  assert.equal(parseEditControl(V[0]!, { ...flat, edit_tweet_ids: [V[0]] }), undefined);
  assert.equal(parseEditControl(V[0]!, undefined), undefined);
  assert.equal(parseEditControl(V[0]!, 'edited'), undefined);
  assert.equal(parseEditControl(V[0]!, { edit_tweet_ids: 'x' }), undefined);
  assert.equal(parseEditControl('999', flat), undefined);
  assert.deepEqual(parseEditControl(V[0]!, { edit_tweet_ids: [V[0], 7, '../x', V[0], V[1]] }), {
    versions: [V[0], V[1]],
  });
});

test('real captures of unedited posts (GraphQL TweetDetail, syndication) carry no history', () => {
  const synd = parseSyndication(fixture('syndication/tweet-result-1703436713362870723.json'));
  assert.equal(synd.edits, undefined);
  const detail = fixture('x/tweet_detail.json');
  const focal = JSON.stringify(detail).includes('"edit_tweet_ids":["1649191520250245121"]');
  assert.ok(focal, 'the capture has a one-version edit_control');
});

test('syndication and GraphQL tweets with a multi-version edit_control become Post.edits', () => {
  const base = fixture('syndication/tweet-result-1703436713362870723.json');
  const id = base.id_str as string;
  const versions = [id, '1703436713362870999'];
  const synd = parseSyndication({ ...base, edit_control: { edit_tweet_ids: versions } });
  assert.deepEqual(synd.edits, { versions });
  assert.ok(isEarlierVersion(synd));
  assert.equal(latestVersionId(synd), versions[1]);

  const detail = fixture('x/tweet_detail.json');
  const focal = findTweet(detail, '1649191520250245121');
  const later = {
    ...focal,
    edit_control: {
      initial_tweet_id: '1649191520250245000',
      edit_control_initial: { edit_tweet_ids: ['1649191520250245000', '1649191520250245121'] },
    },
  };
  const post = parseTweetResult({ __typename: 'Tweet', ...later } as never) as Post;
  assert.deepEqual(post.edits?.versions, ['1649191520250245000', '1649191520250245121']);
  assert.equal(isEarlierVersion(post), false);
});

/** The GraphQL tweet object with this rest_id, wherever it sits in the capture. */
function findTweet(node: unknown, id: string): Record<string, unknown> {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop();
    if (!n || typeof n !== 'object') continue;
    const o = n as Record<string, unknown>;
    if (o.rest_id === id && o.legacy) return o;
    stack.push(...Object.values(o));
  }
  throw new Error(`tweet ${id} not in capture`);
}
