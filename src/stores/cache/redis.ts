import type { Redis } from 'ioredis';
import { DEFAULT_REDIS_PREFIX, asError, isReady } from '../redis.ts';
import { type Cache, type CacheEntry, type DegradedListener, makeEntry } from './types.ts';

export interface RedisCacheOptions {
  /** Key root; entries live under `<prefix>c:`. */
  prefix?: string;
  onDegraded?: DegradedListener;
}

interface Stored {
  v: unknown;
  s: number;
  f: number;
  t: number;
}

/** Shared cache for distributed mode. Any Redis failure is a miss, so the service keeps answering. */
export class RedisCache implements Cache {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #onDegraded: DegradedListener;

  constructor(redis: Redis, opts: RedisCacheOptions = {}) {
    this.#redis = redis;
    this.#prefix = `${opts.prefix ?? DEFAULT_REDIS_PREFIX}c:`;
    this.#onDegraded = opts.onDegraded ?? (() => {});
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    if (!isReady(this.#redis)) return undefined;
    try {
      const raw = await this.#redis.get(this.#prefix + key);
      if (raw === null) return undefined;
      const s = JSON.parse(raw) as Stored;
      return { value: s.v, storedAt: s.s, freshUntil: s.f, staleUntil: s.t };
    } catch (e) {
      this.#onDegraded(asError(e), 'cache.get');
      return undefined;
    }
  }

  async set(key: string, value: unknown, freshMs: number, staleMs: number): Promise<void> {
    if (!isReady(this.#redis)) return;
    const e = makeEntry(value, freshMs, staleMs);
    const stored: Stored = { v: e.value, s: e.storedAt, f: e.freshUntil, t: e.staleUntil };
    try {
      await this.#redis.set(this.#prefix + key, JSON.stringify(stored), 'PX', Math.max(1, e.staleUntil - e.storedAt));
    } catch (err) {
      this.#onDegraded(asError(err), 'cache.set');
    }
  }

  async delete(key: string): Promise<void> {
    if (!isReady(this.#redis)) return;
    try {
      await this.#redis.del(this.#prefix + key);
    } catch (e) {
      this.#onDegraded(asError(e), 'cache.delete');
    }
  }

  /** The connection belongs to whoever created it (createStores shares one client). */
  async close(): Promise<void> {}
}
