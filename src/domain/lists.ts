// The list sources the use cases read through (the cache and the provider chain stand behind them, see
// sources/list-source.ts), and what every list use case is handed.
import type { Author, CuratedList, Page, Post } from './models.ts';
import type { ReadPolicy, Sourced } from './sourced.ts';
import type { SearchFeed, SearchItem } from './capabilities.ts';
import type { CursorSealer } from './cursors.ts';
import type { PageCall, PageInput } from './paging.ts';
import type { ReadWindow } from './reads.ts';
import { isSelfReply } from './own-posts.ts';

/** The list reads, as the browse routes name them. */
export type ListResource =
  | 'profile'
  | 'followers'
  | 'following'
  | 'search'
  | 'list'
  | 'list-members'
  | 'quotes'
  | 'reposts'
  | 'media'
  | 'articles';

export interface ListSource {
  profile(handle: string, policy: ReadPolicy): Promise<Sourced<Author>>;
  /** The profile behind a numeric account id, whatever its handle is today. */
  profileById(id: string, policy: ReadPolicy): Promise<Sourced<Author>>;
  /** Recent posts of an account; its replies to others too where the upstream keeps them apart (`replies`). */
  timeline(handle: string, call: PageCall, opts?: { replies?: boolean }): Promise<Sourced<Page<Post>>>;
  connections(kind: 'followers' | 'following', handle: string, call: PageCall): Promise<Sourced<Page<Author>>>;
  search(q: string, feed: SearchFeed, call: PageCall): Promise<Sourced<Page<SearchItem>>>;
  /** An X List by its numeric id (a private one is not_found). */
  list(id: string, policy: ReadPolicy): Promise<Sourced<CuratedList>>;
  listPosts(id: string, call: PageCall): Promise<Sourced<Page<Post>>>;
  listMembers(id: string, call: PageCall): Promise<Sourced<Page<Author>>>;
}

/** The sources of a paged use case: the lists, and the sealer of our cursors. */
export interface ListSources {
  lists: ListSource;
  cursors: CursorSealer;
}

/** A read model and the cache status of the reads behind it (for the presenter's Cache-Control and X-Cache). */
export interface Listed<R> {
  read: R;
  cache: Sourced<unknown>['cache'];
}

/** A window of time, as the read model names it and as X search operators reach it. */
export interface WindowInput {
  iso: ReadWindow;
  /** X search operators for the window (since_time:… until_time:…). */
  operators: string;
}

/** Which kinds of timeline entry a profile read shows besides the author's own posts. */
export interface TimelineOptions {
  /** Replies to other people (a reply to the author's own post continues a self-thread and is always shown). */
  replies: boolean;
  reposts: boolean;
}

/**
 * The timeline entries a profile read keeps: the author's own posts always (originals and self-thread
 * continuations), replies to others and reposts when asked for.
 */
export function timelineFilter(o: TimelineOptions): (p: Post) => boolean {
  return (p) => (p.repostOf ? o.reposts : p.replyTo && !isSelfReply(p) ? o.replies : true);
}

export type { PageInput };
