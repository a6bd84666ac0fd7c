// A value read through the provider chain and the cache, with its provenance.
import type { Payer } from './payer.ts';

export type CacheStatus = 'hit' | 'miss' | 'stale' | 'bypass';

/** The most telling cache status of several reads: any stale read makes the answer stale, then any miss. */
export function overallCache(caches: CacheStatus[]): CacheStatus {
  for (const c of ['stale', 'miss', 'bypass'] as const) if (caches.includes(c)) return c;
  return 'hit';
}

export interface Sourced<T> {
  value: T;
  /** Provider that produced the value. */
  source: string;
  cache: CacheStatus;
  warnings: string[];
}

/**
 * How one request may use the application cache: `shared` reads and fills it, `refresh` (nocache) skips the
 * read but refreshes the entry, `private` (keyed callers) neither reads nor writes it.
 */
export type CacheMode = 'shared' | 'refresh' | 'private';

export interface ReadPolicy {
  mode: CacheMode;
  /** Who every upstream call of the read is made for and charged to (domain/payer.ts). */
  payer: Payer;
  /** `poll`: a background read of a watched source, charged per upstream call to the payer's poll allowance. */
  purpose?: 'poll';
  /** Runs just before a live upstream lookup (never on a cache hit); throws rate_limited when exhausted. */
  beforeLive?: () => Promise<void>;
  /**
   * Runs before each upstream call that spends a logged-in session (fallbacks and confirmations of a "not found"
   * alike); throws rate_limited when the client's account allowance is used up. Absent where the read's own
   * charge already covers its session calls (account-backed feeds charge per page in `beforeLive`).
   */
  chargeSession?: () => Promise<void>;
  /**
   * Told of every fresh cache entry a read was answered from (the entry object is its identity): the answer
   * depends on it, and the response layer may store an answer built only from such entries for as long as they
   * stay the same.
   */
  dependsOn?: (key: string, entry: object, freshUntil: number) => void;
  /**
   * Told when a read failed upstream or was answered from a stale copy: whatever the request answers is then shaped
   * by a passing failure, which a later read may not repeat.
   */
  onDegraded?: () => void;
  /**
   * The language (canonical BCP 47 tag) the read's posts are wanted in: an upstream that attaches translations to
   * the posts of its pages is asked in it (another cache entry per page); the others are translated post by post.
   */
  translate?: string;
}

/**
 * The time one request may still spend on upstream reads, shared by every read it makes (a conversation,
 * its fallback, the walk up to the conversation root). Opaque to the domain beyond "is it spent".
 */
export interface ReadBudget {
  readonly expired: boolean;
}

/**
 * A value derived from a cached domain value (an assembled read, a rendering), remembered per (value, options)
 * so a cache hit does not derive it again. `options` must name every input besides `source`.
 */
export interface Derived<V> {
  /** `source`: the cached value (or values, all of which must be the same objects) the derivation reads. */
  derive(source: object | readonly object[], options: unknown, build: () => V): V;
}
