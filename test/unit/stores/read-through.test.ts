import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Problem } from '../../../src/problems/problem.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import { Coalescer, RedisFillLock } from '../../../src/stores/cache/coalesce.ts';
import { MemoryCache } from '../../../src/stores/cache/memory.ts';
import { cachedRead, isUpstreamFailure } from '../../../src/stores/cache/read-through.ts';
import { RedisCache } from '../../../src/stores/cache/redis.ts';
import type { Cache } from '../../../src/stores/cache/types.ts';
import { redisSkip, useTestRedis, sleep } from './redis-env.ts';

const LONG = { freshMs: 60_000, staleMs: 60_000, bypass: false };

/** A fake upstream that counts its calls and can be told to fail. */
function upstream<T>(value: T, delayMs = 0) {
  const u = {
    calls: 0,
    fail: undefined as Error | undefined,
    load: async (): Promise<T> => {
      u.calls++;
      if (delayMs) await sleep(delayMs);
      if (u.fail) throw u.fail;
      return value;
    },
  };
  return u;
}

function readThroughContract(makeCache: () => Cache) {
  test('miss loads and stores, then a fresh read is a hit without loading', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    const up = upstream({ id: '1' });
    const first = await cachedRead(cache, c, 'k1', LONG, up.load);
    assert.deepEqual(first, { value: { id: '1' }, cacheStatus: 'miss', charged: true, warnings: [] });
    const second = await cachedRead(cache, c, 'k1', LONG, up.load);
    assert.deepEqual(second, { value: { id: '1' }, cacheStatus: 'hit', charged: false, warnings: [] });
    assert.equal(up.calls, 1);
  });

  test('bypass always loads and refreshes the entry', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k2', 'old', 60_000, 60_000);
    const up = upstream('new');
    const r = await cachedRead(cache, c, 'k2', { ...LONG, bypass: true }, up.load);
    assert.equal(r.cacheStatus, 'bypass');
    assert.equal(r.value, 'new');
    assert.equal(r.charged, true);
    assert.equal((await cache.get('k2'))?.value, 'new');
  });

  test('a stale entry is reloaded (miss) when the upstream answers', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k3', 'old', 0, 60_000);
    const up = upstream('new');
    const r = await cachedRead(cache, c, 'k3', LONG, up.load);
    assert.equal(r.cacheStatus, 'miss');
    assert.equal(r.value, 'new');
  });

  test('stale-if-error: upstream failure with a stale copy serves it with a warning', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k4', { id: 'cached' }, 0, 60_000);
    const up = upstream('never');
    up.fail = new Problem('all_providers_failed', 'every provider failed');
    const r = await cachedRead(cache, c, 'k4', LONG, up.load);
    assert.equal(r.cacheStatus, 'stale');
    assert.deepEqual(r.value, { id: 'cached' });
    assert.equal(r.charged, true);
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0]!, /^stale: upstream failed \(all_providers_failed\)/);
  });

  test('stale-if-error also covers nocache requests', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k5', 'cached', 60_000, 60_000);
    const up = upstream('never');
    up.fail = new ProviderError('fxtwitter', 'network', 'socket hang up');
    const r = await cachedRead(cache, c, 'k5', { ...LONG, bypass: true }, up.load);
    assert.equal(r.cacheStatus, 'stale');
    assert.equal(r.value, 'cached');
    assert.match(r.warnings[0]!, /fxtwitter_network/);
  });

  test('not_found and caller errors propagate even with a stale copy', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k6', 'cached', 0, 60_000);
    for (const err of [
      new Problem('not_found'),
      new ProviderError('fxtwitter', 'not_found', 'gone'),
      new Problem('rate_limited'),
    ]) {
      const up = upstream('x');
      up.fail = err;
      await assert.rejects(cachedRead(cache, c, 'k6', LONG, up.load), (e) => e === err);
    }
  });

  test('upstream failure without any copy propagates', async () => {
    const cache = makeCache();
    const up = upstream('x');
    up.fail = Object.assign(new Error('bad gateway'), { status: 502 });
    await assert.rejects(cachedRead(cache, new Coalescer(), 'k7', LONG, up.load), /bad gateway/);
    assert.equal(await cache.get('k7'), undefined, 'failures are not cached');
  });

  test('N concurrent misses for one key make one upstream call; only the leader is charged', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    const up = upstream({ n: 1 }, 30);
    const results = await Promise.all(Array.from({ length: 10 }, () => cachedRead(cache, c, 'k8', LONG, up.load)));
    assert.equal(up.calls, 1);
    assert.ok(results.every((r) => r.cacheStatus === 'miss' && r.value.n === 1));
    assert.equal(results.filter((r) => r.charged).length, 1);
    assert.equal(c.inflight, 0);
  });
}

