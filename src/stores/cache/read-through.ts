import {
  AllowanceRefused,
  SourceError,
  failureCode as sourceFailureCode,
  type SourceFailure,
} from '../../domain/failures.ts';
import { ProviderError } from '../../providers/types.ts';
import type { Coalescer, FillLock } from './coalesce.ts';
import type { Cache, CacheEntry } from './types.ts';
import type { CacheStatus } from '../../domain/sourced.ts';

export type { CacheStatus };

export interface CachedReadOptions {
  freshMs: number;
  /** How long after going stale a copy is kept to answer when the upstream fails. */
  staleMs: number;
  /** `nocache`: skip the read, still refresh the entry. */
  bypass: boolean;
  /** Told of the fresh entry a hit is answered from. */
  onHit?: (entry: CacheEntry) => void;
  /**
   * How long a "not found" (missing, deleted, suspended, protected) is remembered, in the same cache: reads of it
   * in that time are answered from the entry, without an upstream call. 0 or absent: not remembered.
   */
  negativeMs?: number;
}

/**
 * The cached form of a "not found": its words and who said it (in the shape of the problem document's detail and
 * extensions, which is how entries already stored name them), enough to answer it again.
 */
interface NegativeValue {
  notFound: { detail: string; extensions: Record<string, unknown> };
}

function isNegative(v: unknown): v is NegativeValue {
  const nf = (v as Partial<NegativeValue> | null)?.notFound;
  return typeof nf === 'object' && nf !== null && typeof nf.detail === 'string';
}

/** The remembered "not found", answered again as a cache hit. */
function negativeHit(v: NegativeValue): SourceError {
  const { source, confirmed } = v.notFound.extensions;
  return new SourceError({
    kind: 'not_found',
    detail: v.notFound.detail,
    ...(typeof source === 'string' ? { source } : {}),
    ...(confirmed === false ? { confirmed } : {}),
    cached: true,
  });
}

type NotFound = Extract<SourceFailure, { kind: 'not_found' }>;

function notFoundOf(e: unknown): NotFound | undefined {
  return e instanceof SourceError && e.failure.kind === 'not_found' ? e.failure : undefined;
}

export interface CachedRead<T> {
  value: T;
  cacheStatus: CacheStatus;
  /** True when this caller's `load()` ran, i.e. the request reached an upstream. */
  charged: boolean;
  warnings: string[];
}

/**
 * Stale copies stand in only for upstream trouble. A positive "not found" and caller errors
 * (bad input, rate limits) must reach the caller unchanged.
 */
export function isUpstreamFailure(e: unknown): boolean {
  if (e instanceof ProviderError) return e.kind !== 'not_found';
  if (e instanceof SourceError) return e.failure.kind !== 'not_found' || e.failure.confirmed === false;
  return statusOf(e) >= 500;
}

function statusOf(e: unknown): number {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : 0;
}

/** What failed, in the warning of a stale answer: the code the failure answers with where it is not served stale. */
function failureCode(e: unknown): string {
  if (e instanceof SourceError) return sourceFailureCode(e.failure);
  if (e instanceof ProviderError) return `${e.provider}_${e.kind}`;
  return statusOf(e) ? `status ${statusOf(e)}` : 'error';
}

/**
 * Read-through with coalescing, `nocache` bypass and stale-if-error. Charge live-lookup quota inside
 * `load()`: only the caller whose load runs pays, and a 429 thrown there stays that caller's own.
 */
export async function cachedRead<T>(
  cache: Cache,
  coalescer: Coalescer,
  key: string,
  opts: CachedReadOptions,
  load: () => Promise<T>,
): Promise<CachedRead<T>> {
  const entry = opts.bypass ? undefined : await cache.get(key);
  if (entry && Date.now() < entry.freshUntil) {
    if (isNegative(entry.value)) throw negativeHit(entry.value);
    opts.onHit?.(entry);
    return { value: entry.value as T, cacheStatus: 'hit', charged: false, warnings: [] };
  }
  const run = { charged: false };
  try {
    const value = await coalescedFill(cache, coalescer, key, opts, load, run);
    return { value, cacheStatus: opts.bypass ? 'bypass' : 'miss', charged: run.charged, warnings: [] };
  } catch (err) {
    if (!isUpstreamFailure(err)) throw err;
    const stale = entry ?? (await cache.get(key));
    if (!stale || Date.now() >= stale.staleUntil || isNegative(stale.value)) throw err;
    const warning = `stale: upstream failed (${failureCode(err)}); served the copy cached at ${new Date(stale.storedAt).toISOString()}`;
    return { value: stale.value as T, cacheStatus: 'stale', charged: run.charged, warnings: [warning] };
  }
}

