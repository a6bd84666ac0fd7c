// The read path tells a request's policy when a read failed upstream or fell back to a stale copy, so the answer
// built from it is known to be degraded (and is never remembered by the hit replay); a settled "not found" is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CachedReader } from '../../../src/sources/cached-reader.ts';
import { MemoryCache } from '../../../src/stores/cache/memory.ts';
import { Coalescer } from '../../../src/stores/cache/coalesce.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import type { ReadPolicy } from '../../../src/domain/sourced.ts';
import { FREE_PAYER } from '../../helpers/payer.ts';

function policy(): { p: ReadPolicy; degraded: () => number } {
  let n = 0;
  return { p: { mode: 'shared', payer: FREE_PAYER, onDegraded: () => n++ }, degraded: () => n };
}

test('a fresh read and a hit are not degraded', async () => {
  const reader = new CachedReader(new MemoryCache(), new Coalescer(), 60);
  const a = policy();
  await reader.read('k', a.p, async () => ({ value: 1, source: 'fx' }));
  await reader.read('k', a.p, async () => ({ value: 2, source: 'fx' }));
  assert.equal(a.degraded(), 0);
});

test('an upstream failure is degraded, and so is the stale copy served for one', async () => {
  const cache = new MemoryCache();
  const reader = new CachedReader(cache, new Coalescer(), 60);
  const fail = async (): Promise<{ value: number; source: string }> => {
    throw new ProviderError('fx', 'network', 'down');
  };
  const a = policy();
  await assert.rejects(reader.read('missing', a.p, fail));
  assert.equal(a.degraded(), 1);

  await reader.read('k', policy().p, async () => ({ value: 1, source: 'fx' }));
  const entry = await cache.get('k');
  assert.ok(entry);
  // Stored again already past its fresh lifetime: the next read must try the upstream, and may fall back to it.
  await cache.set('k', entry.value, 0, 3_600_000);
  const b = policy();
  const got = await reader.read('k', b.p, fail);
  assert.equal(got.cache, 'stale');
  assert.equal(b.degraded(), 1);
});

test('not found is a settled answer, not a degraded one', async () => {
  const reader = new CachedReader(new MemoryCache(), new Coalescer(), 60);
  const a = policy();
  await assert.rejects(
    reader.read('gone', a.p, async () => {
      throw new ProviderError('fx', 'not_found', 'no such post');
    }),
  );
  assert.equal(a.degraded(), 0);
});
