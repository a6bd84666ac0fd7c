// Small statistics for benchmark rounds: medians of rounds, percentiles of samples.
export function median(xs: number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile, p in [0, 100]. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank]!;
}

/** Rounds for display and JSON: three significant decimals are plenty for noisy figures. */
export function round(x: number, digits = 3): number {
  return Number.isFinite(x) ? Number(x.toFixed(digits)) : x;
}