// A joiner that inherits the leader's 429 retries on its own: quota belongs to the caller, not the key.
const MAX_JOIN_RETRIES = 3;

async function coalescedFill<T>(
  cache: Cache,
  coalescer: Coalescer,
  key: string,
  opts: CachedReadOptions,
  load: () => Promise<T>,
  run: { charged: boolean },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let leader = false;
    try {
      return await coalescer.run<T>(key, () => {
        leader = true;
        return fillOnce(cache, coalescer.lock, key, opts, load, run);
      });
    } catch (err) {
      if (!leader && err instanceof AllowanceRefused && attempt < MAX_JOIN_RETRIES) continue;
      throw err;
    }
  }
}

async function fillOnce<T>(
  cache: Cache,
  lock: FillLock | undefined,
  key: string,
  opts: CachedReadOptions,
  load: () => Promise<T>,
  run: { charged: boolean },
): Promise<T> {
  const startedAt = Date.now();
  const notBefore = opts.bypass ? startedAt : 0;
  let token = lock ? await lock.acquire(key) : undefined;
  if (lock && token === null) {
    const waited = await waitForPeer(cache, lock, key, notBefore);
    if ('entry' in waited) return answerOf<T>(waited.entry);
    token = waited.token;
  }
  try {
    // Our read missed before we led the fill; a peer (or an earlier leader here) may have filled and
    // released since, and loading again would pay the upstream twice for one key.
    if (!opts.bypass) {
      const filled = await peerFill(cache, key, notBefore);
      if (filled) return answerOf<T>(filled);
    }
    run.charged = true;
    let value: T;
    try {
      value = await load();
    } catch (err) {
      const notFound = notFoundOf(err);
      if (notFound && opts.negativeMs) await remember(cache, key, notFound, opts.negativeMs);
      throw err;
    }
    await cache.set(key, value, opts.freshMs, opts.staleMs);
    return value;
  } finally {
    if (lock && token) await lock.release(key, token);
  }
}

/** A peer's fill: its value, or the "not found" it remembered. */
function answerOf<T>(entry: CacheEntry): T {
  if (isNegative(entry.value)) throw negativeHit(entry.value);
  return entry.value as T;
}

/**
 * Remembers a "not found" in place of the entry. An unconfirmed one never replaces a copy that can still stand in
 * for it (stale-if-error); a confirmed one does, since the content is gone.
 */
async function remember(cache: Cache, key: string, notFound: NotFound, negativeMs: number): Promise<void> {
  if (notFound.confirmed === false) {
    const kept = await cache.get(key);
    if (kept && !isNegative(kept.value) && Date.now() < kept.staleUntil) return;
  }
  const extensions = {
    ...(notFound.source !== undefined ? { source: notFound.source } : {}),
    ...(notFound.confirmed === false ? { confirmed: false } : {}),
  };
  const value: NegativeValue = { notFound: { detail: notFound.detail, extensions } };
  await cache.set(key, value, negativeMs, 0);
}

/** Polls for the lock holder's result; takes the lock over if the holder gives up without filling. */
async function waitForPeer(
  cache: Cache,
  lock: FillLock,
  key: string,
  notBefore: number,
): Promise<{ entry: CacheEntry } | { token: string | undefined }> {
  const deadline = Date.now() + lock.waitMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, lock.pollMs));
    const entry = await peerFill(cache, key, notBefore);
    if (entry) return { entry };
    const token = await lock.acquire(key);
    if (token !== null) return { token };
  }
  return { token: undefined };
}

/** A fresh entry stored no earlier than `notBefore`: another filler's result we can answer from. */
async function peerFill(cache: Cache, key: string, notBefore: number): Promise<CacheEntry | undefined> {
  const entry = await cache.get(key);
  return entry && entry.storedAt >= notBefore && Date.now() < entry.freshUntil ? entry : undefined;
}
