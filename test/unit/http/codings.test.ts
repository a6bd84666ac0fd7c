// Which coding a request gets (http/negotiation/codings.ts), and that encoding one body twice gives the same bytes:
// the tag of a coded body names one byte sequence whichever path wrote it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { codingFor, codingsApply, encode } from '../../../src/http/negotiation/codings.ts';

test('the client’s most preferred of br and gzip, br on a tie, identity otherwise', () => {
  const cases: Array<[string | undefined, string | undefined]> = [
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['gzip, deflate', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['*', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['br, gzip;q=0.9', 'br'],
  ];
  for (const [header, want] of cases) {
    assert.equal(codingFor(header, false), want, JSON.stringify(header));
    // Asked twice (the second answer is remembered): the same.
    assert.equal(codingFor(header, false), want, `${JSON.stringify(header)} again`);
  }
  assert.equal(codingFor('gzip, br', true), undefined, 'X-No-Compression');
});

test('codings apply to compressible types from the threshold up', () => {
  assert.equal(codingsApply('text/markdown; charset=utf-8', 1024), true);
  assert.equal(codingsApply('application/json', 1023), false);
  assert.equal(codingsApply('image/png', 50_000), false);
  assert.equal(codingsApply('text/event-stream', 50_000), false);
  assert.equal(codingsApply(undefined, 50_000), false);
});

test('one body encodes to the same bytes every time, and decodes back', async () => {
  const body = Buffer.from('A thread, in Markdown. '.repeat(200));
  for (const coding of ['gzip', 'br'] as const) {
    const [a, b] = await Promise.all([encode(body, coding), encode(body, coding)]);
    assert.ok(a.equals(b), coding);
    assert.ok(a.length < body.length, coding);
    assert.ok((coding === 'gzip' ? gunzipSync(a) : brotliDecompressSync(a)).equals(body), coding);
  }
});
