// The thread feed use case: a conversation as it grows, read as the post route reads it (the author's chain and
// the replies below it, through the same cached conversation), flattened to one item per post, newest first,
// each with its place in the conversation.
import { newestFirst, MAX_MERGED_ITEMS } from './feeds.ts';
import type { FeedRead } from './feed-reads.ts';
import type { Post, ReplyNode } from './models.ts';
import { readPost, type PostSource } from './read-post.ts';
import type { ReadPolicy } from './sourced.ts';

export interface ThreadFeedRead extends FeedRead {
  /** The post the feed was asked for. */
  requested: Post;
  /** The first post of the author's chain (the thread the feed is named after). */
  top: Post;
  /** Each item's place in the conversation, by post id. */
  places: Map<string, string>;
  /** Shaped by a passing upstream failure: served, but not to be stored as the final word. */
  degraded: boolean;
}

/** Items in a thread feed: the newest posts of the conversation. */
export const MAX_THREAD_ITEMS = MAX_MERGED_ITEMS;

function walkReplies(nodes: ReplyNode[], parent: Post, out: Array<{ post: Post; parent: Post }>): void {
  for (const n of nodes) {
    out.push({ post: n.post, parent });
    walkReplies(n.children, n.post, out);
  }
}

export async function readThreadFeed(posts: PostSource, id: string, policy: ReadPolicy): Promise<ThreadFeedRead> {
  // Recent replies: a feed reader wants what is new, not what is liked.
  const { read, cache, settled, partial } = await readPost(
    posts,
    id,
    { thread: 'full', context: 'full', replies: 'recent', userinfo: 'off', full: false, nocache: false },
    policy,
  );
  const places = new Map<string, string>();
  const { thread } = read;
  thread.forEach((p, i) => {
    places.set(p.id, thread.length > 1 ? `Part ${i + 1} of ${thread.length} of the thread` : 'The post');
  });
  const replies: Array<{ post: Post; parent: Post }> = [];
  walkReplies(read.replies, thread[thread.length - 1] ?? read.requested, replies);
  for (const { post, parent } of replies) {
    if (places.has(post.id)) continue;
    const to = post.replyTo?.handle ?? parent.author.handle;
    const self = to.toLowerCase() === post.author.handle.toLowerCase();
    places.set(post.id, self ? `@${to} continues their reply` : `Reply to @${to}`);
  }
  const all = [...thread, ...replies.map((r) => r.post)];
  const unique = [...new Map(all.map((p) => [p.id, p])).values()];
  return {
    posts: newestFirst(unique).slice(0, MAX_THREAD_ITEMS),
    source: read.source,
    cache,
    warnings: read.warnings,
    requested: read.requested,
    top: thread[0] ?? read.requested,
    places,
    degraded: !settled || partial,
  };
}
