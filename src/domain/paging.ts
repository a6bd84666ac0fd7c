// Paging, in one place: where a request starts (a sealed cursor or `page=N`), the walk to that page, the
// end-of-list rule, and the sealing of the next cursor. Providers only ever see their own raw upstream cursors;
// callers only ever see sealed ones.
//
// Cursors are opaque and provider-tagged. The payload (provider, route, query, feed, upstream cursor, page) is
// sealed with AES-256-GCM, so the upstream cursor is never exposed and any edit, forgery or reuse on another
// route, query or feed is detected. A cluster shares THREADMARK_CURSOR_SECRET, or, when it is unset, a random
// secret agreed through the shared store (Redis, or a file beside the key store in embedded mode; see
// sources/cursor-secret.ts), so cursors survive a restart.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { Problem } from '../problems/problem.ts';
import type { Page } from './models.ts';
import { overallCache, type CacheStatus, type ReadPolicy, type Sourced } from './sourced.ts';

/** Items per page when the caller names no limit (also what feeds read). */
export const DEFAULT_LIMIT = 20;

export interface CursorScope {
  /** Route family: profile, followers, following, search. */
  route: string;
  /** Normalized query: lower-cased handle, or the search terms. */
  query: string;
  /** Search feed; empty for the other routes. */
  feed: string;
}

export interface CursorState {
  provider: string;
  upstream: string;
  /** Page number the cursor leads to. */
  page: number;
  /** A position inside that page (exports stop mid-page): items already delivered, and the last one's id. */
  skip?: number;
  last?: string;
}

interface Sealed extends CursorState {
  v: 1;
  s: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

function scopeTag(scope: CursorScope): string {
  return createHash('sha256').update(`${scope.route}\n${scope.query}\n${scope.feed}`).digest('base64url').slice(0, 16);
}

function keyOf(secret: string | Buffer): Buffer {
  return createHash('sha256').update(secret).digest();
}

function ivKeyOf(key: Buffer): Buffer {
  return createHash('sha256').update('threadmark cursor nonce\n').update(key).digest();
}

export class CursorCodec {
  /** Sealing key first; earlier keys still open cursors issued before a shared secret was adopted. */
  private keys: Buffer[];

  /** Key of the synthetic nonce, derived from the sealing key so that no key serves two primitives. */
  private ivKey: Buffer;

  constructor(secret?: string) {
    this.keys = [keyOf(secret ?? randomBytes(32))];
    this.ivKey = ivKeyOf(this.key);
  }

  private get key(): Buffer {
    return this.keys[0]!;
  }

  /** Switches sealing to a secret shared by the cluster, still accepting cursors this process sealed before. */
  adopt(secret: string): void {
    const next = keyOf(secret);
    if (next.equals(this.key)) return;
    this.keys = [next, ...this.keys.filter((k) => !k.equals(next))].slice(0, 3);
    this.ivKey = ivKeyOf(next);
  }

