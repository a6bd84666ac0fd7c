// How an export's posts, newest first, become the vault's threads: continuations wait for the post they continue,
// a branching thread stays one, other posts are threads of one, and what never meets its first post is handed
// out when the export ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ThreadGatherer } from '../../../src/cli/vault-threads.ts';
import type { Post } from '../../../src/domain/models.ts';
import { alice, bob, post } from '../../fixtures/render/corpus.ts';

const at = (m: number) => new Date(Date.UTC(2026, 0, 2, 0, m)).toISOString();
const own = (id: string, m: number, parent?: string) =>
  post({ id, createdAt: at(m), ...(parent ? { replyTo: { id: parent, handle: alice.handle } } : {}) });
const ids = (groups: Post[][]) => groups.map((g) => g.map((p) => p.id));

test('a self-thread read newest first comes out whole, oldest first, once its first post arrives', () => {
  const g = new ThreadGatherer();
  const toBob = post({ id: 'r', createdAt: at(5), replyTo: { id: 'b1', handle: bob.handle } });
  const out: Post[][] = [];
  for (const p of [own('t3', 4, 't2'), toBob, own('t2', 3, 't1'), own('solo', 2), own('t1', 1)]) out.push(...g.add(p));
  assert.deepEqual(ids(out), [['r'], ['solo'], ['t1', 't2', 't3']]);
  assert.deepEqual(g.drain(), []);
});

test('two continuations of one post make one thread, in time order', () => {
  const g = new ThreadGatherer();
  assert.deepEqual(g.add(own('b', 3, 'a')), []);
  assert.deepEqual(g.add(own('c', 2, 'a')), []);
  assert.deepEqual(ids(g.add(own('a', 1))), [['a', 'c', 'b']]);
});

test('continuations whose first post the export never reached are handed out at the end', () => {
  const g = new ThreadGatherer();
  g.add(own('x3', 3, 'x2'));
  g.add(own('x2', 2, 'x1'));
  assert.deepEqual(ids(g.drain()), [['x2', 'x3']]);
  assert.deepEqual(g.drain(), [], 'nothing waits after a drain');
});

test('a repost never continues or completes a thread', () => {
  const g = new ThreadGatherer();
  g.add(own('y2', 2, 'y1'));
  const repost = post({ id: 'y1', createdAt: at(1), repostOf: own('y1', 0) });
  assert.deepEqual(ids(g.add(repost)), [['y1']]);
  assert.deepEqual(ids(g.drain()), [['y2']]);
});
