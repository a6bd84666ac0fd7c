// Following a source without polling: what a watched source is (one of the feeds' reads, named by its path on the
// service), the key every follower of the same read shares, and what counts as new since the last read. One read of
// a source serves every follower; each follower's filter then keeps its own share of the new posts.
import type { SearchFeed } from './capabilities.ts';
import { readListFeed, readProfileFeed, readSearchFeed } from './feed-reads.ts';
import type { FeedKind } from './feeds.ts';
import type { ListSource } from './lists.ts';
import type { Post } from './models.ts';
import type { PostSource } from './read-post.ts';
import { newerThan } from './since.ts';
import type { ReadPolicy } from './sourced.ts';
import { readThreadFeed } from './thread-feed.ts';

export type WatchTarget =
  | { kind: 'profile'; handle: string; feed: FeedKind }
  | { kind: 'search'; q: string; feed: SearchFeed }
  | { kind: 'list'; id: string }
  | { kind: 'thread'; id: string; handle: string };

export type SourceKind = WatchTarget['kind'];
export const SOURCE_KINDS: readonly SourceKind[] = ['profile', 'search', 'thread', 'list'];

/** The read behind a target, the same for every follower whatever its filter: one read per key per interval. */
export function sourceKeyOf(t: WatchTarget): string {
  switch (t.kind) {
    case 'profile':
      return `profile:${t.handle.toLowerCase()}:${t.feed}`;
    case 'search':
      return `search:${t.feed}:${t.q}`;
    case 'list':
      return `list:${t.id}`;
    case 'thread':
      return `thread:${t.id}`;
  }
}

export interface WatchSources {
  lists: ListSource;
  posts: PostSource;
}

/** The posts a source holds now, newest first as its feed shows them. */
export async function readWatched(sources: WatchSources, t: WatchTarget, policy: ReadPolicy): Promise<Post[]> {
  switch (t.kind) {
    case 'profile':
      return (await readProfileFeed(sources.lists, { handles: [t.handle], kind: t.feed }, policy)).posts;
    case 'search':
      return (await readSearchFeed(sources.lists, { q: t.q, feed: t.feed }, policy)).posts;
    case 'list':
      return (await readListFeed(sources.lists, { id: t.id }, policy)).posts;
    case 'thread':
      return (await readThreadFeed(sources.posts, t.id, policy)).posts;
  }
}

/** The newest id of a read, the mark the next read is compared with. */
export function newestId(posts: Post[]): string | undefined {
  return newerThan(posts, '0', (p) => p.id)[0]?.id;
}

/**
 * What is new since the last read: posts newer than its mark, oldest first (the order a follower should see them).
 * The first read of a source only sets the mark: what was there before anyone followed is not news.
 */
export function newSince(posts: Post[], mark: string | undefined): Post[] {
  if (mark === undefined) return [];
  return newerThan(posts, mark, (p) => p.id).reverse();
}
