// JSON envelopes: the rendered Markdown next to the structured data it was made from. Absent values stay
// absent (JSON.stringify drops undefined); no nulls are introduced here.
import type { Author, CuratedList, Post, ReplyNode } from '../domain/models.ts';
import type {
  ConnectionsRead,
  ListMembersRead,
  ListMeta,
  ListPostsRead,
  PostRead,
  ProfileRead,
  ReadWindow,
  SearchRead,
} from '../domain/reads.ts';
import type { SearchFeed, SearchItem } from '../domain/capabilities.ts';
import type { ProfileTab, ProfileTabRead, QuotesRead, RepostsRead } from '../domain/post-lists.ts';
import type { AboutFact, AboutRead, AccountFacts } from '../domain/about.ts';

export interface PostJson {
  markdown: string;
  post: Post;
  thread: Post[];
  conversation: {
    parents: Post[];
    /** Ancestors left out between `parents[0]` (the conversation's first post) and `parents[1]`. */
    parentsOmitted?: number;
    /** The conversation continues above the first post shown but could not be read. */
    earlier?: 'unavailable' | 'cut_short';
    replies: ReplyNode[];
  };
  source: string;
  warnings: string[];
}

interface ListEnvelope {
  markdown: string;
  nextCursor?: string;
  page: number;
  limit: number;
  source: string;
  warnings: string[];
}

export interface ProfileJson extends ListEnvelope {
  profile: Author;
  window?: ReadWindow;
  includes?: { replies: boolean; reposts: boolean };
  posts: Post[];
}

export interface ConnectionsJson extends ListEnvelope {
  kind: 'followers' | 'following';
  handle: string;
  items: Author[];
}

export interface SearchJson extends ListEnvelope {
  q: string;
  feed: SearchFeed;
  window?: ReadWindow;
  items: SearchItem[];
}

export interface ListPostsJson extends ListEnvelope {
  list: CuratedList;
  posts: Post[];
}

export interface ListMembersJson extends ListEnvelope {
  list: CuratedList;
  items: Author[];
}

export function postJson(read: PostRead, markdown: string): PostJson {
  return {
    markdown,
    post: read.requested,
    thread: read.thread,
    conversation: {
      parents: read.parents,
      ...(read.parentsOmitted ? { parentsOmitted: read.parentsOmitted } : {}),
      ...(read.earlier ? { earlier: read.earlier } : {}),
      replies: read.replies,
    },
    source: read.source,
    warnings: read.warnings,
  };
}

/** Pagination and provenance members, after the resource-specific ones (key order is for readers only). */
function paging(read: ListMeta): Omit<ListEnvelope, 'markdown'> {
  return {
    ...(read.nextCursor ? { nextCursor: read.nextCursor } : {}),
    page: read.page,
    limit: read.limit,
    source: read.source,
    warnings: read.warnings,
  };
}

export function profileJson(read: ProfileRead, markdown: string): ProfileJson {
  return {
    markdown,
    profile: read.profile,
    ...(read.window ? { window: read.window } : {}),
    ...(read.includes ? { includes: read.includes } : {}),
    posts: read.posts,
    ...paging(read),
  };
}

export function connectionsJson(read: ConnectionsRead, markdown: string): ConnectionsJson {
  return { markdown, kind: read.kind, handle: read.handle, items: read.items, ...paging(read) };
}

export function searchJson(read: SearchRead, markdown: string): SearchJson {
  return {
    markdown,
    q: read.q,
    feed: read.feed,
    ...(read.window ? { window: read.window } : {}),
    items: read.items,
    ...paging(read),
  };
}

export function listPostsJson(read: ListPostsRead, markdown: string): ListPostsJson {
  return { markdown, list: read.list, posts: read.posts, ...paging(read) };
}

export function listMembersJson(read: ListMembersRead, markdown: string): ListMembersJson {
  return { markdown, list: read.list, items: read.items, ...paging(read) };
}

export interface QuotesJson extends ListEnvelope {
  post: Post;
  posts: Post[];
}

export interface RepostsJson extends ListEnvelope {
  post: Post;
  items: Author[];
}

export interface ProfileTabJson extends ListEnvelope {
  tab: ProfileTab;
  profile: Author;
  posts: Post[];
}

export function quotesJson(read: QuotesRead, markdown: string): QuotesJson {
  return { markdown, post: read.post, posts: read.posts, ...paging(read) };
}

export function repostsJson(read: RepostsRead, markdown: string): RepostsJson {
  return { markdown, post: read.post, items: read.items, ...paging(read) };
}

export function profileTabJson(read: ProfileTabRead, markdown: string): ProfileTabJson {
  return { markdown, tab: read.tab, profile: read.profile, posts: read.posts, ...paging(read) };
}

export interface AboutJson {
  markdown: string;
  facts: AccountFacts;
  unknown: AboutFact[];
  source: string;
  warnings: string[];
}

export function aboutJson(read: AboutRead, markdown: string): AboutJson {
  return { markdown, facts: read.facts, unknown: read.unknown, source: read.source, warnings: read.warnings };
}
