// The cursor sealer's switch to a cluster-wide secret, and how secrets/cursor-secret.ts agrees on one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AesGcmCursorSealer } from '../../../src/secrets/cursor-sealer.ts';
import { shareCursorSecret } from '../../../src/secrets/cursor-secret.ts';
import type { Stores } from '../../../src/stores/index.ts';

const scope = { route: 'followers', query: 'bigaccount', feed: '' };
const state = { provider: 'fxtwitter', upstream: 'abc', page: 2 };
const opens = { ok: true, state };
const forged = { ok: false, why: 'forged' };

test('after adopting a shared secret, cursors sealed before still open and new ones open on every peer', () => {
  const a = new AesGcmCursorSealer();
  const b = new AesGcmCursorSealer();
  const before = a.seal(scope, state);
  a.adopt('shared-secret-of-the-cluster');
  b.adopt('shared-secret-of-the-cluster');
  assert.deepEqual(a.open(scope, before), opens);
  assert.deepEqual(b.open(scope, a.seal(scope, state)), opens);
  assert.deepEqual(b.open(scope, before), forged);
});

test('the first candidate stored wins; an unreachable store leaves the local secret', async () => {
  let stored: string | undefined;
  let up = true;
  const fake = () =>
    ({
      sharedSecret: async (_name: string, candidate: string) => (up ? (stored ??= candidate) : undefined),
    }) as unknown as Stores;
  const [a, b] = [new AesGcmCursorSealer(), new AesGcmCursorSealer()];
  (await shareCursorSecret(fake(), a))();
  (await shareCursorSecret(fake(), b))();
  assert.deepEqual(b.open(scope, a.seal(scope, state)), opens);

  up = false;
  const c = new AesGcmCursorSealer();
  const stop = await shareCursorSecret(fake(), c);
  stop();
  assert.deepEqual(c.open(scope, a.seal(scope, state)), forged);
});