  encode(scope: CursorScope, state: CursorState): string {
    const text = JSON.stringify({ v: 1, s: scopeTag(scope), ...state } satisfies Sealed);
    // The nonce is a keyed hash of the payload (a synthetic IV), not random: the same position always seals to
    // the same cursor, so a cached page renders to the same bytes and keeps its ETag from one hit to the next.
    // Distinct payloads still get distinct nonces; equal cursors only reveal that they lead to the same place.
    const iv = createHmac('sha256', this.ivKey).update(text).digest().subarray(0, IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  decode(scope: CursorScope, token: string): CursorState {
    const raw = /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, 'base64url') : Buffer.alloc(0);
    // Base64 decoding ignores stray trailing bits; only the exact text this service issued is accepted.
    if (raw.length <= IV_BYTES + TAG_BYTES || raw.toString('base64url') !== token)
      throw new Problem('invalid_cursor', 'The cursor is not one this service issued.');
    let payload: Sealed | undefined;
    for (const k of this.keys) if ((payload = open(k, raw))) break;
    if (!payload)
      throw new Problem('invalid_cursor', 'The cursor was edited, forged, or issued by another deployment.');
    if (payload.v !== 1 || payload.s !== scopeTag(scope)) {
      throw new Problem(
        'invalid_cursor',
        'The cursor belongs to another route, query or feed; send it only where it was issued.',
      );
    }
    return {
      provider: payload.provider,
      upstream: payload.upstream,
      page: payload.page,
      ...(payload.skip ? { skip: payload.skip } : {}),
      ...(payload.last ? { last: payload.last } : {}),
    };
  }
}

function open(key: Buffer, raw: Buffer): Sealed | undefined {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
    return JSON.parse(text) as Sealed;
  } catch {
    return undefined;
  }
}

/** One call to a list source: the provider's own raw cursor, never a sealed one. */
export interface PageCall {
  /** Provider that must answer (the one that issued the cursor); any provider when absent. */
  provider?: string;
  cursor?: string;
  count: number;
  policy: ReadPolicy;
}

export type PageLoader<T> = (call: PageCall) => Promise<Sourced<Page<T>>>;

/** Where the caller wants to be: a sealed cursor (preferred) or a page number from the start. */
export interface PageInput {
  cursor?: string;
  page?: number;
  limit?: number;
}

export interface Position {
  /** Continue from an opened cursor... */
  cursor?: CursorState;
  /** ...or walk to this page number from the start. */
  page: number;
  limit: number;
  policy: ReadPolicy;
}

export interface PagedResult<T> {
  items: T[];
  page: number;
  /** Where the next page starts, when there is one. */
  next?: Resume;
  source: string;
  cache: CacheStatus;
  warnings: string[];
}

/**
 * Where a page starts: the upstream page (its provider and the raw cursor that fetched it; empty = any provider,
 * the first page) and how many of its items earlier pages already showed. Upstream pages can be longer than
 * `limit` (X answers 60-70 followers when asked for 20); the rest of such a page is served from the same
 * upstream page, read again through the cache, before the upstream cursor moves on.
 */
export interface Resume {
  provider: string;
  upstream: string;
  skip: number;
}

/** The envelope every list read carries (the Continue → URL is the presenter's: it knows the route). */
export interface PageMeta {
  page: number;
  limit: number;
  /** Our sealed cursor for the next page; absent at the end. */
  nextCursor?: string;
  source: string;
  warnings: string[];
}

/** `cursor` takes precedence over `page`; a cursor from another route, query or feed is invalid_cursor. */
export function openPosition(input: PageInput, codec: CursorCodec, scope: CursorScope, policy: ReadPolicy): Position {
  const limit = input.limit ?? DEFAULT_LIMIT;
  if (input.cursor !== undefined) return { cursor: codec.decode(scope, input.cursor), page: 1, limit, policy };
  return { page: input.page ?? 1, limit, policy };
}

/**
 * The end-of-list rule: no upstream cursor, or one that repeats the cursor we sent (some upstreams signal the
 * end that way), means there is no next page. Providers apply it to their upstream's answers too
 * (providers/shared/paging.ts), so a list ends the same way at both levels.
 */
export function continuesAfter(
  upstreamNext: string | null | undefined,
  sent: string | undefined,
): upstreamNext is string {
  return !!upstreamNext && upstreamNext !== sent;
}

export function nextOf(
  upstreamNext: string | undefined,
  sent: string | undefined,
  provider: string,
): { provider: string; upstream: string } | undefined {
  return continuesAfter(upstreamNext, sent) ? { provider, upstream: upstreamNext } : undefined;
}

/**
 * Upstream pages with nothing to show (every item filtered out by the read, or none sent with a cursor to more)
 * passed over in a row before an empty page is answered with its Continue cursor: a bound on the upstream calls
 * one read makes.
 */
export const MAX_EMPTY_UPSTREAM_PAGES = 3;

/**
 * Fetches one page at `pos`: at most `limit` items, taken from one upstream page. Pages before the requested
 * one are walked only to learn where it starts (an upstream page is fetched once per walk, however many pages
 * it holds); a list that ends before the requested page yields an empty last page. An upstream page with no
 * items is not a page: the walk goes on to the next (up to MAX_EMPTY_UPSTREAM_PAGES in a row).
 */
export async function walkToPage<T>(pos: Position, load: PageLoader<T>): Promise<PagedResult<T>> {
  let at: Resume = pos.cursor
    ? { provider: pos.cursor.provider, upstream: pos.cursor.upstream, skip: pos.cursor.skip ?? 0 }
    : { provider: '', upstream: '', skip: 0 };
  let pageNo = pos.cursor ? pos.cursor.page : 1;
  const target = pos.cursor ? pos.cursor.page : pos.page;
  const fetch = (r: Resume) =>
    load({ provider: r.provider || undefined, cursor: r.upstream || undefined, count: pos.limit, policy: pos.policy });
  let got = await fetch(at);
  // What the upstream pages passed over said: their cache status and warnings belong to the page answered.
  let passed: Array<Sourced<Page<T>>> = [];
  for (;;) {
    const items = got.value.items;
    const start = Math.min(at.skip, items.length);
    const end = Math.min(start + pos.limit, items.length);
    const upstreamNext = nextOf(got.value.nextCursor, at.upstream || undefined, got.source);
    if (items.length === 0 && upstreamNext && passed.length < MAX_EMPTY_UPSTREAM_PAGES) {
      passed.push(got);
      at = { ...upstreamNext, skip: 0 };
      got = await fetch(at);
      continue;
    }
    if (passed.length > 0) {
      const all = [...passed, got];
      got = {
        ...got,
        cache: overallCache(all.map((g) => g.cache)),
        warnings: [...new Set(all.flatMap((g) => g.warnings))],
      };
      passed = [];
    }
    // The rest of this upstream page comes first; it is asked for the way it was fetched, so it hits the cache.
    const next: Resume | undefined =
      end < items.length ? { ...at, skip: end } : upstreamNext ? { ...upstreamNext, skip: 0 } : undefined;
    if (pageNo >= target || !next) {
      const reached = pageNo >= target;
      return {
        items: reached ? items.slice(start, end) : [],
        page: target,
        next: reached ? next : undefined,
        source: got.source,
        cache: got.cache,
        warnings: reached ? got.warnings : [...got.warnings, `the list ends before page ${target}`],
      };
    }
    if (next.skip === 0) got = await fetch(next);
    at = next;
    pageNo++;
  }
}

export interface ReadPage<T> {
  items: T[];
  meta: PageMeta;
  cache: CacheStatus;
}

/**
 * Opens the position, walks to it and seals the cursor of the page after: the whole paging flow of a list read.
 * `caughtUp` is a second end-of-list rule for incremental reads: a page it accepts is the last one worth reading.
 */
export async function readPage<T>(
  codec: CursorCodec,
  scope: CursorScope,
  input: PageInput,
  policy: ReadPolicy,
  load: PageLoader<T>,
  caughtUp?: (items: T[]) => boolean,
): Promise<ReadPage<T>> {
  const pos = openPosition(input, codec, scope, policy);
  const page = await walkToPage(pos, load);
  const next = page.next;
  const nextCursor =
    next && !caughtUp?.(page.items)
      ? codec.encode(scope, {
          provider: next.provider,
          upstream: next.upstream,
          page: page.page + 1,
          ...(next.skip ? { skip: next.skip } : {}),
        })
      : undefined;
  return {
    items: page.items,
    cache: page.cache,
    meta: {
      page: page.page,
      limit: pos.limit,
      ...(nextCursor ? { nextCursor } : {}),
      source: page.source,
      warnings: page.warnings,
    },
  };
}
