// The response cache: values derived from cached domain data (assembled post reads, rendered bodies, serialized
// feeds, and the response layer's stored answers, http/responses/), remembered in one byte-bounded LRU so a cache
// hit costs a lookup instead of an assembly, a render or a hash, and every kind shares one budget and one set of
// metrics. The application cache (stores/cache) keeps the domain data itself; this is the layer above it. Created
// once with the other services (compose.ts), sized by THREADMARK_RESPONSE_CACHE_MB, reported in /metrics.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Derived } from '../../domain/sourced.ts';

export interface ResponseCacheStats {
  entries: number;
  /** Estimated bytes held (each slot sizes its own values). */
  bytes: number;
  hits: number;
  misses: number;
}

/**
 * A stable serialisation: object keys sorted at every level, so two option objects with the same fields give
 * the same key whatever order they were built in, and an option added to a type is part of every key at once.
 */
export function stableKey(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

interface Stored {
  value: unknown;
  size: number;
}

export class ResponseCache {
  readonly #lru: LRUCache<string, Stored>;
  /** Identity of a domain value: the in-process cache hands out the same object on every hit. */
  readonly #identities = new WeakMap<object, number>();
  #nextIdentity = 0;
  #hits = 0;
  #misses = 0;

  constructor(maxBytes: number) {
    this.#lru = new LRUCache<string, Stored>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (s) => Math.max(1, s.size),
    });
  }

  /** A typed view of the cache for one kind of derived value; `name` keeps kinds apart. */
  slot<V>(name: string, size: (value: V) => number): ResponseSlot<V> {
    return new ResponseSlot<V>(this, name, size);
  }

  /** The identity of `value`, and whether this is the first time it is seen. */
  identify(value: object): { id: number; first: boolean } {
    const id = this.#identities.get(value);
    if (id !== undefined) return { id, first: false };
    const next = this.#nextIdentity++;
    this.#identities.set(value, next);
    return { id: next, first: true };
  }

  lookup(key: string): Stored | undefined {
    const hit = this.#lru.get(key);
    if (hit) this.#hits++;
    else this.#misses++;
    return hit;
  }

  store(key: string, value: unknown, size: number): void {
    this.#lru.set(key, { value, size });
  }

  /** Whether `key` is held, without counting a lookup or refreshing its recency. */
  holds(key: string): boolean {
    return this.#lru.has(key);
  }

  /** What `key` holds, without counting a lookup or refreshing its recency. */
  peek(key: string): Stored | undefined {
    return this.#lru.peek(key);
  }

  drop(key: string): void {
    this.#lru.delete(key);
  }

  stats(): ResponseCacheStats {
    return { entries: this.#lru.size, bytes: this.#lru.calculatedSize, hits: this.#hits, misses: this.#misses };
  }
}

export class ResponseSlot<V> implements Derived<V> {
  constructor(
    private readonly cache: ResponseCache,
    private readonly name: string,
    private readonly size: (value: V) => number,
  ) {}

  /**
   * `build()` once per (domain value, options); `options` must hold every input of the derivation besides
   * `source`. With `unstored`, a value seen for the first time gets `unstored()` and nothing is stored: with a
   * shared backend (Redis) every read parses a new object, and storing those would only churn the cache.
   */
  derive(source: object | readonly object[], options: unknown, build: () => V, unstored?: () => V): V {
    const seen = (Array.isArray(source) ? source : [source]).map((s: object) => this.cache.identify(s));
    if (unstored && seen.some((s) => s.first)) return unstored();
    return this.remember(`${this.name}|${seen.map((s) => s.id).join(',')}|${stableKey(options)}`, build);
  }

  /** `build()` once per content: `inputs` is everything the value is made from (digested into the key). */
  byContent(inputs: unknown, build: () => V): V {
    const digest = createHash('sha1').update(stableKey(inputs)).digest('base64url');
    return this.remember(`${this.name}|#${digest}`, build);
  }

  /** The value stored under `key` by `set` (a lookup, counted in the metrics). */
  get(key: string): V | undefined {
    // The key starts with this slot's name, so whatever is stored under it was stored by this slot, as a V.
    return this.cache.lookup(`${this.name}|${key}`)?.value as V | undefined;
  }

  has(key: string): boolean {
    return this.cache.holds(`${this.name}|${key}`);
  }

  /** The value stored under `key`, without counting a lookup or refreshing its recency. */
  peek(key: string): V | undefined {
    // The key starts with this slot's name, so whatever is stored under it was stored by this slot, as a V.
    return this.cache.peek(`${this.name}|${key}`)?.value as V | undefined;
  }

  set(key: string, value: V): void {
    this.cache.store(`${this.name}|${key}`, value, this.size(value));
  }

  delete(key: string): void {
    this.cache.drop(`${this.name}|${key}`);
  }

  private remember(key: string, build: () => V): V {
    const hit = this.cache.lookup(key);
    // The key starts with this slot's name, so whatever is stored under it was stored by this slot, as a V.
    if (hit) return hit.value as V;
    const value = build();
    this.cache.store(key, value, this.size(value));
    return value;
  }
}
