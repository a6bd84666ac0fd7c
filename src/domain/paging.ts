// Paging, in one place: where a request starts (a sealed cursor or `page=N`), the walk to that page, the
// end-of-list rule, and the sealing of the next cursor (through the sealer port of cursors.ts). Providers only ever
// see their own raw upstream cursors; callers only ever see sealed ones.
import { openCursor, type CursorScope, type CursorSealer, type CursorState } from './cursors.ts';
import type { Page } from './models.ts';
import { overallCache, type CacheStatus, type ReadPolicy, type Sourced } from './sourced.ts';

/** Items per page when the caller names no limit (also what feeds read). */
export const DEFAULT_LIMIT = 20;

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
export function openPosition(
  input: PageInput,
  cursors: CursorSealer,
  scope: CursorScope,
  policy: ReadPolicy,
): Position {
  const limit = input.limit ?? DEFAULT_LIMIT;
  if (input.cursor !== undefined) return { cursor: openCursor(cursors, scope, input.cursor), page: 1, limit, policy };
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
  cursors: CursorSealer,
  scope: CursorScope,
  input: PageInput,
  policy: ReadPolicy,
  load: PageLoader<T>,
  caughtUp?: (items: T[]) => boolean,
): Promise<ReadPage<T>> {
  const pos = openPosition(input, cursors, scope, policy);
  const page = await walkToPage(pos, load);
  const next = page.next;
  const nextCursor =
    next && !caughtUp?.(page.items)
      ? cursors.seal(scope, {
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
