import type { Cache, CacheEntry } from './types.ts';

/**
 * Uses the shared cache while it is up and an in-process one otherwise, so an outage costs hit rate
 * across instances instead of every request going to the upstreams.
 */
export class FailoverCache implements Cache {
  constructor(
    private readonly primary: Cache,
    private readonly fallback: Cache,
    private readonly primaryUp: () => boolean,
  ) {}

  #pick(): Cache {
    return this.primaryUp() ? this.primary : this.fallback;
  }

  get(key: string): Promise<CacheEntry | undefined> {
    return this.#pick().get(key);
  }

  set(key: string, value: unknown, freshMs: number, staleMs: number): Promise<void> {
    return this.#pick().set(key, value, freshMs, staleMs);
  }

  async delete(key: string): Promise<void> {
    await Promise.all([this.primary.delete(key), this.fallback.delete(key)]);
  }

  async close(): Promise<void> {
    await Promise.all([this.primary.close(), this.fallback.close()]);
  }
}
