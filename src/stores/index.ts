import { dirname } from 'node:path';
import type { Redis } from 'ioredis';
import { Coalescer, RedisFillLock } from './cache/coalesce.ts';
import { FailoverCache } from './cache/failover.ts';
import { MemoryCache } from './cache/memory.ts';
import { RedisCache } from './cache/redis.ts';
import type { Cache } from './cache/types.ts';
import { RedisKeyStore } from './keys/redis.ts';
import { SqliteKeyStore } from './keys/sqlite.ts';
import type { KeyStore } from './keys/types.ts';
import { Limiter, type LimiterOptions } from './limits/limiter.ts';
import { SharedHitCheck } from './shared-hit-check.ts';
import { POLICIES } from './limits/policies.ts';
import { connectRedis, createRedisClient, DEFAULT_REDIS_PREFIX, isReady, shareSecret } from './redis.ts';
import { redisHash, type SharedHash } from './shared-hash.ts';
import { keptSecret } from './kept-secret.ts';
import { SqliteWatchStore, watchesDbPath } from './watches/sqlite.ts';
import { RedisWatchStore } from './watches/redis.ts';
import type { WatchStore } from './watches/types.ts';
export type { SharedHash } from './shared-hash.ts';

// The surface the HTTP layer needs, in one import.
export type { Cache, CacheEntry } from './cache/types.ts';
export { Coalescer } from './cache/coalesce.ts';
export { cachedRead, isUpstreamFailure, type CachedRead, type CacheStatus } from './cache/read-through.ts';
export type { KeyRecord, KeyStore, VerifyResult } from './keys/types.ts';
export { Limiter } from './limits/limiter.ts';
export { rateLimitHeaders } from './limits/headers.ts';
export { clientKey } from './limits/client-key.ts';
export { POLICIES, accountKeyPolicy, type LimitState, type Policy } from './limits/policies.ts';

export interface StoresLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface StoresConfig {
  /** Set = distributed mode (THREADMARK_REDIS_URL). */
  redisUrl?: string;
  /** SQLite path for embedded mode (THREADMARK_KEYS_DB). */
  keysDb: string;
  cacheMaxEntries?: number;
  cacheMaxBytes?: number;
  /** Root of all Redis keys; tests isolate themselves with their own. */
  redisPrefix?: string;
  log: StoresLog;
  /** Quotas in place of the contract's, by policy (the demo's exploring allowances). */
  quotas?: LimiterOptions['quotas'];
}

export interface Stores {
  mode: 'embedded' | 'distributed';
  cache: Cache;
  coalescer: Coalescer;
  limiter: Limiter;
  keys: KeyStore;
  /** Watches, hub subscriptions, source marks and deliveries: SQLite beside the keys, or Redis when distributed. */
  watches: WatchStore;
  /** Distributed mode: the one-round-trip check of a replayed cache hit (http/hit-replay.ts). */
  hitCheck?: SharedHitCheck;
  /** False in distributed mode while Redis is unreachable (caches and limits are per instance then). */
  sharedStoreUp(): boolean;
  /**
   * Agrees on one value for `name` across instances and restarts: the first `candidate` stored wins (SET NX in
   * Redis; embedded mode keeps it in a file beside the key store, stores/kept-secret.ts). Undefined while Redis is
   * unreachable, and for an in-memory key store.
   */
  sharedSecret(name: string, candidate: string): Promise<string | undefined>;
  /** Distributed mode: a map shared by every instance (operator state); undefined in embedded mode. */
  sharedHash?(name: string): SharedHash;
  close(): Promise<void>;
}

/**
 * Embedded mode needs no server: LRU cache, in-process limits, SQLite keys. Distributed mode keeps all
 * three in Redis; if Redis is down (at start or later) cache and limits fall back to this process,
 * keys answer `unverified`, and everything returns to Redis once it reconnects.
 */
