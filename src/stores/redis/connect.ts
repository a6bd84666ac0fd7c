import { engines } from '../../engines.ts';
import type { Cluster, Redis, RedisOptions } from 'ioredis';

/** A single Redis (direct or found through Sentinels) or a Redis Cluster: every store works on either. */
export type RedisClient = Redis | Cluster;

export interface HostPort {
  host: string;
  port: number;
}

/** How to reach Redis: THREADMARK_REDIS_URL, THREADMARK_REDIS_CLUSTER or THREADMARK_REDIS_SENTINELS. */
export type RedisTarget = { url: string } | { cluster: HostPort[] } | { sentinels: HostPort[]; name: string };

/**
 * Per-connection options that keep a Redis outage from stalling requests: commands fail at once while
 * disconnected (no offline queue) or after a short timeout, and the client keeps reconnecting in the background.
 */
export const NODE_OPTIONS = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 1000,
  connectTimeout: 2000,
  // Bounds how long a dropped socket may keep the process alive after disconnect().
  disconnectTimeout: 200,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
  // A master demoted to replica (a Sentinel or managed failover) answers writes READONLY while the connection
  // stays open: reconnecting finds the new master (through the Sentinels when they are used) and resends.
  reconnectOnError: (err: Error) => (err.message.startsWith('READONLY') ? 2 : false),
} satisfies RedisOptions;

/** The client for a target; the cluster client is built in redis/cluster.ts. */
export function openRedis(target: RedisTarget, cluster: (nodes: HostPort[]) => Cluster): RedisClient {
  if ('cluster' in target) return cluster(target.cluster);
  if ('sentinels' in target) return createSentinelClient(target.sentinels, target.name);
  return createRedisClient(target.url);
}

/**
 * The master the Sentinels name, followed across failovers without a restart: on `+switch-master` (or a lost
 * connection) the client asks the Sentinels again and reconnects to the new master.
 */
export function createSentinelClient(sentinels: HostPort[], name: string): Redis {
  const { Redis: RedisClient } = engines.ioredis();
  const redis = new RedisClient({
    ...NODE_OPTIONS,
    sentinels,
    name,
    role: 'master',
    failoverDetector: true,
    sentinelRetryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
  });
  redis.on('error', () => {});
  return redis;
}

/** Root of every key threadmark writes; tests pass their own root to stay isolated. */
export const DEFAULT_REDIS_PREFIX = 'tm:';

/** A single Redis at `url`, with the outage-tolerant options above. */
export function createRedisClient(url: string): Redis {
  const { Redis: RedisClient } = engines.ioredis();
  const redis = new RedisClient(url, NODE_OPTIONS);
  // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
  redis.on('error', () => {});
  return redis;
}

/** Resolves true once connected, false if the first attempt fails (the client keeps retrying). */
export async function connectRedis(redis: RedisClient): Promise<boolean> {
  try {
    await redis.connect();
    return true;
  } catch {
    return redis.status === 'ready';
  }
}

export function isReady(redis: RedisClient): boolean {
  return redis.status === 'ready';
}

export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

/** SET NX then GET: every instance ends up with the first value stored. Undefined while Redis is unreachable. */
export async function shareSecret(redis: RedisClient, key: string, candidate: string): Promise<string | undefined> {
  if (!isReady(redis)) return undefined;
  try {
    await redis.set(key, candidate, 'NX');
    return (await redis.get(key)) ?? undefined;
  } catch {
    return undefined;
  }
}
