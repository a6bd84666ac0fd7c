// Shared by the store tests: the real Redis (CI guarantees it and sets THREADMARK_REQUIRE_REDIS=1),
// an isolated key prefix per test run, and cleanup of everything written under it.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis, createRedisClient } from '../../../src/stores/redis.ts';

export const REDIS_URL = process.env.THREADMARK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** A port nothing listens on: the "store is down" case. */
export const DEAD_REDIS_URL = 'redis://127.0.0.1:1';

async function probe(): Promise<boolean> {
  const r = createRedisClient(REDIS_URL);
  const ok = (await connectRedis(r)) && (await r.ping().catch(() => '')) === 'PONG';
  r.disconnect();
  return ok;
}

const available = await probe();
if (!available && process.env.THREADMARK_REQUIRE_REDIS) {
  throw new Error(`THREADMARK_REQUIRE_REDIS is set but Redis at ${REDIS_URL} does not answer`);
}

/** `skip` option for suites that need Redis: false when it answers, else the reason. */
export const redisSkip: string | false = available ? false : `Redis at ${REDIS_URL} not reachable (set THREADMARK_REQUIRE_REDIS=1 to make this a failure)`;

export function uniquePrefix(): string {
  return `tm-test:${process.pid}-${randomBytes(4).toString('hex')}:`;
}

/** A connected client (same options as production) plus a cleanup that removes `prefix*`. */
export async function openTestRedis(): Promise<Redis> {
  const r = createRedisClient(REDIS_URL);
  if (!(await connectRedis(r))) throw new Error(`Redis at ${REDIS_URL} does not answer`);
  return r;
}

export async function deleteByPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export async function keysByPrefix(redis: Redis, prefix: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    out.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return out;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
