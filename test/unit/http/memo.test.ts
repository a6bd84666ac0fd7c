// The render memo: one render per (value, variant) once a value is seen again, a strong tag with the body,
// and never a rendering of another value or variant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderOnce, renderedSize } from '../../../src/http/present/memo.ts';
import { ResponseCache } from '../../../src/stores/cache/responses.ts';
import { entityTagOf } from '../../../src/http/negotiation/entity-tags.ts';
import type { Rendered } from '../../../src/contract/route-decl.ts';

const renders = new ResponseCache(8 * 1024 * 1024).slot<Rendered>('render', renderedSize);

function counter(body: string) {
  const calls = { n: 0 };
  const render = (): Rendered => {
    calls.n++;
    return { body, contentType: 'text/markdown; charset=utf-8', headers: { vary: 'Accept' } };
  };
  return { calls, render };
}

test('a value seen once is rendered, not stored; from the second sighting one render serves all', () => {
  const value = {};
  const { calls, render } = counter('# hello');
  const first = renderOnce(renders, value, 'markdown', render);
  assert.equal(first.headers.etag, entityTagOf('# hello'));
  renderOnce(renders, value, 'markdown', render);
  renderOnce(renders, value, 'markdown', render);
  renderOnce(renders, value, 'markdown', render);
  assert.equal(calls.n, 2);
});

test('variants and values are kept apart', () => {
  const a = {};
  const b = {};
  for (const v of [a, b]) renderOnce(renders, v, 'x', () => ({ body: '', contentType: 't', headers: {} }));
  const ja = renderOnce(renders, a, 'json', () => ({ body: 'A-json', contentType: 't', headers: {} }));
  const ma = renderOnce(renders, a, 'markdown', () => ({ body: 'A-md', contentType: 't', headers: {} }));
  const jb = renderOnce(renders, b, 'json', () => ({ body: 'B-json', contentType: 't', headers: {} }));
  assert.equal(renderOnce(renders, a, 'json', () => assert.fail('memoised')).body, ja.body);
  assert.equal(renderOnce(renders, a, 'markdown', () => assert.fail('memoised')).body, ma.body);
  assert.equal(renderOnce(renders, b, 'json', () => assert.fail('memoised')).body, jb.body);
  assert.notEqual(ja.headers.etag, jb.headers.etag);
});

test('a tag the renderer set is kept', () => {
  const out = renderOnce(renders, {}, 'v', () => ({ body: 'x', contentType: 't', headers: { etag: '"own"' } }));
  assert.equal(out.headers.etag, '"own"');
});

test('a stored render carries its body encoded once, byte for byte', () => {
  const value = {};
  const { render } = counter('é ✓ 🧵');
  assert.equal(renderOnce(renders, value, 'markdown', render).bytes, undefined);
  const stored = renderOnce(renders, value, 'markdown', render);
  assert.deepEqual(stored.bytes, Buffer.from('é ✓ 🧵', 'utf8'));
  assert.equal(renderOnce(renders, value, 'markdown', () => assert.fail('memoised')).bytes, stored.bytes);
});
