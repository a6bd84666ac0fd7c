import type { Representation } from '../negotiate.ts';

export const CONTENT_TYPES: Record<Representation, string> = {
  markdown: 'text/markdown; charset=utf-8',
  obsidian: 'text/markdown; charset=utf-8; variant=obsidian',
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

export function publicCacheControl(ttlS: number): string {
  return ttlS > 0 ? `public, max-age=${ttlS}` : 'no-cache';
}

/** Header values are built from our own strings, but never let anything outside visible ASCII through. */
export function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, 1024);
}
