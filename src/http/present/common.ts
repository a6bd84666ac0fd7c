import type { CacheStatus } from '../../domain/sourced.ts';
import { publicLifetimes } from '../../domain/cache-lifetimes.ts';

/** A stale copy (served because every upstream failed) must be revalidated, not kept downstream for a lifetime. */
export function publicCacheControl(ttlS: number, cache?: CacheStatus): string {
  return ttlS > 0 && cache !== 'stale' ? publicLifetimes(ttlS) : 'no-cache';
}

/** Header values are built from our own strings, but never let anything outside visible ASCII through. */
export function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 1024);
}

/** A budget asked for, and the same read without it (the closing line links there). */
export interface BudgetRequest {
  chars: number;
  fullUrl: string;
}

/**
 * The request's own URL on the public base without `budget`: the unbudgeted read. The representation parameters
 * go too, so every representation of one budgeted read carries the same Markdown (and so keeps the same posts).
 */
export function unbudgetedUrl(baseUrl: string, requestUrl: string): string {
  const u = new URL(requestUrl, 'http://request.invalid');
  for (const name of ['budget', 'format', 'mode']) u.searchParams.delete(name);
  return `${baseUrl}${u.pathname}${u.search}`;
}

/** The warning that names what a budget left out (X-Warnings and the JSON `warnings`). */
export function budgetWarning(chars: number, leftOut: string[]): string {
  return `budget of ${chars} characters: left out ${leftOut.join(', ')}`;
}
