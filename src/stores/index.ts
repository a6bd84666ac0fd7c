import { dirname } from 'node:path';
import { Coalescer, RedisFillLock } from './cache/coalesce.ts';
import { FailoverCache } from './cache/failover.ts';
import { MemoryCache } from './cache/memory.ts';
import { RedisCache } from './cache/redis.ts';
import type { Cache } from './cache/types.ts';
import { RedisKeyStore } from './keys/redis.ts';
import { SqliteKeyStore } from './keys/sqlite.ts';
import type { KeyStore } from './keys/types.ts';
import { Limiter, type LimiterOptions } from './limits/limiter.ts';
import { StoredResponseCheck } from './stored-response-check.ts';
import {
  connectRedis,
  DEFAULT_REDIS_PREFIX,
  isReady,
  openRedis,
  shareSecret,
  type RedisClient,
  type RedisTarget,
} from './redis/connect.ts';
import { createClusterClient, isCluster } from './redis/cluster.ts';
import { redisHash, type SharedHash } from './shared-hash.ts';
import { PostgresKeyStore } from './keys/postgres.ts';
import { openPostgres } from './postgres/pool.ts';
import { postgresHash } from './postgres/hash.ts';
import { keptSecret } from '../secrets/kept-secret.ts';
import { SqliteWatchStore, watchesDbPath } from './watches/sqlite.ts';
import { RedisWatchStore } from './watches/redis.ts';
import { PgWatchStore } from './watches/postgres.ts';
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
  /** In place of redisUrl: a Redis Cluster or a Sentinel-monitored master. */
  redis?: RedisTarget;
  /** Set = API keys and the X session registry in PostgreSQL (THREADMARK_DATABASE_URL), in either mode. */
  databaseUrl?: string;
  /** Schema of the PostgreSQL tables (THREADMARK_DATABASE_SCHEMA; tests use one of their own). */
  databaseSchema?: string;
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
  /**
   * Distributed mode: the response store's check that a stored answer is still current, with its api-ip charge,
   * in one Redis round trip (the fast path of the response layer, http/responses/).
   */
  responseCheck?: StoredResponseCheck;
  /** False in distributed mode while Redis is unreachable (caches and limits are per instance then). */
  sharedStoreUp(): boolean;
  /**
   * Agrees on one value for `name` across instances and restarts: the first `candidate` stored wins (SET NX in
   * Redis; embedded mode keeps it in a file beside the key store, secrets/kept-secret.ts). Undefined while Redis is
   * unreachable, and for an in-memory key store.
   */
  sharedSecret(name: string, candidate: string): Promise<string | undefined>;
  /**
   * A map shared by every instance (operator state): in PostgreSQL when a database is configured, else in Redis;
   * undefined in embedded mode without a database.
   */
  sharedHash?(name: string): SharedHash;
  close(): Promise<void>;
}

/**
 * Embedded mode needs no server: LRU cache, in-process limits, SQLite keys. Distributed mode keeps all
 * three in Redis (one node, a Sentinel-watched master or a cluster); if Redis is down (at start or later) cache
 * and limits fall back to this process, keys answer `unverified`, and everything returns to Redis once it
 * reconnects. With a database URL, keys and the shared operator maps live in PostgreSQL instead, in either mode,
 * so losing Redis loses nothing that must last.
 */
export async function createStores(cfg: StoresConfig): Promise<Stores> {
  const memory = new MemoryCache({ maxEntries: cfg.cacheMaxEntries, maxBytes: cfg.cacheMaxBytes });
  const target = redisTarget(cfg);
  const pg = cfg.databaseUrl ? await openPostgres(cfg.databaseUrl, cfg.databaseSchema) : undefined;
  if (!target) {
    const keys = pg ? new PostgresKeyStore(pg) : new SqliteKeyStore(cfg.keysDb);
    const watches = pg ? new PgWatchStore(pg.pool) : new SqliteWatchStore(watchesDbPath(cfg.keysDb));
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
      sharedHash: pg && ((name) => postgresHash(pg, name)),
      close: async () => {
        await Promise.all([memory.close(), keys.close(), watches.close()]);
        await pg?.close();
      },
    };
  }

  const redis = openRedis(target, createClusterClient);
  const health = watchRedis(redis, cfg.log);
  if (!(await connectRedis(redis))) health.down(new Error('initial connection failed'));
  const prefix = cfg.redisPrefix;
  const shared = new RedisCache(redis, { prefix, onDegraded: (err, op) => health.down(err, op) });
  const cache = new FailoverCache(shared, memory, () => isReady(redis));
  const limiter = new Limiter({ redis, prefix, quotas: cfg.quotas });
  // The quota the limiter applies, so the script and the normal path count against the same allowance.
  const api = limiter.policy('api-ip');
  return {
    mode: 'distributed',
    cache,
    coalescer: new Coalescer({ lock: new RedisFillLock(redis, { prefix }) }),
    limiter,
    responseCheck: new StoredResponseCheck(redis, {
      limitKey: (partition) => limiter.redisKey('api-ip', partition),
      cacheKey: (key) => shared.redisKey(key),
      quota: api.quota,
      windowS: api.windowS,
    }),
    keys: pg ? new PostgresKeyStore(pg) : redisKeyStore(redis, prefix),
    watches: pg ? new PgWatchStore(pg.pool) : new RedisWatchStore(redis, { prefix }),
    sharedStoreUp: () => isReady(redis),
    sharedSecret: (name, candidate) => shareSecret(redis, `${prefix ?? DEFAULT_REDIS_PREFIX}s:${name}`, candidate),
    sharedHash: (name) =>
      pg ? postgresHash(pg, name) : redisHash(redis, `${prefix ?? DEFAULT_REDIS_PREFIX}h:${name}`),
    close: async () => {
      health.stop();
      await cache.close();
      redis.disconnect();
      await pg?.close();
    },
  };
}

function redisTarget(cfg: { redis?: RedisTarget; redisUrl?: string }): RedisTarget | undefined {
  return cfg.redis ?? (cfg.redisUrl ? { url: cfg.redisUrl } : undefined);
}

/** On a cluster every key record and the id index share one slot, so a create or delete stays one MULTI. */
function redisKeyStore(redis: RedisClient, prefix: string | undefined): RedisKeyStore {
  return new RedisKeyStore(redis, { prefix, oneSlot: isCluster(redis) });
}

/** Logs an outage once when it starts and once when Redis is back, never per failed request. */
function watchRedis(redis: RedisClient, log: StoresLog): { down(err: Error, op?: string): void; stop(): void } {
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
  redis?: RedisTarget;
  databaseUrl?: string;
  databaseSchema?: string;
  keysDb: string;
  redisPrefix?: string;
}): Promise<{ keys: KeyStore; close(): Promise<void> }> {
  if (cfg.databaseUrl) {
    const keys = new PostgresKeyStore(await openPostgres(cfg.databaseUrl, cfg.databaseSchema), { ownsPool: true });
    return { keys, close: () => keys.close() };
  }
  const target = redisTarget(cfg);
  if (!target) {
    const keys = new SqliteKeyStore(cfg.keysDb);
    return { keys, close: () => keys.close() };
  }
  const redis = openRedis(target, createClusterClient);
  if (!(await connectRedis(redis))) {
    redis.disconnect();
    throw new Error('cannot reach Redis (THREADMARK_REDIS_URL, _CLUSTER or _SENTINELS)');
  }
  return {
    keys: redisKeyStore(redis, cfg.redisPrefix),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
