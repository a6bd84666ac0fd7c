// The response store check (stores/stored-response-check.ts) against the real Redis: checks made in the same turn of
// the event loop travel in one script call, and each is answered as if it had run alone, in order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_BATCH, StoredResponseCheck } from '../../../src/stores/stored-response-check.ts';
import { RedisCache, storedTail } from '../../../src/stores/cache/redis.ts';
import { Limiter } from '../../../src/stores/limits/limiter.ts';
import { redisSkip, useTestRedis } from './redis-env.ts';

describe('StoredResponseCheck (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();
  const stamps = (s: number) => ({ storedAt: s, freshUntil: s + 60_000, staleUntil: s + 120_000 });
  const entry = (s: number) => JSON.stringify({ v: 'body', s, f: s + 60_000, t: s + 120_000 });
  const tail = (s: number) => storedTail(stamps(s));
  const make = (quota: number) =>
    new StoredResponseCheck(t.redis, {
      limitKey: (p) => `${t.prefix}rl:api-ip:${p}`,
      cacheKey: (k) => `${t.prefix}c:${k}`,
      quota,
      windowS: 60,
    });

  test('concurrent checks share one call and stop exactly at the quota', async () => {
    await t.redis.set(`${t.prefix}c:a`, entry(1000));
    const check = make(5);
    const got = await Promise.all(Array.from({ length: 8 }, () => check.check('client-1', [['a', tail(1000)]])));
    assert.equal(check.calls, 1);
    assert.deepEqual(
      got.map((g) => (typeof g === 'string' ? g : g.consumed)),
      [1, 2, 3, 4, 5, 'refused', 'refused', 'refused'],
    );
    for (const g of got.slice(0, 5)) assert.ok(typeof g !== 'string' && g.ttlMs > 0 && g.ttlMs <= 60_000);
    assert.equal(await t.redis.get(`${t.prefix}rl:api-ip:client-1`), '5', 'refusals charge nothing');
  });

  test("the check's charge is the limiter's window: one counter, one quota, one window end", async () => {
    await t.redis.set(`${t.prefix}c:w`, entry(1000));
    const limiter = new Limiter({ redis: t.redis, prefix: t.prefix, quotas: { 'api-ip': 4 } });
    const api = limiter.policy('api-ip');
    const check = new StoredResponseCheck(t.redis, {
      limitKey: (p) => limiter.redisKey('api-ip', p),
      cacheKey: (k) => `${t.prefix}c:${k}`,
      quota: api.quota,
      windowS: api.windowS,
    });
    const first = await limiter.consume('api-ip', 'both-paths', 2);
    const hit = await check.check('both-paths', [['w', tail(1000)]]);
    assert.ok(typeof hit !== 'string', 'charged');
    assert.equal(hit.consumed, 3, 'counted on top of the limiter');
    const charged = limiter.chargedState('api-ip', hit.consumed, hit.ttlMs);
    assert.equal(charged.remaining, 1);
    // The check found the window the limiter opened: it ends when the limiter said it would.
    assert.ok(Math.abs(charged.windowEndsAt! - first.windowEndsAt!) < 1000);
    assert.equal((await limiter.consume('api-ip', 'both-paths')).remaining, 0);
    assert.equal(await check.check('both-paths', [['w', tail(1000)]]), 'refused');
    assert.equal((await limiter.peek('api-ip', 'both-paths')).remaining, 0, 'a refused check charges nothing');
    assert.equal(await t.redis.get(limiter.redisKey('api-ip', 'both-paths')), '4');
    assert.equal((await limiter.consume('api-ip', 'both-paths')).allowed, false);
  });

  test('each check of a batch is judged on its own entries and its own client', async () => {
    await t.redis.set(`${t.prefix}c:b`, entry(2000));
    await t.redis.set(`${t.prefix}c:c`, entry(3000));
    const check = make(600);
    const got = await Promise.all([
      check.check('client-2', [['b', tail(2000)]]),
      check.check('client-2', [['b', tail(1999)]]),
      check.check('client-3', [
        ['b', tail(2000)],
        ['c', tail(3000)],
      ]),
      check.check('client-3', [
        ['b', tail(2000)],
        ['gone', tail(1)],
      ]),
      check.check('client-2', [['b', tail(2000)]]),
    ]);
    assert.equal(check.calls, 1);
    assert.deepEqual(
      got.map((g) => (typeof g === 'string' ? g : g.consumed)),
      [1, 'changed', 1, 'changed', 2],
    );
  });

  test('checks of one record share its entries: read once per call, each check still charged on its own', async () => {
    await t.redis.set(`${t.prefix}c:f`, entry(5000));
    const check = make(2);
    const live = [['f', tail(5000)]] as const;
    const stale = [['f', tail(4999)]] as const;
    const got = await Promise.all([
      check.check('client-6', live),
      check.check('client-7', live),
      check.check('client-6', stale),
      check.check('client-6', live),
      check.check('client-6', live),
      check.check('client-7', stale),
    ]);
    assert.equal(check.calls, 1);
    assert.deepEqual(
      got.map((g) => (typeof g === 'string' ? g : g.consumed)),
      [1, 1, 'changed', 2, 'refused', 'changed'],
    );
  });

  test('an entry written by RedisCache is vouched for by its own tail, and by nothing else', async () => {
    const cache = new RedisCache(t.redis, { prefix: t.prefix });
    await cache.set('e', { text: 'post "s":1,"f":2,"t":3}' }, 60_000, 120_000);
    const stored = (await cache.get('e'))!;
    await t.redis.set(`${t.prefix}c:short`, '}');
    const check = make(600);
    const same = storedTail(stored);
    const got = await Promise.all([
      check.check('client-5', [['e', same]]),
      // Same stored-at, other freshness: rewritten by someone else, so not the entry the response was built from.
      check.check('client-5', [['e', storedTail({ ...stored, freshUntil: stored.freshUntil + 1 })]]),
      check.check('client-5', [['short', same]]),
    ]);
    assert.deepEqual(
      got.map((g) => (typeof g === 'string' ? g : g.consumed)),
      [1, 'changed', 'changed'],
    );
  });

  test('a burst larger than one call is split, and every check is answered once', async () => {
    await t.redis.set(`${t.prefix}c:d`, entry(4000));
    const check = make(10_000);
    const n = MAX_BATCH * 2 + 3;
    const got = await Promise.all(Array.from({ length: n }, () => check.check('client-4', [['d', tail(4000)]])));
    assert.equal(check.calls, 3);
    assert.deepEqual(
      got.map((g) => (typeof g === 'string' ? g : g.consumed)),
      Array.from({ length: n }, (_, i) => i + 1),
    );
  });

  test('Redis unreachable: every pending check fails (the replay then hands the request to Fastify)', async () => {
    const dead = await t.open();
    const check = new StoredResponseCheck(dead, {
      limitKey: (p) => `${t.prefix}rl:api-ip:${p}`,
      cacheKey: (k) => `${t.prefix}c:${k}`,
      quota: 600,
      windowS: 60,
    });
    dead.disconnect();
    const got = await Promise.allSettled([check.check('x', [['a', tail(1)]]), check.check('y', [['a', tail(1)]])]);
    assert.deepEqual(
      got.map((g) => g.status),
      ['rejected', 'rejected'],
    );
  });
});
