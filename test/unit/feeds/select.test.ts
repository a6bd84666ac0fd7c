// Which posts a feed shows, how self-threads group and how accounts merge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { entryKey, groupThreads, mergePosts, selectPosts } from '../../../src/domain/feeds.ts';
import { post, repost } from './posts.ts';

const root = post('1', 'ann', 0);
const cont = post('2', 'ann', 1, { replyTo: { id: '1', handle: 'ann' } });
const cont2 = post('3', 'ann', 2, { replyTo: { id: '2', handle: 'ANN' } });
const toBob = post('4', 'ann', 3, { replyTo: { id: '99', handle: 'bob' } });
const photo = post('5', 'ann', 4, { media: [{ kind: 'photo', url: 'https://pbs.twimg.com/media/a.jpg' }] });
const shared = repost('ann', post('6', 'cat', 5));

test('posts: originals and own thread continuations; media: those with media; with_replies: everything', () => {
  const all = [shared, photo, toBob, cont2, cont, root];
  assert.deepEqual(
    selectPosts(all, 'posts').map((p) => p.id),
    ['5', '3', '2', '1'],
  );
  assert.deepEqual(
    selectPosts(all, 'media').map((p) => p.id),
    ['5'],
  );
  assert.equal(selectPosts(all, 'with_replies').length, all.length);
});

test('groupThreads: a chain of self-replies is one group, oldest first; groups ordered by newest post', () => {
  const groups = groupThreads([photo, cont2, toBob, cont, root]);
  assert.deepEqual(
    groups.map((g) => g.map((p) => p.id)),
    [['5'], ['4'], ['1', '2', '3']],
  );
});

test('groupThreads: a continuation whose parent is not in the list stands alone; reposts never continue', () => {
  assert.deepEqual(
    groupThreads([cont2]).map((g) => g.map((p) => p.id)),
    [['3']],
  );
  const reposted = repost('ann', root);
  const groups = groupThreads([reposted, cont]);
  assert.equal(groups.length, 2, 'the repost of the root does not adopt the continuation');
});

test('mergePosts: newest first, duplicates dropped, a repost and its original are different entries, capped', () => {
  const bobPost = post('7', 'bob', 10);
  const merged = mergePosts([[root, photo], [bobPost, photo], [repost('bob', photo)]]);
  assert.deepEqual(merged.map(entryKey), ['7', '5@bob', '5', '1']);
  assert.equal(mergePosts([[root, photo, bobPost]], 2).length, 2);
});

test('ties are broken by id, so the order (and the ETag) is stable', () => {
  const a = post('10', 'ann', 7);
  const b = post('11', 'bob', 7);
  assert.deepEqual(
    mergePosts([[a], [b]]).map((p) => p.id),
    mergePosts([[b], [a]]).map((p) => p.id),
  );
});
