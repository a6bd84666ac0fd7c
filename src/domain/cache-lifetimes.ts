// The lifetimes of a cached read, shared by the service's own cache (sources/cached-reader.ts) and the
// Cache-Control it sends to shared caches in front (http/present), so a CDN keeps copies exactly as long.

/** Stale copies are kept this many times the fresh lifetime (at least an hour) to answer upstream outages. */
const STALE_FACTOR = 12;
const MIN_STALE_S = 3600;

/** How long after its fresh lifetime a copy is kept to answer when every upstream fails (stale-if-error). */
export function staleIfErrorS(ttlS: number): number {
  return Math.max(ttlS * STALE_FACTOR, MIN_STALE_S);
}

/**
 * How long a shared cache may keep answering with an expired copy while it refetches in the background: one
 * more fresh lifetime, so a copy a client sees is never older than two lifetimes of the service's own cache.
 */
export function staleWhileRevalidateS(ttlS: number): number {
  return ttlS;
}

/**
 * Cache-Control for a public read: browsers and shared caches keep it for the service's lifetime; shared caches
 * may answer with it stale while they refetch (one more lifetime) or while the service fails (as long as the
 * service itself would).
 */
export function publicLifetimes(ttlS: number): string {
  let value = built.get(ttlS);
  if (value === undefined) {
    value =
      `public, max-age=${ttlS}, s-maxage=${ttlS}, ` +
      `stale-while-revalidate=${staleWhileRevalidateS(ttlS)}, stale-if-error=${staleIfErrorS(ttlS)}`;
    // A deployment has a handful of lifetimes (the cache's, the feeds'): built once each, off the hit path.
    if (built.size < 64) built.set(ttlS, value);
  }
  return value;
}

const built = new Map<number, string>();
