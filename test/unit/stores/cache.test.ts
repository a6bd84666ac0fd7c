import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { MemoryCache } from '../../../src/stores/cache/memory.ts';
import { RedisCache } from '../../../src/stores/cache/redis.ts';
import type { Cache } from '../../../src/stores/cache/types.ts';
import { createRedisClient } from '../../../src/stores/redis/connect.ts';
import { DEAD_REDIS_URL, redisSkip, useTestRedis, sleep } from './redis-env.ts';

/** Behaviour every backend must share. */
function cacheContract(make: () => Cache) {
  test('stores a value with fresh and stale deadlines', async () => {
    const cache = make();
    const before = Date.now();
    await cache.set('post:1', { id: '1', text: 'héllo' }, 1000, 5000);
    const e = await cache.get('post:1');
    assert.ok(e);
    assert.deepEqual(e.value, { id: '1', text: 'héllo' });
    assert.ok(e.storedAt >= before && e.storedAt <= Date.now());
    assert.equal(e.freshUntil, e.storedAt + 1000);
    assert.equal(e.staleUntil, e.storedAt + 6000);
  });

  test('a missing key is undefined and delete removes an entry', async () => {
    const cache = make();
    assert.equal(await cache.get('nope'), undefined);
    await cache.set('gone', 1, 1000, 1000);
    await cache.delete('gone');
    assert.equal(await cache.get('gone'), undefined);
  });

  test('keeps the entry while stale and drops it after staleUntil', async () => {
    const cache = make();
    // Wide margins: a loaded machine may oversleep by tens of milliseconds.
    await cache.set('short', 'v', 20, 400);
    await sleep(40);
    const stale = await cache.get('short');
    assert.ok(stale, 'still there while stale');
    assert.ok(Date.now() >= stale.freshUntil);
    await sleep(500);
    assert.equal(await cache.get('short'), undefined);
  });
}

describe('MemoryCache', () => {
  cacheContract(() => new MemoryCache());

  test('is bounded by bytes (JSON length) and evicts least recently used first', async () => {
    const cache = new MemoryCache({ maxEntries: 100, maxBytes: 100 });
    const forty = 'x'.repeat(38); // JSON "…" = 40 bytes
    await cache.set('a', forty, 1000, 0);
    await cache.set('b', forty, 1000, 0);
    assert.equal(cache.calculatedSize, 80);
    await cache.get('a'); // a is now more recent than b
    await cache.set('c', forty, 1000, 0);
    assert.ok(cache.calculatedSize <= 100);
    assert.equal(await cache.get('b'), undefined, 'least recently used evicted');
    assert.ok(await cache.get('a'));
    assert.ok(await cache.get('c'));
  });

  test('counts multi-byte characters by their UTF-8 length', async () => {
    const cache = new MemoryCache({ maxBytes: 1000 });
    await cache.set('u', 'é'.repeat(10), 1000, 0);
    assert.equal(cache.calculatedSize, 22);
  });

  test('refuses a value larger than the byte bound and drops the older copy', async () => {
    const cache = new MemoryCache({ maxBytes: 50 });
    await cache.set('k', 'small', 1000, 0);
    await cache.set('k', 'y'.repeat(100), 1000, 0);
    assert.equal(await cache.get('k'), undefined);
    assert.equal(cache.calculatedSize, 0);
  });

  test('its generation changes whenever an entry held stops being held, and only then', async () => {
    const cache = new MemoryCache({ maxEntries: 2 });
    const g0 = cache.generation;
    await cache.set('a', 1, 1000, 5000);
    await cache.set('b', 2, 1000, 5000);
    cache.getNow('a');
    assert.equal(cache.generation, g0, 'new keys and reads leave it');
    await cache.set('a', 3, 1000, 5000);
    const g1 = cache.generation;
    assert.ok(g1 > g0, 'a replaced entry changes it');
    await cache.set('c', 4, 1000, 5000);
    const g2 = cache.generation;
    assert.ok(g2 > g1, 'an evicted entry changes it');
    await cache.delete('c');
    assert.ok(cache.generation > g2, 'a deleted entry changes it');
  });

  test('is bounded by entry count', async () => {
    const cache = new MemoryCache({ maxEntries: 3 });
    for (const k of ['a', 'b', 'c', 'd']) await cache.set(k, k, 1000, 0);
    assert.equal(cache.size, 3);
    assert.equal(await cache.get('a'), undefined);
    assert.equal(await cache.get('d').then((e) => e?.value), 'd');
  });
});

describe('RedisCache (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();

  cacheContract(() => new RedisCache(t.redis, { prefix: t.prefix }));

  test('writes JSON under <prefix>c: with a PX expiry at staleUntil', async () => {
    const cache = new RedisCache(t.redis, { prefix: t.prefix });
    await cache.set('ttl', { a: 1 }, 10_000, 20_000);
    const pttl = await t.redis.pttl(`${t.prefix}c:ttl`);
    assert.ok(pttl > 29_000 && pttl <= 30_000, `pttl ${pttl}`);
    const raw = JSON.parse((await t.redis.get(`${t.prefix}c:ttl`)) ?? 'null');
    assert.deepEqual(raw.v, { a: 1 });
  });

  test('a command failure is a miss reported to onDegraded, never an exception', async () => {
    const failing = {
      status: 'ready',
      get: async () => {
        throw new Error('boom');
      },
      set: async () => {
        throw new Error('boom');
      },
      del: async () => {
        throw new Error('boom');
      },
    } as unknown as Redis;
    const seen: string[] = [];
    const cache = new RedisCache(failing, {
      prefix: t.prefix,
      onDegraded: (err, op) => seen.push(`${op}:${err.message}`),
    });
    assert.equal(await cache.get('x'), undefined);
    await cache.set('x', 1, 1000, 1000);
    await cache.delete('x');
    assert.deepEqual(seen, ['cache.get:boom', 'cache.set:boom', 'cache.delete:boom']);
  });
});

test('RedisCache with Redis unreachable answers misses without throwing', async () => {
  const dead = createRedisClient(DEAD_REDIS_URL);
  dead.connect().catch(() => {});
  try {
    const cache = new RedisCache(dead);
    await cache.set('x', 1, 1000, 1000);
    assert.equal(await cache.get('x'), undefined);
    await cache.delete('x');
  } finally {
    dead.disconnect();
  }
});
