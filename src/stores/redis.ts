import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

// ioredis is required on first use, not imported: embedded mode (no THREADMARK_REDIS_URL) never loads it.
const require = createRequire(import.meta.url);

/** Root of every key threadmark writes; tests pass their own root to stay isolated. */
export const DEFAULT_REDIS_PREFIX = 'tm:';

/**
 * Options that keep a Redis outage from stalling requests: commands fail at once while disconnected
 * (no offline queue) or after a short timeout, and the client keeps reconnecting in the background.
 */
export function createRedisClient(url: string): Redis {
  const { Redis: RedisClient } = require('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    // Bounds how long a dropped socket may keep the process alive after disconnect().
    disconnectTimeout: 200,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
  redis.on('error', () => {});
  return redis;
}

/** Resolves true once connected, false if the first attempt fails (the client keeps retrying). */
export async function connectRedis(redis: Redis): Promise<boolean> {
  try {
    await redis.connect();
    return true;
  } catch {
    return redis.status === 'ready';
  }
}

export function isReady(redis: Redis): boolean {
  return redis.status === 'ready';
}

export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

/** SET NX then GET: every instance ends up with the first value stored. Undefined while Redis is unreachable. */
export async function shareSecret(redis: Redis, key: string, candidate: string): Promise<string | undefined> {
  if (!isReady(redis)) return undefined;
  try {
    await redis.set(key, candidate, 'NX');
    return (await redis.get(key)) ?? undefined;
  } catch {
    return undefined;
  }
}
