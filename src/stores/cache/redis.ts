import { LRUCache } from 'lru-cache';
import { DEFAULT_REDIS_PREFIX, asError, isReady, type RedisClient } from '../redis/connect.ts';
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

/**
 * The last bytes of an entry as `set` stores it: its three stamps, which end the JSON because `Stored` lists them
 * after the value. A script compares them with the bytes Redis holds to tell whether the entry is still the one a
 * response was built from without the body crossing the wire, and with a string comparison, not a pattern match
 * (a pattern match is a large share of the hit script's Redis CPU).
 */
export function storedTail(e: Pick<CacheEntry, 'storedAt' | 'freshUntil' | 'staleUntil'>): string {
  return `"s":${JSON.stringify(e.storedAt)},"f":${JSON.stringify(e.freshUntil)},"t":${JSON.stringify(e.staleUntil)}}`;
}

/** Bound on the remembered parses (raw JSON plus its parsed copy, estimated at four times the raw length). */
const PARSED_MAX_BYTES = 16 * 1024 * 1024;

/** Shared cache for distributed mode. Any Redis failure is a miss, so the service keeps answering. */
export class RedisCache implements Cache {
  readonly #redis: RedisClient;
  readonly #prefix: string;
  readonly #onDegraded: DegradedListener;
  /**
   * The last parse of each recently read key, reused while Redis still holds the same bytes: a hit skips
   * JSON.parse, and hands out the same (immutable) object every time, so what is memoised per value above the
   * cache (rendered bodies) applies in distributed mode too. A write by any instance changes the bytes.
   */
  readonly #parsed = new LRUCache<string, { raw: string; entry: CacheEntry }>({
    maxSize: PARSED_MAX_BYTES,
    sizeCalculation: (p) => p.raw.length * 4 + 64,
  });

  constructor(redis: RedisClient, opts: RedisCacheOptions = {}) {
    this.#redis = redis;
    this.#prefix = `${opts.prefix ?? DEFAULT_REDIS_PREFIX}c:`;
    this.#onDegraded = opts.onDegraded ?? (() => {});
  }

  /** The Redis key an entry is stored under. */
  redisKey(key: string): string {
    return this.#prefix + key;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    if (!isReady(this.#redis)) return undefined;
    try {
      const raw = await this.#redis.get(this.#prefix + key);
      if (raw === null) return undefined;
      const known = this.#parsed.get(key);
      if (known && known.raw === raw) return known.entry;
      const s = JSON.parse(raw) as Stored;
      const entry = { value: s.v, storedAt: s.s, freshUntil: s.f, staleUntil: s.t };
      this.#parsed.set(key, { raw, entry });
      return entry;
    } catch (e) {
      this.#onDegraded(asError(e), 'cache.get');
      return undefined;
    }
  }

  async set(key: string, value: unknown, freshMs: number, staleMs: number): Promise<void> {
    if (!isReady(this.#redis)) return;
    const e = makeEntry(value, freshMs, staleMs);
    const stored: Stored = { v: e.value, s: e.storedAt, f: e.freshUntil, t: e.staleUntil };
    this.#parsed.delete(key);
    try {
      const raw = JSON.stringify(stored);
      await this.#redis.set(this.#prefix + key, raw, 'PX', Math.max(1, e.staleUntil - e.storedAt));
      // The writer's own next read sees these bytes and gets the very object it stored.
      this.#parsed.set(key, { raw, entry: e });
    } catch (err) {
      this.#onDegraded(asError(err), 'cache.set');
    }
  }

  async delete(key: string): Promise<void> {
    this.#parsed.delete(key);
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
