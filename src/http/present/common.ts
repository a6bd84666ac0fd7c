import type { CacheStatus } from '../../domain/sourced.ts';
import type { Representation } from '../negotiate.ts';

export const CONTENT_TYPES: Record<Representation, string> = {
  markdown: 'text/markdown; charset=utf-8',
  obsidian: 'text/markdown; charset=utf-8; variant=obsidian',
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

/** A stale copy (served because every upstream failed) must be revalidated, not kept downstream for a lifetime. */
export function publicCacheControl(ttlS: number, cache?: CacheStatus): string {
  return ttlS > 0 && cache !== 'stale' ? `public, max-age=${ttlS}` : 'no-cache';
}

/** Header values are built from our own strings, but never let anything outside visible ASCII through. */
export function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 1024);
}
