// Every upstream read goes through here: the application cache (domain data, not rendered bytes),
// coalescing of concurrent misses, stale-if-error, and the live-lookup charge of the read policy.
import type { ReadPolicy, Sourced } from '../domain/sourced.ts';
import { cachedRead } from '../stores/cache/read-through.ts';
import type { Cache } from '../stores/cache/types.ts';
import type { Coalescer } from '../stores/cache/coalesce.ts';

export interface Loaded<T> {
  value: T;
  source: string;
}

/** Stale copies are kept this many times the fresh lifetime (at least an hour) to answer upstream outages. */
const STALE_FACTOR = 12;
const MIN_STALE_MS = 3_600_000;

export class CachedReader {
  private readonly freshMs: number;
  private readonly staleMs: number;

  constructor(
    private readonly cache: Cache,
    private readonly coalescer: Coalescer,
    ttlS: number,
  ) {
    this.freshMs = ttlS * 1000;
    this.staleMs = Math.max(this.freshMs * STALE_FACTOR, MIN_STALE_MS);
  }

  async read<T>(key: string, policy: ReadPolicy, load: () => Promise<Loaded<T>>): Promise<Sourced<T>> {
    const live = async () => {
      await policy.beforeLive?.();
      return load();
    };
    if (policy.mode === 'private' || this.freshMs === 0) {
      const got = await live();
      return { value: got.value, source: got.source, cache: 'bypass', warnings: [] };
    }
    const r = await cachedRead<Loaded<T>>(
      this.cache,
      this.coalescer,
      key,
      {
        freshMs: this.freshMs,
        staleMs: this.staleMs,
        bypass: policy.mode === 'refresh',
        ...(policy.onHit ? { onHit: (e) => policy.onHit!(key, e, e.freshUntil) } : {}),
      },
      live,
    );
    return { value: r.value.value, source: r.value.source, cache: r.cacheStatus, warnings: r.warnings };
  }
}
