// Shared by the store tests: the real Redis (CI guarantees it and sets THREADMARK_REQUIRE_REDIS=1),
// an isolated key prefix per test run, and cleanup of everything written under it.
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { Redis } from 'ioredis';
import { connectRedis, createRedisClient } from '../../../src/stores/redis/connect.ts';

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
export const redisSkip: string | false = available
  ? false
  : `Redis at ${REDIS_URL} not reachable (set THREADMARK_REQUIRE_REDIS=1 to make this a failure)`;

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

/** Polls `check` until it holds; throws after `ms` so a state that never comes fails instead of hanging. */
export async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() >= deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(10);
  }
}

export interface TestRedis {
  readonly prefix: string;
  /** The suite's client, connected in `before`. */
  readonly redis: Redis;
  /** A second client: another "instance" sharing the same Redis. */
  readonly peer: Redis;
  /** More clients, disconnected in `after`. */
  open(): Promise<Redis>;
}

/** Registers before/after hooks in the calling suite: clients up front, prefix cleanup and disconnect at the end. */
export function useTestRedis(): TestRedis {
  const prefix = uniquePrefix();
  const clients: Redis[] = [];
  before(async () => {
    clients.push(await openTestRedis(), await openTestRedis());
  });
  after(async () => {
    if (clients[0]) await deleteByPrefix(clients[0], prefix);
    for (const c of clients) c.disconnect();
  });
  return {
    prefix,
    get redis() {
      return clients[0]!;
    },
    get peer() {
      return clients[1]!;
    },
    async open() {
      const c = await openTestRedis();
      clients.push(c);
      return c;
    },
  };
}
