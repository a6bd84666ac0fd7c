// Every upstream read goes through here: the application cache (domain data, not rendered bytes),
// coalescing of concurrent misses, stale-if-error, and the live-lookup charge of the read policy.
import type { ReadPolicy, Sourced } from '../domain/sourced.ts';
import { cachedRead, isUpstreamFailure } from '../stores/cache/read-through.ts';
import type { Cache } from '../stores/cache/types.ts';
import type { Coalescer } from '../stores/cache/coalesce.ts';
import { staleIfErrorS } from '../domain/cache-lifetimes.ts';

export interface Loaded<T> {
  value: T;
  source: string;
}

/**
 * How long a "not found" (missing, deleted, suspended or protected) is remembered: long enough that repeating a
 * read of an account or post nobody has costs no upstream call (nor a session), short enough that a new account or
 * a transient upstream miss is not hidden for long. Never longer than the cache's own lifetime.
 */
export const NEGATIVE_CACHE_S = 60;

export class CachedReader {
  private readonly freshMs: number;
  private readonly staleMs: number;
  private readonly negativeMs: number;

  constructor(
    private readonly cache: Cache,
    private readonly coalescer: Coalescer,
    ttlS: number,
  ) {
    this.freshMs = ttlS * 1000;
    this.staleMs = staleIfErrorS(ttlS) * 1000;
    this.negativeMs = Math.min(NEGATIVE_CACHE_S * 1000, this.freshMs);
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
        negativeMs: this.negativeMs,
        ...(policy.dependsOn ? { onHit: (e) => policy.dependsOn!(key, e, e.freshUntil) } : {}),
      },
      live,
    ).catch((err: unknown) => {
      // A caller may survive the failure (an ancestor left out): its answer is degraded, not settled.
      if (isUpstreamFailure(err)) policy.onDegraded?.();
      throw err;
    });
    if (r.cacheStatus === 'stale') policy.onDegraded?.();
    return { value: r.value.value, source: r.value.source, cache: r.cacheStatus, warnings: r.warnings };
  }
}
