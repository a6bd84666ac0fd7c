// Feeds (RSS, Atom, JSON Feed) as one format-neutral model, and the pure rules that pick and group the posts
// of a feed. The serializers in render/feed/ read only FeedDoc; the routes build it.
import type { Post } from './models.ts';
import { isOwnPost, isSelfReply } from './own-posts.ts';

export const FEED_TYPES = ['rss', 'atom', 'json'] as const;
export type FeedType = (typeof FEED_TYPES)[number];

/** posts = original posts and the author's own thread continuations; media = those with photos or videos. */
export const FEED_KINDS = ['posts', 'media', 'with_replies'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

export const THREAD_MODES = ['separate', 'grouped'] as const;
export type ThreadMode = (typeof THREAD_MODES)[number];

/** At most this many accounts in one multi-account feed. */
export const MAX_FEED_HANDLES = 10;
/** Items in a merged multi-account feed (a single account's feed is one upstream page). */
export const MAX_MERGED_ITEMS = 50;

export interface FeedPerson {
  name: string;
  handle: string;
  /** The account's page on this service; absent when the upstream gave neither a valid handle nor an account id. */
  url?: string;
  avatarUrl?: string;
}

export interface FeedEnclosure {
  url: string;
  mimeType: string;
  medium: 'image' | 'video';
}

export interface FeedEntry {
  /** Stable, unique id; a URL on this service (with a fragment for reposts). */
  id: string;
  /** Whether `id` is itself the permalink. */
  idIsUrl: boolean;
  title: string;
  /** Permalink on this service. */
  url: string;
  /** Permalink on the platform. */
  platformUrl: string;
  published: string;
  /** Newest post of the entry (differs from `published` for a grouped thread). */
  updated: string;
  author: FeedPerson;
  /** Escaped, self-contained HTML of the whole entry. */
  contentHtml: string;
  categories: string[];
  enclosures: FeedEnclosure[];
}

export interface FeedDoc {
  title: string;
  description: string;
  /** The HTML page the feed is about. */
  homeUrl: string;
  /** Canonical URL of this feed (atom:link rel="self", JSON Feed feed_url, Atom id). */
  selfUrl: string;
  /** The WebSub hub that pushes this feed when it changes (rel="hub"). */
  hubUrl?: string;
  imageUrl?: string;
  authors: FeedPerson[];
  /** Newest entry time, or undefined for an empty feed. */
  updated?: string;
  /** Fresh lifetime of the cached reads behind the feed: readers need not poll more often. */
  ttlS: number;
  entries: FeedEntry[];
}

function hasPlayableMedia(p: Post): boolean {
  return p.media.length > 0;
}

/**
 * The posts of a profile timeline that belong in a feed of `kind`. Reposts appear only in with_replies;
 * replies to other people too. A self-reply continues the author's own thread, so it is the author's post.
 */
export function selectPosts(posts: Post[], kind: FeedKind): Post[] {
  if (kind === 'with_replies') return posts;
  const own = posts.filter(isOwnPost);
  return kind === 'media' ? own.filter(hasPlayableMedia) : own;
}

function time(p: Post): number {
  const t = Date.parse(p.createdAt);
  return Number.isFinite(t) ? t : 0;
}

/** Identity of a timeline entry: a repost and its original are different entries. */
export function entryKey(p: Post): string {
  return p.repostOf ? `${p.repostOf.id}@${p.author.handle.toLowerCase()}` : p.id;
}

/** Newest first, ties broken by id so the order (and so the ETag) is stable. */
export function newestFirst(posts: Post[]): Post[] {
  return [...posts].sort(
    (a, b) => time(b) - time(a) || (entryKey(a) < entryKey(b) ? 1 : entryKey(a) > entryKey(b) ? -1 : 0),
  );
}

/** Several accounts' posts as one list: duplicates dropped, newest first, at most `max`. */
export function mergePosts(lists: Post[][], max = MAX_MERGED_ITEMS): Post[] {
  const seen = new Set<string>();
  const all: Post[] = [];
  for (const p of lists.flat()) {
    const k = entryKey(p);
    if (seen.has(k)) continue;
    seen.add(k);
    all.push(p);
  }
  return newestFirst(all).slice(0, max);
}

/**
 * One group per self-thread: a self-reply joins the group of the post it answers when that post is in the
 * list; everything else is a group of one. Groups run oldest post first and are ordered by their newest post.
 */
export function groupThreads(posts: Post[]): Post[][] {
  const groups = new Map<string, Post[]>();
  const groupOf = new Map<string, Post[]>();
  for (const p of [...newestFirst(posts)].reverse()) {
    const parent = isSelfReply(p) && !p.repostOf && p.replyTo?.id ? groupOf.get(p.replyTo.id) : undefined;
    if (parent) {
      parent.push(p);
      groupOf.set(p.id, parent);
    } else {
      const g = [p];
      groups.set(entryKey(p), g);
      // A repost carries its original's id; only the author's own posts can be continued.
      if (!p.repostOf) groupOf.set(p.id, g);
    }
  }
  return [...groups.values()].sort(
    (a, b) => time(b[b.length - 1]!) - time(a[a.length - 1]!) || (entryKey(a[0]!) < entryKey(b[0]!) ? 1 : -1),
  );
}
