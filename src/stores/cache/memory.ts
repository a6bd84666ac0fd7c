import { LRUCache } from 'lru-cache';
import { type Cache, type CacheEntry, makeEntry } from './types.ts';

export interface MemoryCacheOptions {
  maxEntries?: number;
  /** Bound on the summed JSON byte length of the cached values. */
  maxBytes?: number;
}

// Sized against the memory goal (bench/memory.ts: RSS ≤ 120 MB with 10,000 posts cached). A cached value takes
// more heap than its JSON length and the service's own baseline counts too; 10,000 posts fit under the byte bound,
// which keeps a cache of larger entries (conversations) within the same budget.
export const DEFAULT_CACHE_MAX_ENTRIES = 10_000;
export const DEFAULT_CACHE_MAX_BYTES = 20 * 1024 * 1024;

/**
 * In-process LRU. Values are kept by reference (no copy on the hot hit path), so callers must treat
 * what they get back as immutable, exactly as they would a parsed Redis value.
 */
export class MemoryCache implements Cache {
  readonly #lru: LRUCache<string, CacheEntry>;
  #generation = 0;

  constructor(opts: MemoryCacheOptions = {}) {
    this.#lru = new LRUCache<string, CacheEntry>({
      max: opts.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES,
      maxSize: opts.maxBytes ?? DEFAULT_CACHE_MAX_BYTES,
      // Every entry replaced, deleted, evicted or expired ends here.
      dispose: () => {
        this.#generation++;
      },
    });
  }

  /**
   * Changes whenever an entry already held stops being the one held (replaced, deleted, evicted, expired): while it
   * stays the same, every entry a reader saw is still there, unchanged. The response layer's hit path skips its
   * per-dependency lookups on that promise.
   */
  get generation(): number {
    return this.#generation;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.#lru.get(key);
  }

  /** `get` without a promise, for the response layer's fast path (http/responses/), which must not wait. */
  getNow(key: string): CacheEntry | undefined {
    return this.#lru.get(key);
  }

  async set(key: string, value: unknown, freshMs: number, staleMs: number): Promise<void> {
    const json = JSON.stringify(value);
    if (json === undefined) return;
    const entry = makeEntry(value, freshMs, staleMs);
    // An entry larger than the byte bound is refused, and lru-cache then drops any older copy itself (the cache test
    // holds it to that). No delete beforehand: with a single entry left, lru-cache's delete clears every slot of its
    // tables (maxEntries of them), on every refresh of that entry.
    this.#lru.set(key, entry, {
      ttl: Math.max(1, entry.staleUntil - entry.storedAt),
      size: Math.max(1, Buffer.byteLength(json)),
    });
  }

  async delete(key: string): Promise<void> {
    this.#lru.delete(key);
  }

  async close(): Promise<void> {
    this.#lru.clear();
  }

  /** Bytes currently accounted (for tests and metrics). */
  get calculatedSize(): number {
    return this.#lru.calculatedSize;
  }

  get size(): number {
    return this.#lru.size;
  }
}
