// The response store may only hold an answer whose Vary dimensions are all part of its key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { varyIsKeyed } from '../../../../src/http/responses/store.ts';

test('responses varying only on Accept, Accept-Encoding, User-Agent and X-Link-Preview may be recorded', () => {
  assert.equal(varyIsKeyed(undefined), true);
  assert.equal(varyIsKeyed('Accept'), true);
  assert.equal(varyIsKeyed('Accept, Accept-Encoding'), true);
  assert.equal(varyIsKeyed('accept,  User-Agent'), true);
  assert.equal(varyIsKeyed(['Accept', 'Accept-Encoding']), true);
  assert.equal(varyIsKeyed('Accept, X-Link-Preview, Accept-Encoding'), true);
});

test('a response varying on any other header, or on *, is never recorded', () => {
  assert.equal(varyIsKeyed('Accept, Origin'), false);
  assert.equal(varyIsKeyed('Authorization'), false);
  assert.equal(varyIsKeyed('*'), false);
  assert.equal(varyIsKeyed(['Accept', 'Accept-Language']), false);
});
