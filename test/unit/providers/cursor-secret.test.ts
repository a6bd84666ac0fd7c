// The cursor codec's switch to a cluster-wide secret, and how sources/cursor-secret.ts agrees on one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CursorCodec } from '../../../src/domain/paging.ts';
import { shareCursorSecret } from '../../../src/sources/cursor-secret.ts';
import type { Stores } from '../../../src/stores/index.ts';

const scope = { route: 'followers', query: 'bigaccount', feed: '' };
const state = { provider: 'fxtwitter', upstream: 'abc', page: 2 };

test('after adopting a shared secret, cursors sealed before still open and new ones open on every peer', () => {
  const a = new CursorCodec();
  const b = new CursorCodec();
  const before = a.encode(scope, state);
  a.adopt('shared-secret-of-the-cluster');
  b.adopt('shared-secret-of-the-cluster');
  assert.deepEqual(a.decode(scope, before), state);
  assert.deepEqual(b.decode(scope, a.encode(scope, state)), state);
  assert.throws(() => b.decode(scope, before), /invalid_cursor|another deployment/);
});

test('the first candidate stored wins; an unreachable store leaves the local secret', async () => {
  let stored: string | undefined;
  let up = true;
  const fake = () =>
    ({
      sharedSecret: async (_name: string, candidate: string) => (up ? (stored ??= candidate) : undefined),
    }) as unknown as Stores;
  const [a, b] = [new CursorCodec(), new CursorCodec()];
  (await shareCursorSecret(fake(), a))();
  (await shareCursorSecret(fake(), b))();
  assert.deepEqual(b.decode(scope, a.encode(scope, state)), state);

  up = false;
  const c = new CursorCodec();
  const stop = await shareCursorSecret(fake(), c);
  stop();
  assert.throws(() => c.decode(scope, a.encode(scope, state)), /another deployment/);
});
