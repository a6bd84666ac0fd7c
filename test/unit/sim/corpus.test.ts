import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BIG_FOLLOWERS, BIG_FOLLOWING, getCorpus, HANDLES, IDS } from '../../../sim/corpus.ts';
import {
  ancestorIds,
  continuationIds,
  findUser,
  listTimeline,
  replyModules,
  search,
  timeline,
} from '../../../sim/corpus-queries.ts';
import { CACHING_LIST_MEMBERS, LIST_IDS } from '../../../sim/corpus-lists.ts';
import { decodeCursor, encodeCursor, paginate } from '../../../sim/cursor.ts';
import { syndicationToken } from '../../../sim/wire/syndication.ts';
import { legacyDate } from '../../../sim/wire/dates.ts';

const c = getCorpus();

test('fixed ids and handles exist in the corpus', () => {
  for (const id of IDS.thread) assert.ok(c.posts.get(id), id);
  for (const id of Object.values(IDS.replies)) assert.ok(c.posts.get(id), id);
  for (const key of [
    'carolQuoted',
    'daveRoot',
    'carolReplyToDave',
    'bobReplyToCarol',
    'noteTweet',
    'article',
    'communityNote',
    'cardLink',
    'deleted',
    'protected',
    'suspended',
    'hostile',
  ] as const) {
    assert.ok(c.posts.get(IDS[key]), key);
  }
  assert.equal(c.posts.get(IDS.unknown), undefined);
  for (const [key, handle] of Object.entries(HANDLES)) {
    assert.equal(Boolean(findUser(c, handle)), key !== 'missing', handle);
  }
});

test('the thread is twelve self-replies by alice_dev in time order', () => {
  const alice = findUser(c, HANDLES.alice)!;
  assert.deepEqual(
    IDS.thread,
    Array.from({ length: 12 }, (_, i) => `19000000000000000${String(i + 1).padStart(2, '0')}`),
  );
  IDS.thread.forEach((id, i) => {
    const p = c.posts.get(id)!;
    assert.equal(p.authorId, alice.id);
    assert.equal(p.replyToId, i ? IDS.thread[i - 1] : undefined);
    if (i) assert.ok(p.createdAt > c.posts.get(IDS.thread[i - 1]!)!.createdAt);
  });
  assert.deepEqual(continuationIds(c, IDS.threadRoot), IDS.thread.slice(1));
  assert.deepEqual(ancestorIds(c, IDS.threadLast), IDS.thread.slice(0, 11));
});

test('conversation ordering differs between likes and recency and nests three levels', () => {
  const likes = replyModules(c, IDS.threadRoot, 'likes').map((m) => m[0]);
  const recency = replyModules(c, IDS.threadRoot, 'recency').map((m) => m[0]);
  assert.equal(likes[0], IDS.threadPhoto, 'author continuation first');
  assert.equal(likes[1], IDS.replies.daveTop);
  assert.equal(recency[1], IDS.replies.reader7Top);
  assert.notDeepEqual(likes, recency);
  const bobModule = replyModules(c, IDS.threadRoot, 'likes').find((m) => m[0] === IDS.replies.bobTop)!;
  assert.deepEqual(bobModule, [IDS.replies.bobTop, IDS.replies.aliceToBob, IDS.replies.bobToAlice]);
});

test('profiles have about thirty timeline rows and the big account its graph', () => {
  const alice = findUser(c, HANDLES.alice)!;
  const big = findUser(c, HANDLES.big)!;
  assert.ok(timeline(c, alice, true).length >= 30);
  assert.ok(timeline(c, big, true).length >= 30);
  assert.ok(timeline(c, alice, true).some((e) => e.repostedBy === alice.id));
  assert.equal(big.followers, BIG_FOLLOWERS);
  assert.equal(big.following, BIG_FOLLOWING);
  assert.equal(c.followers.get(big.id)!.length, 450);
  assert.equal(c.following.get(big.id)!.length, 300);
});

test('search corpora have the documented sizes and orders', () => {
  const latest = search(c, 'caching', 'latest');
  assert.ok(latest.length >= 60 && latest.length <= 70, String(latest.length));
  assert.ok(latest.every((p, i) => i === 0 || latest[i - 1]!.createdAt >= p.createdAt));
  const top = search(c, 'caching', 'top');
  assert.ok(top.every((p, i) => i === 0 || top[i - 1]!.likes >= p.likes));
  assert.notDeepEqual(
    top.map((p) => p.id),
    latest.map((p) => p.id),
  );
  assert.ok(search(c, 'caching', 'media').every((p) => p.media.length > 0));
  const tm = search(c, 'THREADMARK', 'latest').length;
  assert.ok(tm >= 25 && tm <= 30, String(tm));
  // docs/cli.md's `threadmark search cache stampede --feed top` finds something on the demo.
  assert.ok(search(c, 'cache stampede', 'top').length > 0);
});

test('the corpus is deterministic', async () => {
  // A fresh module instance rebuilds the corpus from the seed.
  const fresh = await import(`../../../sim/corpus.ts?rebuild=${Date.now()}`);
  const again = fresh.getCorpus();
  assert.notEqual(again, c);
  const digest = (x: typeof c) =>
    JSON.stringify([...x.posts.values()].map((p) => [p.id, p.likes, p.createdAt, p.text]));
  assert.equal(digest(again), digest(c));
});

test('syndication token and legacy date helpers match upstream vectors', () => {
  assert.equal(syndicationToken('20'), '6dq1a2xwd93');
  assert.equal(syndicationToken('1841206275088290279'), '4gobiuxs3yx');
  assert.equal(legacyDate(Date.UTC(2018, 9, 10, 20, 19, 24)), 'Wed Oct 10 20:19:24 +0000 2018');
});

test('cursors are opaque, scoped, and end with null', () => {
  const all = Array.from({ length: 5 }, (_, i) => i);
  const p1 = paginate(all, 2, null, 's');
  assert.ok(p1 !== 'invalid');
  assert.deepEqual(p1.items, [0, 1]);
  const p3 = paginate(all, 2, encodeCursor('s', 4), 's');
  assert.ok(p3 !== 'invalid');
  assert.deepEqual(p3.items, [4]);
  assert.equal(p3.bottom, null);
  assert.equal(paginate(all, 2, p1.bottom, 'other'), 'invalid');
  assert.equal(decodeCursor('s', 'garbage'), null);
});

test('X Lists: the caching list pages through members and posts; the private one is marked', () => {
  const caching = c.lists.get(LIST_IDS.caching)!;
  assert.equal(caching.memberIds.length, CACHING_LIST_MEMBERS);
  assert.equal(new Set(caching.memberIds).size, CACHING_LIST_MEMBERS);
  assert.equal(c.users.get(caching.ownerId)!.handle, HANDLES.alice);
  const rows = listTimeline(c, caching);
  assert.ok(rows.length > 60, `${rows.length} rows: more than three pages of 20`);
  const members = new Set(caching.memberIds);
  for (const r of rows) assert.ok(members.has(r.repostedBy ?? c.posts.get(r.postId)!.authorId));
  assert.deepEqual(
    rows.map((r) => r.at),
    [...rows.map((r) => r.at)].sort((a, b) => b - a),
    'newest first',
  );
  assert.equal(c.lists.get(LIST_IDS.private)!.private, true);
  assert.equal(c.lists.get(LIST_IDS.unknown), undefined);
});