describe('cachedRead over MemoryCache', () => {
  readThroughContract(() => new MemoryCache());

  test('a joiner that inherits the leader’s 429 retries with its own load', async () => {
    const cache = new MemoryCache();
    const c = new Coalescer();
    const leader = upstream('x', 20);
    leader.fail = new Problem('rate_limited');
    const joiner = upstream('joined');
    const [a, b] = await Promise.allSettled([
      cachedRead(cache, c, 'k9', LONG, leader.load),
      (async () => {
        await sleep(5);
        return cachedRead(cache, c, 'k9', LONG, joiner.load);
      })(),
    ]);
    assert.equal(a.status, 'rejected');
    assert.equal(b.status, 'fulfilled');
    assert.equal(b.status === 'fulfilled' && b.value.value, 'joined');
    assert.equal(joiner.calls, 1);
  });
});

test('isUpstreamFailure classifies errors', () => {
  assert.equal(isUpstreamFailure(new ProviderError('x', 'error', 'm')), true);
  assert.equal(isUpstreamFailure(new ProviderError('x', 'unavailable', 'm')), true);
  assert.equal(isUpstreamFailure(new ProviderError('x', 'not_found', 'm')), false);
  assert.equal(isUpstreamFailure(new Problem('upstream_error')), true);
  assert.equal(isUpstreamFailure(new Problem('syndication_empty')), true);
  assert.equal(isUpstreamFailure(new Problem('not_found')), false);
  assert.equal(isUpstreamFailure(new Problem('invalid_url')), false);
  assert.equal(isUpstreamFailure(Object.assign(new Error('x'), { status: 503 })), true);
  assert.equal(isUpstreamFailure(new TypeError('bug')), false);
});

describe('cachedRead over RedisCache (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();

  readThroughContract(() => new RedisCache(t.redis, { prefix: t.prefix }));

  test('two instances with RedisFillLock: the second waits for the first fill instead of loading', async () => {
    // Two "instances": separate clients, caches and coalescers sharing only Redis.
    const a = {
      cache: new RedisCache(t.redis, { prefix: t.prefix }),
      c: new Coalescer({ lock: new RedisFillLock(t.redis, { prefix: t.prefix, pollMs: 10 }) }),
    };
    const b = {
      cache: new RedisCache(t.peer, { prefix: t.prefix }),
      c: new Coalescer({ lock: new RedisFillLock(t.peer, { prefix: t.prefix, pollMs: 10 }) }),
    };
    const up = upstream({ shared: true }, 80);
    const [ra, rb] = await Promise.all([
      cachedRead(a.cache, a.c, 'lock1', LONG, up.load),
      (async () => {
        await sleep(15);
        return cachedRead(b.cache, b.c, 'lock1', LONG, up.load);
      })(),
    ]);
    assert.equal(up.calls, 1);
    assert.deepEqual(ra.value, { shared: true });
    assert.deepEqual(rb.value, { shared: true });
    assert.equal(ra.charged, true);
    assert.equal(rb.charged, false);
    assert.equal(await t.redis.exists(`${t.prefix}l:lock1`), 0, 'lock released');
  });

  test('a waiter takes over when the lock holder fails without filling', async () => {
    const a = {
      cache: new RedisCache(t.redis, { prefix: t.prefix }),
      c: new Coalescer({ lock: new RedisFillLock(t.redis, { prefix: t.prefix, pollMs: 10 }) }),
    };
    const b = {
      cache: new RedisCache(t.peer, { prefix: t.prefix }),
      c: new Coalescer({ lock: new RedisFillLock(t.peer, { prefix: t.prefix, pollMs: 10 }) }),
    };
    const failing = upstream('x', 40);
    failing.fail = new Problem('all_providers_failed');
    const working = upstream('from b');
    const [ra, rb] = await Promise.allSettled([
      cachedRead(a.cache, a.c, 'lock2', LONG, failing.load),
      (async () => {
        await sleep(10);
        return cachedRead(b.cache, b.c, 'lock2', LONG, working.load);
      })(),
    ]);
    assert.equal(ra.status, 'rejected');
    assert.equal(rb.status === 'fulfilled' && rb.value.value, 'from b');
    assert.equal(working.calls, 1);
  });
});
