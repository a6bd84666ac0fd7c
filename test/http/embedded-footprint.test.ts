// Embedded mode (`npm start` with no Redis or database) must not load what only distributed mode, pushes or zip
// exports use: each of these packages costs an instance memory it would hold for nothing. The service answers a
// read, then the process's module cache is checked; a zip export then loads the zip package alone.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const ONLY_WHEN_USED = ['bullmq', 'ioredis', 'pg', 'standardwebhooks', 'yazl'];

let s: Stack;
before(async () => {
  s = await startStack();
});
after(async () => {
  await s.close();
});

const loaded = () => {
  const cache = createRequire(import.meta.url).cache;
  return ONLY_WHEN_USED.filter((p) => Object.keys(cache).some((f) => f.includes(`/node_modules/${p}/`)));
};

test('a read in embedded mode loads none of the distributed, push or zip packages', async () => {
  const res = await s.get(`/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`);
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  assert.deepEqual(loaded(), []);
});

test('a zip export loads yazl, and only then', async () => {
  assert.ok(!loaded().includes('yazl'));
  const res = await s.get(`/api/v1/profiles/${HANDLES.alice}/posts?max_posts=5&format=zip`);
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get('content-type'), 'application/zip');
  await res.arrayBuffer();
  assert.deepEqual(loaded(), ['yazl']);
});
