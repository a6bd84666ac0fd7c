// RedisCache reuses its last parse of a key while Redis holds the same bytes, so repeated hits hand out one
// object (what the render memo keys on) and a write from any instance is seen at once.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RedisCache } from '../../../src/stores/cache/redis.ts';
import { redisSkip, useTestRedis } from './redis-env.ts';

describe('RedisCache parse reuse (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();

  test('same bytes, same object; the writer gets back the object it stored', async () => {
    const writer = new RedisCache(t.redis, { prefix: t.prefix });
    const reader = new RedisCache(t.peer, { prefix: t.prefix });
    const value = { id: '1', text: 'first' };
    await writer.set('post:1', value, 60_000, 60_000);
    assert.equal((await writer.get('post:1'))?.value, value);
    const a = await reader.get('post:1');
    const b = await reader.get('post:1');
    assert.ok(a && b);
    assert.deepEqual(a.value, value);
    assert.equal(a.value, b.value, 'one parse for unchanged bytes');
  });

  test('a write by another instance or a delete is seen on the next read', async () => {
    const one = new RedisCache(t.redis, { prefix: t.prefix });
    const two = new RedisCache(t.peer, { prefix: t.prefix });
    await one.set('post:2', { v: 1 }, 60_000, 60_000);
    assert.deepEqual((await two.get('post:2'))?.value, { v: 1 });
    await one.set('post:2', { v: 2 }, 60_000, 60_000);
    assert.deepEqual((await two.get('post:2'))?.value, { v: 2 });
    await t.redis.set(`${t.prefix}c:post:2`, JSON.stringify({ v: { v: 3 }, s: 1, f: 2, t: 3 }));
    assert.deepEqual((await one.get('post:2'))?.value, { v: 3 }, 'bytes written outside the cache');
    await two.delete('post:2');
    assert.equal(await one.get('post:2'), undefined);
    assert.equal(await two.get('post:2'), undefined);
  });
});
