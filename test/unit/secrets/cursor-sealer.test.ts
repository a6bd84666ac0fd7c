// The AES-GCM cursor sealer behind the domain's port: why a token does not open decides the words the client reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AesGcmCursorSealer } from '../../../src/secrets/cursor-sealer.ts';

const scope = { route: 'followers', query: 'alice', feed: '' };
const state = { provider: 'x', upstream: 'raw-7', page: 3, skip: 4, last: '99' };

test('a sealed position opens in its own scope, with every field it was sealed with', () => {
  const sealer = new AesGcmCursorSealer('a secret of the deployment');
  assert.deepEqual(sealer.open(scope, sealer.seal(scope, state)), { ok: true, state });
});

test('a token that is not base64url of a sealed payload is not_issued, whatever it is', () => {
  const sealer = new AesGcmCursorSealer('a secret of the deployment');
  const token = sealer.seal(scope, state);
  for (const bad of ['', 'junk', 'a'.repeat(30), `${token}=`, token.replace(/.$/, '+')]) {
    assert.deepEqual(sealer.open(scope, bad), { ok: false, why: 'not_issued' }, bad);
  }
});

test('an edited token, or one sealed with another secret, is forged', () => {
  const sealer = new AesGcmCursorSealer('a secret of the deployment');
  const token = sealer.seal(scope, state);
  const mid = Math.floor(token.length / 2);
  const edited = token.slice(0, mid) + (token[mid] === 'A' ? 'B' : 'A') + token.slice(mid + 1);
  assert.deepEqual(sealer.open(scope, edited), { ok: false, why: 'forged' });
  const other = new AesGcmCursorSealer('another deployment entirely');
  assert.deepEqual(sealer.open(scope, other.seal(scope, state)), { ok: false, why: 'forged' });
});

test('a genuine token on another route, query or feed is elsewhere', () => {
  const sealer = new AesGcmCursorSealer('a secret of the deployment');
  const token = sealer.seal(scope, state);
  for (const moved of [
    { ...scope, route: 'following' },
    { ...scope, query: 'bob' },
    { ...scope, feed: 'top' },
  ]) {
    assert.deepEqual(sealer.open(moved, token), { ok: false, why: 'elsewhere' });
  }
});
