// The X List use cases without a server: plain functions over an in-memory source.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readListMembers, readListPosts } from '../../../src/domain/curated-lists.ts';
import { readListFeed } from '../../../src/domain/feed-reads.ts';
import type { CuratedList } from '../../../src/domain/models.ts';
import { author, post, repost } from '../feeds/posts.ts';
import { POLICY, sources } from './fake-lists.ts';
import { codeOf } from './code-of.ts';

const alice = author('alice', 'Alice');
const bob = author('bob', 'Bob');
const carol = author('carol', 'Carol');
const list: CuratedList = { id: '42', name: 'Friends', owner: alice, members: 3 };
const posts = [
  post('5', 'bob', 10),
  repost('carol', post('4', 'alice', 9)),
  post('3', 'carol', 8, { replyTo: { id: '1', handle: 'dave' } }),
  post('2', 'bob', 7),
];
const data = { curated: { '42': { list, posts, members: [bob, carol, alice] } } };

describe('readListPosts', () => {
  test('the list and its latest posts as the upstream gives them (replies and reposts kept), paged by sealed cursors', async () => {
    const src = sources(data);
    const first = await readListPosts(src, { id: '42', limit: 3 }, POLICY);
    assert.equal(first.read.list, list);
    assert.deepEqual(
      first.read.posts.map((p) => p.id),
      posts.slice(0, 3).map((p) => p.id),
    );
    assert.equal(first.read.page, 1);
    assert.ok(first.read.nextCursor);
    assert.notEqual(first.read.nextCursor, 'c3', 'the raw upstream cursor is sealed');
    const second = await readListPosts(src, { id: '42', limit: 3, cursor: first.read.nextCursor }, POLICY);
    assert.deepEqual(
      second.read.posts.map((p) => p.id),
      ['2'],
    );
    assert.equal(second.read.page, 2);
    assert.equal(second.read.nextCursor, undefined);
  });

  test('page=N walks the cursors and reads the list once', async () => {
    const src = sources(data);
    const { read } = await readListPosts(src, { id: '42', page: 2, limit: 2 }, POLICY);
    assert.deepEqual(
      read.posts.map((p) => p.id),
      ['3', '2'],
    );
    assert.deepEqual(
      src.calls.map((c) => c.method),
      ['list', 'listPosts', 'listPosts'],
    );
  });

  test('a cursor works only on the route and list that issued it', async () => {
    const src = sources(data);
    const { read } = await readListPosts(src, { id: '42', limit: 1 }, POLICY);
    await assert.rejects(
      readListMembers(src, { id: '42', cursor: read.nextCursor }, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
    await assert.rejects(
      readListPosts(src, { id: '43', cursor: read.nextCursor }, POLICY),
      (e) => codeOf(e) === 'invalid_cursor',
    );
  });

  test("a missing list is not_found even though its timeline's own failure came back too", async () => {
    const src = sources(data);
    await assert.rejects(readListPosts(src, { id: '7' }, POLICY), (e) => codeOf(e) === 'not_found');
  });

  test('an id beyond 2^63 − 1 is not_found without a single upstream call', async () => {
    const src = sources(data);
    await assert.rejects(readListPosts(src, { id: '9223372036854775808' }, POLICY), (e) => codeOf(e) === 'not_found');
    await assert.rejects(
      readListMembers(src, { id: '12345678901234567890' }, POLICY),
      (e) => codeOf(e) === 'not_found',
    );
    await assert.rejects(
      readListFeed(src.lists, { id: '99999999999999999999' }, POLICY),
      (e) => codeOf(e) === 'not_found',
    );
    assert.deepEqual(src.calls, []);
  });
});

describe('readListMembers', () => {
  test('the list and a page of its accounts', async () => {
    const src = sources(data);
    const { read } = await readListMembers(src, { id: '42', limit: 2 }, POLICY);
    assert.equal(read.list.name, 'Friends');
    assert.deepEqual(
      read.items.map((a) => a.handle),
      ['bob', 'carol'],
    );
    assert.ok(read.nextCursor);
  });
});

describe('readListFeed', () => {
  test('the list and its first page of posts, with the provenance of both reads', async () => {
    const src = sources(data);
    const read = await readListFeed(src.lists, { id: '42' }, POLICY);
    assert.equal(read.list, list);
    assert.deepEqual(
      read.posts.map((p) => p.id),
      posts.map((p) => p.id),
    );
    assert.equal(read.source, 'fake');
    assert.equal(read.cache, 'miss');
  });
});
