// The limiter's fallback while Redis is unreachable: per-instance counting in the same bounded window table as
// embedded mode, with no object or timer per client, so a flood of distinct addresses during an outage cannot
// grow the heap or the timer list without bound, and every client's count stays exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Limiter } from '../../../src/stores/limits/limiter.ts';
import { createRedisClient } from '../../../src/stores/redis/connect.ts';
import { DEAD_REDIS_URL, uniquePrefix } from './redis-env.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

test('Redis unreachable: 20,000 distinct clients leave no timer and little heap behind, counts exact', async () => {
  const dead = createRedisClient(DEAD_REDIS_URL);
  dead.connect().catch(() => {});
  try {
    const limiter = new Limiter({ redis: dead, prefix: uniquePrefix() });
    // A first client warms the code paths (and the table) before the baseline is taken.
    await limiter.consume('api-ip', '192.0.2.1');
    gc();
    const before = { timers: timers(), heap: process.memoryUsage().heapUsed };
    for (let i = 0; i < 20_000; i++) {
      const got = await limiter.consume('api-ip', `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      assert.equal(got.remaining, 599);
    }
    gc();
    const grown = { timers: timers() - before.timers, heap: process.memoryUsage().heapUsed - before.heap };
    assert.ok(grown.timers <= 2, `timers grew by ${grown.timers}`);
    // A record per client (the insurance limiter's) is several hundred bytes; the table is 16 bytes a slot.
    assert.ok(grown.heap < 4 * 1024 * 1024, `heap grew by ${grown.heap} bytes`);
    // Still exact: a client charged up to its quota is refused at the next request, and only then.
    const c = '10.200.0.1';
    for (let i = 599; i >= 0; i--) assert.equal((await limiter.consume('api-ip', c)).remaining, i);
    assert.equal((await limiter.consume('api-ip', c)).allowed, false);
    assert.equal((await limiter.peek('api-ip', c)).remaining, 0);
    assert.equal((await limiter.peek('api-ip', '10.0.0.7')).remaining, 599);
  } finally {
    dead.disconnect();
  }
});
