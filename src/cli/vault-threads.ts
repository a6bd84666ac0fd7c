// Gathers an export's posts into the author's self-threads for the vault. The export hands posts out newest first,
// so a thread's continuations arrive before the post they continue: they wait, keyed by the id of the post they
// answer, until that post arrives (the thread is then whole) or the export ends (the thread's earlier posts lie
// outside what was exported, and the note holds what was).
import type { Post } from '../domain/models.ts';
import { isSelfReply } from '../domain/own-posts.ts';

/** The post a self-thread continuation continues; undefined for a post that starts a thread of its own. */
function continues(p: Post): string | undefined {
  return !p.repostOf && isSelfReply(p) ? p.replyTo?.id : undefined;
}

const oldestFirst = (a: Post, b: Post) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1);

export class ThreadGatherer {
  /** Later posts of a thread, oldest first, waiting for the post they continue (keyed by its id). */
  private readonly waiting = new Map<string, Post[]>();

  /** Takes the next post of the export (newest first); answers the threads it completes, each oldest post first. */
  add(post: Post): Post[][] {
    const later = post.repostOf ? undefined : this.waiting.get(post.id);
    if (later) this.waiting.delete(post.id);
    const group = [post, ...(later ?? [])];
    const parent = continues(post);
    if (parent === undefined) return [group];
    // A thread that branches (two continuations of one post) is still one thread.
    const sibling = this.waiting.get(parent);
    this.waiting.set(parent, sibling ? [...sibling, ...group].sort(oldestFirst) : group);
    return [];
  }

  /** The threads still waiting when the export ends, oldest post first; afterwards nothing waits. */
  drain(): Post[][] {
    const rest = [...this.waiting.values()];
    this.waiting.clear();
    return rest;
  }
}
