// The search use case: normalised terms, a feed, and a page of posts or accounts.
import type { SearchFeed, SearchItem } from './capabilities.ts';
import { DomainError } from './errors.ts';
import { newerThan, reachesSince } from './since.ts';
import type { Listed, ListSources, PageInput, WindowInput } from './lists.ts';
import { readPage } from './paging.ts';
import { keepToWindow, postTime } from './in-window.ts';
import type { SearchRead } from './reads.ts';
import type { ReadPolicy } from './sourced.ts';

export const SEARCH_FEEDS = ['latest', 'top', 'photos', 'videos', 'users'] as const satisfies readonly SearchFeed[];
export const DEFAULT_FEED: SearchFeed = 'latest';
/** Feeds only account-backed providers serve: their lookups also count against the account allowance. */
export const ACCOUNT_FEEDS: ReadonlySet<SearchFeed> = new Set<SearchFeed>(['photos', 'videos', 'users']);
export const MAX_QUERY_CHARS = 512;

/** Which live-lookup allowances a search on `feed` is charged against. */
export function searchCharge(feed: SearchFeed): 'plain' | 'account' {
  return ACCOUNT_FEEDS.has(feed) ? 'account' : 'plain';
}

/** Terms as the upstream will see them: trimmed, inner whitespace folded. */
export function normalizeQuery(q: string | undefined): string {
  const terms = (q ?? '').trim().replace(/\s+/g, ' ');
  if (!terms) throw new DomainError({ kind: 'missing_query' });
  if (terms.length > MAX_QUERY_CHARS)
    throw new DomainError({ kind: 'query_too_long', max: MAX_QUERY_CHARS, withWindow: false });
  return terms;
}

/**
 * The terms as the upstream gets them: the window travels as X search operators, so the upstream jumps to it and
 * the cache and cursors key on it. Terms and window together must stay within the limit.
 */
export function upstreamTerms(q: string, window: WindowInput | undefined): string {
  const terms = [q, window?.operators ?? ''].filter(Boolean).join(' ');
  if (terms.length > MAX_QUERY_CHARS)
    throw new DomainError({ kind: 'query_too_long', max: MAX_QUERY_CHARS, withWindow: true });
  return terms;
}

export interface SearchInput extends PageInput {
  /** Already normalised (normalizeQuery). */
  q: string;
  feed: SearchFeed;
  window?: WindowInput;
  /** Incremental read: only posts newer than this status id (not on the users feed). */
  sinceId?: string;
}

/** When a search item was posted, for the window; accounts have no time. */
const searchItemTime = (i: SearchItem) => (i.kind === 'post' ? postTime(i.post) : undefined);

/** Search items by post id; accounts (the users feed) have none. */
const postIdOf = (i: SearchItem) => (i.kind === 'post' ? i.post.id : '0');

export async function readSearch(
  src: ListSources,
  input: SearchInput,
  policy: ReadPolicy,
): Promise<Listed<SearchRead>> {
  const { q, feed, window, sinceId } = input;
  const terms = upstreamTerms(q, window);
  const page = await readPage(
    src.cursors,
    { route: 'search', query: terms, feed },
    input,
    policy,
    // Only the latest feed is in time order, so only there does a post before the window end the list.
    keepToWindow((call) => src.lists.search(terms, feed, call), window, searchItemTime, feed === 'latest'),
    // Only the latest feed is in time order; a page of top results says nothing about the next page.
    (items) => sinceId !== undefined && feed === 'latest' && reachesSince(items, sinceId, postIdOf),
  );
  const items = sinceId === undefined ? page.items : newerThan(page.items, sinceId, postIdOf);
  return { read: { q, feed, items, ...(window ? { window: window.iso } : {}), ...page.meta }, cache: page.cache };
}
