// The feed use cases without a server: which posts a feed holds, and the provenance of the reads behind it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readProfileFeed, readSearchFeed } from '../../../src/domain/feed-reads.ts';
import { overallCache } from '../../../src/domain/sourced.ts';
import { author, post, repost } from '../feeds/posts.ts';
import { POLICY, fakeLists } from './fake-lists.ts';
import { codeOf } from './code-of.ts';

const alice = author('alice');
const bob = author('bob');
const a1 = post('a1', 'alice', 10);
const a2 = post('a2', 'alice', 30);
const aReply = post('a3', 'alice', 40, { replyTo: { id: 'z', handle: 'zed' } });
const b1 = post('b1', 'bob', 20);
const bRepost = repost('bob', post('c1', 'carol', 50));

describe('readProfileFeed', () => {
  test('one account: its posts for the kind, with the account', async () => {
    const { lists } = fakeLists({ profiles: { alice }, timelines: { alice: [a2, aReply, a1] } });
    const read = await readProfileFeed(lists, { handles: ['alice'], kind: 'posts' }, POLICY);
    assert.deepEqual(read.authors, [alice]);
    assert.deepEqual(
      read.posts.map((p) => p.id),
      ['a2', 'a1'],
    );
    assert.equal(read.source, 'fake');
    assert.equal(read.cache, 'miss');
    const withReplies = await readProfileFeed(lists, { handles: ['alice'], kind: 'with_replies' }, POLICY);
    assert.deepEqual(
      withReplies.posts.map((p) => p.id),
      ['a3', 'a2', 'a1'],
    );
  });

  test('several accounts merge newest first; one that is not public is left out with a warning', async () => {
    const { lists } = fakeLists({ profiles: { alice, bob }, timelines: { alice: [a2, a1], bob: [b1, bRepost] } });
    const read = await readProfileFeed(lists, { handles: ['alice', 'ghost', 'bob'], kind: 'posts' }, POLICY);
    assert.deepEqual(
      read.authors.map((a) => a.handle),
      ['alice', 'bob'],
    );
    assert.deepEqual(
      read.posts.map((p) => p.id),
      ['a2', 'b1', 'a1'],
    );
    assert.deepEqual(read.warnings, ['@ghost left out: not public']);
  });

  test('a single missing account, or every account missing, is not_found', async () => {
    const { lists } = fakeLists({ profiles: {} });
    await assert.rejects(
      readProfileFeed(lists, { handles: ['ghost'], kind: 'posts' }, POLICY),
      (e) => codeOf(e) === 'not_found',
    );
    await assert.rejects(
      readProfileFeed(lists, { handles: ['ghost', 'shade'], kind: 'posts' }, POLICY),
      (e) => codeOf(e) === 'not_found',
    );
  });
});

describe('readSearchFeed', () => {
  test('the posts of a search page in search order; accounts are not feed items', async () => {
    const { lists, calls } = fakeLists({
      search: [
        { kind: 'post', post: a1 },
        { kind: 'user', user: bob },
        { kind: 'post', post: a2 },
      ],
    });
    const read = await readSearchFeed(lists, { q: 'cats', feed: 'top' }, POLICY);
    assert.deepEqual(
      read.posts.map((p) => p.id),
      ['a1', 'a2'],
    );
    assert.equal(calls[0]!.method, 'search:top:cats');
  });
});

test('the overall cache status: any stale read makes the feed stale, then any miss, then any bypass', () => {
  assert.equal(overallCache(['hit', 'hit']), 'hit');
  assert.equal(overallCache(['hit', 'miss', 'bypass']), 'miss');
  assert.equal(overallCache(['miss', 'stale']), 'stale');
  assert.equal(overallCache(['hit', 'bypass']), 'bypass');
});
