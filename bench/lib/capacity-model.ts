// The capacity model of docs/capacity.md as functions: what one read costs (Redis commands and bytes, upstream
// calls and bytes) for a traffic mix and its hit ratios, what a daily volume asks of the upstreams and of X
// sessions, and the sizes that follow. bench/capacity.ts checks these formulas against a simulated run.

/** What one read of a class costs, measured once cold (miss) and warm (hit). */
export interface ClassCost {
  /** Upstream calls of one miss, per simulator target (fxtwitter, syndication, x). */
  upstreamCalls: Record<string, number>;
  /** Upstream body bytes of one miss. */
  upstreamBytes: number;
  /**
   * `hit` is a key's first hit on an instance (the full path, which records the answer), `repeat` a later one
   * (replayed when the body went out uncompressed: one scripted round trip, no entry read).
   */
  redisOps: { hit: number; repeat: number; miss: number };
  /** Bytes in and out of Redis. */
  redisBytes: { hit: number; repeat: number; miss: number };
}

export interface MixClass {
  name: string;
  /** Share of all reads (the shares of a mix sum to 1). */
  share: number;
  /** Share of this class's reads answered from the service's cache. */
  hitRatio: number;
  /** Share of those hits that are repeats of a key already hit on the same instance. */
  repeatShare: number;
}

export interface PerRead {
  redisOps: number;
  redisBytes: number;
  upstreamCalls: Record<string, number>;
  upstreamBytes: number;
}

/**
 * Formulas 1–2: expected cost of one read of the mix, Σ share × (h × ((1 − ρ) × hit + ρ × repeat) + (1 − h) × miss)
 * with ρ the repeat share of the hits.
 */
export function perRead(mix: readonly MixClass[], costs: Readonly<Record<string, ClassCost>>): PerRead {
  const out: PerRead = { redisOps: 0, redisBytes: 0, upstreamCalls: {}, upstreamBytes: 0 };
  for (const c of mix) {
    const cost = costs[c.name];
    if (!cost) throw new Error(`no cost for class ${c.name}`);
    const h = c.hitRatio;
    const r = c.repeatShare;
    const blend = (x: { hit: number; repeat: number; miss: number }) =>
      h * ((1 - r) * x.hit + r * x.repeat) + (1 - h) * x.miss;
    out.redisOps += c.share * blend(cost.redisOps);
    out.redisBytes += c.share * blend(cost.redisBytes);
    out.upstreamBytes += c.share * (1 - h) * cost.upstreamBytes;
    for (const [target, n] of Object.entries(cost.upstreamCalls))
      out.upstreamCalls[target] = (out.upstreamCalls[target] ?? 0) + c.share * (1 - h) * n;
  }
  return out;
}

/**
 * Hit ratio and repeat share a class reaches within one cache lifetime on `instances` instances sharing one
 * cache: every key's first read misses, every later one hits; the first hit of a key on each instance takes the
 * full path. `readsPerKey` counts the reads of each distinct key in one lifetime.
 */
export function hitsOf(readsPerKey: readonly number[], instances = 1): { hitRatio: number; repeatShare: number } {
  const reads = readsPerKey.reduce((a, b) => a + b, 0);
  const hits = reads - readsPerKey.length;
  if (reads === 0 || hits <= 0) return { hitRatio: 0, repeatShare: 0 };
  const firstHits = readsPerKey.reduce((a, n) => a + Math.min(n - 1, instances), 0);
  return { hitRatio: hits / reads, repeatShare: (hits - firstHits) / hits };
}

/** Formula 3: upstream calls per second left after the CDN (share `cdnHit`) and the service's caches. */
export function upstreamPerSecond(readsPerDay: number, cdnHit: number, callsPerRead: number, peak = 1): number {
  return (readsPerDay / 86_400) * peak * (1 - cdnHit) * callsPerRead;
}

/**
 * Formula 4: X sessions one operation needs: its calls in one rate-limit window over what one session may make
 * in it, with headroom for parked and dead sessions.
 */
export function sessionsFor(callsPerSecond: number, limitPerWindow: number, windowS = 900, headroom = 1.25): number {
  if (callsPerSecond <= 0) return 0;
  return Math.ceil(((callsPerSecond * windowS) / limitPerWindow) * headroom);
}

/** Formula 5: instances for the reads that reach them, each kept below `utilisation` of its throughput. */
export function instancesFor(
  readsPerSecond: number,
  hitRatio: number,
  hitThroughput: number,
  missThroughput: number,
  utilisation = 0.5,
): number {
  const coreSeconds = readsPerSecond * (hitRatio / hitThroughput + (1 - hitRatio) / missThroughput);
  return Math.max(2, Math.ceil(coreSeconds / utilisation));
}
