// List use cases (profile posts, followers, following, search) and the contract's paging rules:
// a cursor continues with the provider that issued it; `page` walks cursors from the first page.
import type { Author, Page, Post } from './models.ts';
import type { CacheStatus, ReadPolicy, Sourced } from './sourced.ts';
import type { SearchFeed, SearchItem } from './capabilities.ts';

export interface PageCall {
  /** Provider that must answer (the one that issued the cursor); any provider when absent. */
  provider?: string;
  cursor?: string;
  count: number;
  policy: ReadPolicy;
}

export interface ListSource {
  profile(handle: string, policy: ReadPolicy): Promise<Sourced<Author>>;
  timeline(handle: string, call: PageCall): Promise<Sourced<Page<Post>>>;
  connections(kind: 'followers' | 'following', handle: string, call: PageCall): Promise<Sourced<Page<Author>>>;
  search(q: string, feed: SearchFeed, call: PageCall): Promise<Sourced<Page<SearchItem>>>;
}

export interface Position {
  /** Continue from a decoded cursor... */
  cursor?: { provider: string; upstream: string; page: number };
  /** ...or walk to this page number from the start. */
  page: number;
  limit: number;
  policy: ReadPolicy;
}

export interface PagedResult<T> {
  items: T[];
  page: number;
  /** Provider and upstream cursor of the next page, when there is one. */
  next?: { provider: string; upstream: string };
  source: string;
  cache: CacheStatus;
  warnings: string[];
}

/**
 * Fetches one page at `pos`. Pages before the requested one are fetched only to learn their cursors;
 * a list that ends before the requested page yields an empty last page.
 */
export async function fetchPage<T>(
  pos: Position,
  load: (call: PageCall) => Promise<Sourced<Page<T>>>,
): Promise<PagedResult<T>> {
  let provider = pos.cursor?.provider;
  let cursor = pos.cursor?.upstream;
  let pageNo = pos.cursor ? pos.cursor.page : 1;
  const target = pos.cursor ? pos.cursor.page : pos.page;
  for (;;) {
    const got = await load({ provider, cursor, count: pos.limit, policy: pos.policy });
    const upstreamNext = got.value.nextCursor;
    // A cursor that repeats the one we sent is the end (some upstreams signal the end that way).
    const next = upstreamNext && upstreamNext !== cursor ? { provider: got.source, upstream: upstreamNext } : undefined;
    if (pageNo >= target || !next) {
      const reached = pageNo >= target;
      return {
        items: reached ? got.value.items : [],
        page: target,
        next: reached ? next : undefined,
        source: got.source,
        cache: got.cache,
        warnings: reached ? got.warnings : [...got.warnings, `the list ends before page ${target}`],
      };
    }
    provider = next.provider;
    cursor = next.upstream;
    pageNo++;
  }
}

/** A profile's own posts: replies and reposts are not part of "recent original posts". */
export function isOriginal(p: Post): boolean {
  return !p.repostOf && !p.replyTo;
}
