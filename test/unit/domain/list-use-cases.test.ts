// The profile, connections and search use cases without a server: plain functions over an in-memory source.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readConnections } from '../../../src/domain/connections.ts';
import { readProfile } from '../../../src/domain/profile.ts';
import { normalizeQuery, readSearch, searchCharge } from '../../../src/domain/search.ts';
import { author, post, repost } from '../feeds/posts.ts';
import { POLICY, sources } from './fake-lists.ts';
import { codeOf } from './code-of.ts';

const alice = author('alice', 'Alice');
const original = post('1', 'alice', 10);
const reply = post('2', 'alice', 9, { replyTo: { id: '0', handle: 'bob' } });
const shared = repost('alice', post('3', 'bob', 8));
const older = post('4', 'alice', 7);

describe('readProfile', () => {
  test('the account and its original posts: replies and reposts are filtered out before the page is cut', async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: [original, reply, shared, older] } });
    const { read, cache } = await readProfile(src, { ref: { handle: 'Alice' }, limit: 2 }, POLICY);
    assert.equal(read.profile, alice);
    assert.deepEqual(
      read.posts.map((p) => p.id),
      ['1', '4'],
      'a page holds `limit` posts when the timeline has them, whatever sits between',
    );
    assert.equal(read.page, 1);
    assert.equal(read.limit, 2);
    assert.equal(read.nextCursor, undefined);
    assert.equal(cache, 'miss');
    const first = await readProfile(src, { ref: { handle: 'alice' }, limit: 1 }, POLICY);
    assert.deepEqual(
      first.read.posts.map((p) => p.id),
      ['1'],
    );
    const next = await readProfile(src, { ref: { handle: 'alice' }, cursor: first.read.nextCursor, limit: 1 }, POLICY);
    assert.deepEqual(
      next.read.posts.map((p) => p.id),
      ['4'],
    );
    assert.equal(next.read.nextCursor, undefined);
  });

  test('the profile is read once, even on a page=N walk; the timeline is read in full upstream pages', async () => {
    const third = post('5', 'alice', 6);
    const src = sources({ profiles: { alice }, timelines: { alice: [original, older, third, post('6', 'alice', 5)] } });
    const { read } = await readProfile(src, { ref: { handle: 'alice' }, page: 3, limit: 1 }, POLICY);
    assert.deepEqual(
      read.posts.map((p) => p.id),
      ['5'],
    );
    assert.deepEqual(
      src.calls.map((c) => c.method),
      ['profile', 'timeline'],
    );
  });

  test('a missing account is not_found; a cursor from another handle is invalid_cursor', async () => {
    const src = sources({ profiles: { alice }, timelines: { alice: [original, older] } });
    await assert.rejects(readProfile(src, { ref: { handle: 'nobody' } }, POLICY), (e) => codeOf(e) === 'not_found');
    const { read } = await readProfile(src, { ref: { handle: 'alice' }, limit: 1 }, POLICY);
    await assert.rejects(
      readProfile(src, { ref: { handle: 'bob' }, cursor: read.nextCursor }, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
  });
});

test('readProfile by account id reads the profile behind the id; a window reads the posts through X search', async () => {
  const src = sources({
    profiles: { alice },
    timelines: { alice: [original] },
    search: [
      { kind: 'post', post: older },
      { kind: 'user', user: alice },
      { kind: 'post', post: post('5', 'alice', 6) },
    ],
  });
  const byId = await readProfile(src, { ref: { accountId: alice.id } }, POLICY);
  assert.equal(byId.read.profile, alice);
  assert.deepEqual(
    byId.read.posts.map((p) => p.id),
    ['1'],
  );
  const window = { iso: { since: '2026-03-01T00:00:00.000Z' }, operators: 'since_time:1772323200' };
  const windowed = await readProfile(src, { ref: { handle: 'alice' }, window }, POLICY);
  assert.deepEqual(windowed.read.window, window.iso);
  assert.deepEqual(
    windowed.read.posts.map((p) => p.id),
    ['4', '5'],
    'only posts, from the search',
  );
  assert.ok(src.calls.some((c) => c.method === 'search:latest:from:alice since_time:1772323200'));
  // A cursor issued inside one window is not valid in another, nor without one.
  const paged = await readProfile(src, { ref: { handle: 'alice' }, window, limit: 1 }, POLICY);
  assert.ok(paged.read.nextCursor);
  await assert.rejects(
    readProfile(src, { ref: { handle: 'alice' }, cursor: paged.read.nextCursor }, POLICY),
    (e) => codeOf(e) === 'invalid_cursor',
  );
});

