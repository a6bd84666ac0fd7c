// The feed use cases: the posts of one account's feed (or several merged), or of a saved search, read through the
// same cached sources as the profile and search routes, so a poll inside the cache lifetime reaches no upstream.
import { postsInWindow } from './in-window.ts';
import type { SearchFeed, SearchItem } from './capabilities.ts';
import { mergePosts, selectPosts, type FeedKind } from './feeds.ts';
import type { ListSource, WindowInput } from './lists.ts';
import { upstreamTerms } from './search.ts';
import type { Author, CuratedList, Post } from './models.ts';
import { assertListId } from './curated-lists.ts';
import { isNotFound } from './failures.ts';
import { DEFAULT_LIMIT } from './paging.ts';
import { overallCache, type CacheStatus, type ReadPolicy, type Sourced } from './sourced.ts';

/** What a feed is made of, with the provenance of every read behind it. */
export interface FeedRead {
  posts: Post[];
  /** Providers that answered, in order, each once, comma-separated. */
  source: string;
  cache: CacheStatus;
  warnings: string[];
}

export interface ProfileFeedRead extends FeedRead {
  /** The accounts in the feed (those left out because they are not public are named in the warnings). */
  authors: Author[];
}

class Provenance {
  readonly sources: string[] = [];
  readonly caches: CacheStatus[] = [];
  readonly warnings: string[] = [];

  add(got: Sourced<unknown>): void {
    this.sources.push(got.source);
    this.caches.push(got.cache);
    this.warnings.push(...got.warnings);
  }

  absorb(other: Provenance): void {
    this.sources.push(...other.sources);
    this.caches.push(...other.caches);
    this.warnings.push(...other.warnings);
  }

  read(posts: Post[]): FeedRead {
    return {
      posts,
      source: [...new Set(this.sources)].join(','),
      cache: overallCache(this.caches),
      warnings: this.warnings,
    };
  }
}

/**
 * One account's posts: its timeline, or inside a date window the window read straight away through X search
 * (`from:<handle>` and the window's operators), as the profile route reads it.
 */
async function readAccount(
  lists: ListSource,
  handle: string,
  kind: FeedKind,
  policy: ReadPolicy,
  into: Provenance,
  window?: WindowInput,
): Promise<{ author: Author; posts: Post[] }> {
  const profile = await lists.profile(handle, policy);
  into.add(profile);
  const call = { count: DEFAULT_LIMIT, policy };
  if (window) {
    const found = await lists.search(`from:${profile.value.handle} ${window.operators}`, 'latest', call);
    into.add(found);
    // Only posts inside the window, whatever the upstream's search made of its operators.
    return { author: profile.value, posts: selectPosts(postsInWindow(postsOf(found.value.items), window), kind) };
  }
  const timeline = await lists.timeline(handle, call, { replies: kind === 'with_replies' });
  into.add(timeline);
  return { author: profile.value, posts: selectPosts(timeline.value.items, kind) };
}

const postsOf = (items: SearchItem[]): Post[] => items.flatMap((i) => (i.kind === 'post' ? [i.post] : []));

/**
 * One account's feed, or several merged newest first. In a merged feed an account that is not public is
 * left out with a warning (the others still deserve their feed); any other failure fails the feed, so the
 * reader retries rather than caching a feed with a hole in it.
 */
export async function readProfileFeed(
  lists: ListSource,
  input: { handles: string[]; kind: FeedKind; window?: WindowInput },
  policy: ReadPolicy,
): Promise<ProfileFeedRead> {
  const { handles, kind, window } = input;
  const perAccount = handles.map(() => new Provenance());
  const settled = await Promise.allSettled(
    handles.map((h, i) => readAccount(lists, h, kind, policy, perAccount[i]!, window)),
  );
  const authors: Author[] = [];
  const postLists: Post[][] = [];
  const all = new Provenance();
  let firstFailure: { reason: unknown } | undefined;
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') {
      authors.push(r.value.author);
      postLists.push(r.value.posts);
      all.absorb(perAccount[i]!);
      return;
    }
    firstFailure ??= { reason: r.reason };
    if (handles.length > 1 && isNotFound(r.reason)) all.warnings.push(`@${handles[i]} left out: not public`);
    else throw r.reason;
  });
  if (authors.length === 0 && firstFailure) throw firstFailure.reason;
  return { ...all.read(mergePosts(postLists)), authors };
}

export async function readSearchFeed(
  lists: ListSource,
  input: { q: string; feed: SearchFeed; window?: WindowInput },
  policy: ReadPolicy,
): Promise<FeedRead> {
  const terms = upstreamTerms(input.q, input.window);
  const got = await lists.search(terms, input.feed, { count: DEFAULT_LIMIT, policy });
  const all = new Provenance();
  all.add(got);
  // Search order (top is not chronological) is kept; only a merge re-sorts.
  return all.read(postsInWindow(postsOf(got.value.items), input.window));
}

/** An X List's feed: the list itself and its latest page of posts, read alongside (the list decides a 404). */
export async function readListFeed(
  lists: ListSource,
  input: { id: string },
  policy: ReadPolicy,
): Promise<FeedRead & { list: CuratedList }> {
  assertListId(input.id);
  const [list, page] = await Promise.allSettled([
    lists.list(input.id, policy),
    lists.listPosts(input.id, { count: DEFAULT_LIMIT, policy }),
  ]);
  if (list.status === 'rejected') throw list.reason;
  if (page.status === 'rejected') throw page.reason;
  const all = new Provenance();
  all.add(list.value);
  all.add(page.value);
  return { ...all.read(page.value.value.items), list: list.value.value };
}
