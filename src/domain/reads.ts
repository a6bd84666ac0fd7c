// Results of the use cases, as handed to the renderers.
import type { Author, CuratedList, Post, ReplyNode } from './models.ts';
import type { SearchFeed, SearchItem } from './capabilities.ts';

export type ThreadOption = 'off' | 'full' | 'conversation' | number;
export type ContextOption = 'full' | 'thread';
export type RepliesOption = 'top' | 'recent' | 'off';
export type UserinfoOption = 'off' | 'author' | 'all';

export interface PostReadOptions {
  thread: ThreadOption;
  context: ContextOption;
  replies: RepliesOption;
  userinfo: UserinfoOption;
  full: boolean;
  nocache: boolean;
}

export interface PostRead {
  /** The post that was asked for. */
  requested: Post;
  /** Posts above the author's chain when context=full (other authors' parents), root first. */
  parents: Post[];
  /**
   * Conversation ancestors left out between the root (`parents[0]`) and the nearest ones (`parents[1..]`):
   * at most MAX_PARENTS are shown.
   */
  parentsOmitted?: number;
  /**
   * The conversation goes on above the first post shown but could not be read: an earlier post is deleted,
   * protected or unavailable (`unavailable`), or the request's upstream time ran out first (`cut_short`).
   */
  earlier?: 'unavailable' | 'cut_short';
  /** The author's own chain containing the requested post, in order (just [requested] for thread=off). */
  thread: Post[];
  /** Replies below the requested post (or below the chain's last post), already ordered and trimmed. */
  replies: ReplyNode[];
  repliesMode: RepliesOption;
  /** Provider that answered, e.g. "fxtwitter". */
  source: string;
  /** Human-readable notes, e.g. "replies unavailable from syndication". */
  warnings: string[];
  /** What `thread=N` kept of the conversation, when it had to leave posts out. */
  cut?: ThreadCut;
}

/** Of one part of a conversation: how many posts it had, and how many a cut kept. */
export interface Kept {
  kept: number;
  total: number;
}

/** A `thread=N` cut: N, the posts in all, and what was kept of the thread, the earlier posts and the replies. */
export interface ThreadCut {
  limit: number;
  total: number;
  thread: Kept;
  parents: Kept;
  replies: Kept;
}

export interface ListMeta {
  page: number;
  limit: number;
  /** Our signed cursor for the next page; absent at the end. */
  nextCursor?: string;
  /** Absolute URL of the same route with the next cursor, for the Markdown `Continue →` link. */
  continueUrl?: string;
  source: string;
  warnings: string[];
  /** The line naming what an output budget left out; Markdown puts it just above `Continue →`. */
  budgetLine?: string;
}

export interface ProfileRead extends ListMeta {
  profile: Author;
  /** Most recent original posts (no replies, no reposts). */
  posts: Post[];
  /** Set when the read was limited to a window of time. */
  window?: ReadWindow;
  /** Set when replies and/or reposts were asked for besides the original posts. */
  includes?: { replies: boolean; reposts: boolean };
}

export interface ConnectionsRead extends ListMeta {
  kind: 'followers' | 'following';
  handle: string;
  items: Author[];
}

/** A window of time a list read was limited to (ISO 8601 UTC; since inclusive, until exclusive). */
export interface ReadWindow {
  since?: string;
  until?: string;
}

export interface SearchRead extends ListMeta {
  q: string;
  feed: SearchFeed;
  window?: ReadWindow;
  items: SearchItem[];
}

/** A page of an X List's latest posts (members' posts, replies and reposts included, as X shows them). */
export interface ListPostsRead extends ListMeta {
  list: CuratedList;
  posts: Post[];
}

/** A page of the accounts an X List holds. */
export interface ListMembersRead extends ListMeta {
  list: CuratedList;
  items: Author[];
}

export interface RenderContext {
  /** Public base of this service, e.g. http://localhost:8080 (no trailing slash). */
  baseUrl: string;
  full: boolean;
}