describe('readConnections', () => {
  const followers = [author('f1'), author('f2'), author('f3')];

  test('a page of accounts with the list envelope', async () => {
    const src = sources({ profiles: { alice }, followers: { alice: followers } });
    const { read } = await readConnections(src, { kind: 'followers', handle: 'alice', limit: 2 }, POLICY);
    assert.equal(read.kind, 'followers');
    assert.equal(read.handle, 'alice');
    assert.deepEqual(
      read.items.map((a) => a.handle),
      ['f1', 'f2'],
    );
    const next = await readConnections(
      src,
      { kind: 'followers', handle: 'alice', cursor: read.nextCursor, limit: 2 },
      POLICY,
    );
    assert.deepEqual(
      next.read.items.map((a) => a.handle),
      ['f3'],
    );
    // Each request reads the (cached) profile alongside its first page, to tell a missing account from an empty list.
    assert.deepEqual(
      src.calls.map((c) => c.method),
      ['profile', 'followers', 'profile', 'followers'],
    );
    await readConnections(src, { kind: 'followers', handle: 'alice', page: 2, limit: 1 }, POLICY);
    assert.deepEqual(
      src.calls.slice(4).map((c) => c.method),
      ['profile', 'followers', 'followers'],
      'a page=N walk checks it once',
    );
  });

  test('a followers cursor is not a following cursor', async () => {
    const src = sources({ profiles: { alice }, followers: { alice: followers }, following: { alice: followers } });
    const { read } = await readConnections(src, { kind: 'followers', handle: 'alice', limit: 1 }, POLICY);
    await assert.rejects(
      readConnections(src, { kind: 'following', handle: 'alice', cursor: read.nextCursor }, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
  });

  test('a missing account is not_found even when its list fails upstream; a failing list of a real account is that failure', async () => {
    const src = sources({ profiles: { alice }, failingLists: ['ghost', 'alice'] });
    await assert.rejects(
      readConnections(src, { kind: 'following', handle: 'ghost' }, POLICY),
      (e) => codeOf(e) === 'not_found',
    );
    await assert.rejects(
      readConnections(src, { kind: 'following', handle: 'alice' }, POLICY),
      (e) => codeOf(e) === 'upstream_error',
    );
  });
});

describe('readSearch', () => {
  const items = [1, 2, 3].map((n) => ({ kind: 'post' as const, post: post(String(n), 'alice', n) }));

  test('terms are trimmed and folded; empty is missing_query, over 512 characters invalid_query', () => {
    assert.equal(normalizeQuery('  cats \n and   dogs '), 'cats and dogs');
    assert.throws(
      () => normalizeQuery('   '),
      (e) => codeOf(e) === 'missing_query',
    );
    assert.throws(
      () => normalizeQuery(undefined),
      (e) => codeOf(e) === 'missing_query',
    );
    assert.throws(
      () => normalizeQuery('x'.repeat(513)),
      (e) => codeOf(e) === 'invalid_query',
    );
  });

  test('a page of results, with a cursor tied to the terms and the feed', async () => {
    const src = sources({ search: items });
    const { read } = await readSearch(src, { q: 'cats', feed: 'top', limit: 2 }, POLICY);
    assert.equal(read.q, 'cats');
    assert.equal(read.feed, 'top');
    assert.equal(read.items.length, 2);
    assert.equal(src.calls[0]!.method, 'search:top:cats');
    const next = await readSearch(src, { q: 'cats', feed: 'top', cursor: read.nextCursor }, POLICY);
    assert.equal(next.read.items.length, 1);
    await assert.rejects(
      readSearch(src, { q: 'cats', feed: 'latest', cursor: read.nextCursor }, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
    await assert.rejects(
      readSearch(src, { q: 'dogs', feed: 'top', cursor: read.nextCursor }, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
  });

  test('account-backed feeds are charged against the account allowance too', () => {
    assert.equal(searchCharge('latest'), 'plain');
    assert.equal(searchCharge('top'), 'plain');
    for (const feed of ['photos', 'videos', 'users'] as const) assert.equal(searchCharge(feed), 'account');
  });
});
