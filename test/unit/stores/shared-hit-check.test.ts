// The distributed hit check (stores/shared-hit-check.ts) against the real Redis: checks made in the same turn of
// the event loop travel in one script call, and each is answered as if it had run alone, in order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_BATCH, SharedHitCheck } from '../../../src/stores/shared-hit-check.ts';
import { redisSkip, useTestRedis } from './redis-env.ts';

describe('SharedHitCheck (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();
  const entry = (stamp: number) => JSON.stringify({ v: 'body', s: stamp, f: stamp + 60_000, t: stamp + 120_000 });
  const make = (quota: number) =>
    new SharedHitCheck(t.redis, {
      limitKey: (p) => `${t.prefix}rl:api-ip:${p}`,
      cacheKey: (k) => `${t.prefix}c:${k}`,
      quota,
      windowS: 60,
    });

  test('concurrent checks share one call and stop exactly at the quota', async () => {
    await t.redis.set(`${t.prefix}c:a`, entry(1000));
    const check = make(5);
    const got = await Promise.all(Array.from({ length: 8 }, () => check.check('client-1', [['a', 1000]])));
    assert.equal(check.calls, 1);
    assert.deepEqual(
      got.map((g) => (typeof g === 'string' ? g : g.consumed)),
      [1, 2, 3, 4, 5, 'refused', 'refused', 'refused'],
    );
    for (const g of got.slice(0, 5)) assert.ok(typeof g !== 'string' && g.ttlMs > 0 && g.ttlMs <= 60_000);
    assert.equal(await t.redis.get(`${t.prefix}rl:api-ip:client-1`), '5', 'refusals charge nothing');
  });

  test('each check of a batch is judged on its own entries and its own client', async () => {
    await t.redis.set(`${t.prefix}c:b`, entry(2000));
    await t.redis.set(`${t.prefix}c:c`, entry(3000));
    const check = make(600);
    const got = await Promise.all([
      check.check('client-2', [['b', 2000]]),
      check.check('client-2', [['b', 1999]]),
      check.check('client-3', [
        ['b', 2000],
        ['c', 3000],
      ]),
      check.check('client-3', [
        ['b', 2000],
        ['gone', 1],
      ]),
      check.check('client-2', [['b', 2000]]),
    ]);
    assert.equal(check.calls, 1);
    assert.deepEqual(
      got.map((g) => (typeof g === 'string' ? g : g.consumed)),
      [1, 'changed', 1, 'changed', 2],
    );
  });

  test('a burst larger than one call is split, and every check is answered once', async () => {
    await t.redis.set(`${t.prefix}c:d`, entry(4000));
    const check = make(10_000);
    const n = MAX_BATCH * 2 + 3;
    const got = await Promise.all(Array.from({ length: n }, () => check.check('client-4', [['d', 4000]])));
    assert.equal(check.calls, 3);
    assert.deepEqual(
      got.map((g) => (typeof g === 'string' ? g : g.consumed)),
      Array.from({ length: n }, (_, i) => i + 1),
    );
  });

  test('Redis unreachable: every pending check fails (the replay then hands the request to Fastify)', async () => {
    const dead = await t.open();
    const check = new SharedHitCheck(dead, {
      limitKey: (p) => `${t.prefix}rl:api-ip:${p}`,
      cacheKey: (k) => `${t.prefix}c:${k}`,
      quota: 600,
      windowS: 60,
    });
    dead.disconnect();
    const got = await Promise.allSettled([check.check('x', [['a', 1]]), check.check('y', [['a', 1]])]);
    assert.deepEqual(
      got.map((g) => g.status),
      ['rejected', 'rejected'],
    );
  });
});
