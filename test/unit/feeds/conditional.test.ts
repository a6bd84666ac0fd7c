// The conditional-request decision every public route uses, feeds' own 304 included (RFC 9110 §13.1.1, §13.1.3, §13.2.2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { notModifiedTag } from '../../../src/http/negotiation/conditional.ts';

const TAG = '"abc"';
const LM = 'Mon, 02 Mar 2026 09:00:00 GMT';

test('If-None-Match: strong, weak, listed, * and coding-marked tags match', () => {
  assert.equal(notModifiedTag({ 'if-none-match': TAG }, TAG, LM), TAG);
  assert.equal(notModifiedTag({ 'if-none-match': `W/${TAG}` }, TAG, LM), TAG);
  assert.equal(notModifiedTag({ 'if-none-match': `"x", ${TAG}` }, TAG, LM), TAG);
  assert.equal(notModifiedTag({ 'if-none-match': '*' }, TAG, LM), TAG);
  assert.equal(
    notModifiedTag({ 'if-none-match': '"abc-gzip"' }, TAG, LM),
    '"abc-gzip"',
    'the 304 names the coding the client holds',
  );
  assert.equal(notModifiedTag({ 'if-none-match': '"abd"' }, TAG, LM), undefined);
});

test('If-None-Match decides alone when present', () => {
  assert.equal(notModifiedTag({ 'if-none-match': '"other"', 'if-modified-since': LM }, TAG, LM), undefined);
});

test('If-Modified-Since: not modified at or after Last-Modified; garbage or no Last-Modified sends the feed', () => {
  assert.equal(notModifiedTag({ 'if-modified-since': LM }, TAG, LM), TAG);
  assert.equal(notModifiedTag({ 'if-modified-since': 'Tue, 03 Mar 2026 09:00:00 GMT' }, TAG, LM), TAG);
  assert.equal(notModifiedTag({ 'if-modified-since': 'Sun, 01 Mar 2026 09:00:00 GMT' }, TAG, LM), undefined);
  assert.equal(notModifiedTag({ 'if-modified-since': 'yesterday' }, TAG, LM), undefined);
  assert.equal(notModifiedTag({ 'if-modified-since': LM }, TAG, undefined), undefined);
});
