import { randomBytes } from 'node:crypto';
import { SingleFlight } from '../../common/single-flight.ts';
import { DEFAULT_REDIS_PREFIX, isReady, type RedisClient } from '../redis/connect.ts';

/**
 * Cross-instance guard for a cache fill: only the holder calls the upstream; the others poll the
 * shared cache for its result for at most `waitMs`, then fill themselves.
 */
export interface FillLock {
  readonly waitMs: number;
  readonly pollMs: number;
  /** A token when acquired, `null` when another instance holds it, `undefined` when the lock store is down. */
  acquire(key: string): Promise<string | null | undefined>;
  release(key: string, token: string): Promise<void>;
}

/** Concurrent calls with the same key in this process share one in-flight promise. */
export class Coalescer {
  readonly #flights = new SingleFlight<string, unknown>();
  readonly lock: FillLock | undefined;

  constructor(opts: { lock?: FillLock } = {}) {
    this.lock = opts.lock;
  }

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    // One key names one kind of value, so the shared promise is of the caller's type.
    return this.#flights.run(key, fn) as Promise<T>;
  }

  get inflight(): number {
    return this.#flights.size;
  }
}

// Deletes the lock only if it still holds our token, so a slow holder never frees a successor's lock.
const RELEASE_LUA = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export interface RedisFillLockOptions {
  prefix?: string;
  /** Lock lifetime: bounds how long a crashed holder can block others. */
  ttlMs?: number;
  waitMs?: number;
  pollMs?: number;
}

export class RedisFillLock implements FillLock {
  readonly #redis: RedisClient;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly waitMs: number;
  readonly pollMs: number;

  constructor(redis: RedisClient, opts: RedisFillLockOptions = {}) {
    this.#redis = redis;
    this.#prefix = `${opts.prefix ?? DEFAULT_REDIS_PREFIX}l:`;
    this.#ttlMs = opts.ttlMs ?? 10_000;
    this.waitMs = opts.waitMs ?? 3_000;
    this.pollMs = opts.pollMs ?? 50;
  }

  async acquire(key: string): Promise<string | null | undefined> {
    if (!isReady(this.#redis)) return undefined;
    const token = randomBytes(12).toString('base64url');
    try {
      const ok = await this.#redis.set(this.#prefix + key, token, 'PX', this.#ttlMs, 'NX');
      return ok === 'OK' ? token : null;
    } catch {
      return undefined;
    }
  }

  async release(key: string, token: string): Promise<void> {
    if (!isReady(this.#redis)) return;
    try {
      await this.#redis.eval(RELEASE_LUA, 1, this.#prefix + key, token);
    } catch {
      // The lock expires on its own; nothing else depends on this release.
    }
  }
}