export async function createStores(cfg: StoresConfig): Promise<Stores> {
  const memory = new MemoryCache({ maxEntries: cfg.cacheMaxEntries, maxBytes: cfg.cacheMaxBytes });
  if (!cfg.redisUrl) {
    const keys = new SqliteKeyStore(cfg.keysDb);
    const watches = new SqliteWatchStore(watchesDbPath(cfg.keysDb));
    return {
      mode: 'embedded',
      cache: memory,
      coalescer: new Coalescer(),
      limiter: new Limiter({ quotas: cfg.quotas }),
      keys,
      watches,
      sharedStoreUp: () => true,
      sharedSecret: async (name, candidate) =>
        cfg.keysDb === ':memory:' ? undefined : keptSecret(dirname(cfg.keysDb), name, candidate),
      close: async () => {
        await Promise.all([memory.close(), keys.close(), watches.close()]);
      },
    };
  }

  const redis = createRedisClient(cfg.redisUrl);
  const health = watchRedis(redis, cfg.log);
  if (!(await connectRedis(redis))) health.down(new Error('initial connection failed'));
  const prefix = cfg.redisPrefix;
  const shared = new RedisCache(redis, { prefix, onDegraded: (err, op) => health.down(err, op) });
  const cache = new FailoverCache(shared, memory, () => isReady(redis));
  const limiter = new Limiter({ redis, prefix, quotas: cfg.quotas });
  const api = POLICIES['api-ip'];
  return {
    mode: 'distributed',
    cache,
    coalescer: new Coalescer({ lock: new RedisFillLock(redis, { prefix }) }),
    limiter,
    hitCheck: new SharedHitCheck(redis, {
      limitKey: (partition) => limiter.redisKey('api-ip', partition),
      cacheKey: (key) => shared.redisKey(key),
      quota: api.quota,
      windowS: api.windowS,
    }),
    keys: new RedisKeyStore(redis, { prefix }),
    watches: new RedisWatchStore(redis, { prefix }),
    sharedStoreUp: () => isReady(redis),
    sharedSecret: (name, candidate) => shareSecret(redis, `${prefix ?? DEFAULT_REDIS_PREFIX}s:${name}`, candidate),
    sharedHash: (name) => redisHash(redis, `${prefix ?? DEFAULT_REDIS_PREFIX}h:${name}`),
    close: async () => {
      health.stop();
      await cache.close();
      redis.disconnect();
    },
  };
}

/** Logs an outage once when it starts and once when Redis is back, never per failed request. */
function watchRedis(redis: Redis, log: StoresLog): { down(err: Error, op?: string): void; stop(): void } {
  let degraded = false;
  let stopped = false;
  const down = (err: Error, op?: string) => {
    if (degraded || stopped) return;
    degraded = true;
    log.warn(
      { err: err.message, op },
      'redis unreachable: cache and rate limits are per instance, API keys unverified',
    );
  };
  redis.on('ready', () => {
    if (!degraded) return;
    degraded = false;
    log.info({}, 'redis reachable again: shared cache, rate limits and keys restored');
  });
  redis.on('error', (err: Error) => down(err));
  redis.on('close', () => down(new Error('connection closed')));
  return { down, stop: () => void (stopped = true) };
}

/**
 * The key store alone, for the CLI: distributed mode must reach Redis (an operator wants an error,
 * not a degraded answer).
 */
export async function openKeyStore(cfg: {
  redisUrl?: string;
  keysDb: string;
  redisPrefix?: string;
}): Promise<{ keys: KeyStore; close(): Promise<void> }> {
  if (!cfg.redisUrl) {
    const keys = new SqliteKeyStore(cfg.keysDb);
    return { keys, close: () => keys.close() };
  }
  const redis = createRedisClient(cfg.redisUrl);
  if (!(await connectRedis(redis))) {
    redis.disconnect();
    throw new Error('cannot reach Redis (THREADMARK_REDIS_URL)');
  }
  return {
    keys: new RedisKeyStore(redis, { prefix: cfg.redisPrefix }),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
