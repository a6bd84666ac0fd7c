// The response cache on its own: stable keys, slots kept apart, the byte bound, and its counters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache, stableKey } from '../../../src/stores/cache/responses.ts';

test('stableKey ignores the order fields were written in, at every level, and tells different values apart', () => {
  assert.equal(
    stableKey({ a: 1, b: { c: 2, d: [1, { f: 1, e: 2 }] } }),
    stableKey({ b: { d: [1, { e: 2, f: 1 }], c: 2 }, a: 1 }),
  );
  assert.notEqual(stableKey({ a: 1, b: 2 }), stableKey({ a: 1, b: 3 }));
  // An option added later (here: full) is part of the key without anyone listing it.
  assert.notEqual(
    stableKey({ representation: 'markdown', thread: 'full' }),
    stableKey({ representation: 'markdown', thread: 'full', full: true }),
  );
  assert.notEqual(stableKey([1, 2]), stableKey([2, 1]));
});

test('a value is derived once per (source, options), slots and sources stay apart, and stats count lookups', () => {
  const cache = new ResponseCache(1024 * 1024);
  const a = cache.slot<string>('a', (v) => v.length);
  const b = cache.slot<string>('b', (v) => v.length);
  const src = {};
  let builds = 0;
  const build = (v: string) => () => {
    builds++;
    return v;
  };
  assert.equal(a.derive(src, { x: 1 }, build('one')), 'one');
  assert.equal(a.derive(src, { x: 1 }, build('again')), 'one');
  assert.equal(a.derive(src, { x: 2 }, build('two')), 'two');
  assert.equal(b.derive(src, { x: 1 }, build('b-one')), 'b-one');
  assert.equal(a.derive({}, { x: 1 }, build('other source')), 'other source');
  assert.equal(builds, 4);
  assert.deepEqual(cache.stats(), { entries: 4, bytes: 3 + 3 + 5 + 12, hits: 1, misses: 4 });
});

test('with an unstored builder, a first sighting is neither stored nor looked up', () => {
  const cache = new ResponseCache(1024);
  const slot = cache.slot<string>('r', (v) => v.length);
  const src = {};
  assert.equal(
    slot.derive(
      src,
      'k',
      () => 'stored',
      () => 'first',
    ),
    'first',
  );
  assert.deepEqual(cache.stats(), { entries: 0, bytes: 0, hits: 0, misses: 0 });
  assert.equal(
    slot.derive(
      src,
      'k',
      () => 'stored',
      () => 'first',
    ),
    'stored',
  );
  assert.equal(
    slot.derive(
      src,
      'k',
      () => 'again',
      () => 'first',
    ),
    'stored',
  );
});

test('byContent keys by what the value is made from; the byte bound evicts the least recently used', () => {
  const cache = new ResponseCache(100);
  const slot = cache.slot<string>('feed', (v) => v.length);
  assert.equal(
    slot.byContent({ posts: [1, 2] }, () => 'x'.repeat(60)),
    'x'.repeat(60),
  );
  assert.equal(
    slot.byContent({ posts: [1, 2] }, () => 'never'),
    'x'.repeat(60),
  );
  slot.byContent({ posts: [3] }, () => 'y'.repeat(60));
  assert.equal(cache.stats().entries, 1, 'the older entry made room');
  assert.ok(cache.stats().bytes <= 100);
  assert.equal(
    slot.byContent({ posts: [1, 2] }, () => 'rebuilt'),
    'rebuilt',
  );
});
