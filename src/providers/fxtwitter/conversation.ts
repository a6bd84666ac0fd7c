// How FxTwitter's conversation answers divide into ancestors, the author's own continuation and other replies:
// pure functions of parsed posts.
import type { Post } from '../../domain/models.ts';

/**
 * FxTwitter's `thread` is the reply chain down to the focal post plus the author's own follow-ups.
 * Posts before the focal one are its ancestors; posts after it count as continuations only when written
 * by the same author. When the focal post is missing from the list, snowflake order decides.
 */
export function splitThread(post: Post, thread: Post[]): { ancestors: Post[]; continuations: Post[] } {
  const at = thread.findIndex((p) => p.id === post.id);
  const before = at >= 0 ? thread.slice(0, at) : thread.filter((p) => compareIds(p.id, post.id) < 0);
  const after = at >= 0 ? thread.slice(at + 1) : thread.filter((p) => compareIds(p.id, post.id) > 0);
  return {
    ancestors: before,
    continuations: after.filter((p) => sameAuthor(p, post)),
  };
}

const sameAuthor = (a: Post, b: Post) =>
  a.author.id === b.author.id || a.author.handle.toLowerCase() === b.author.handle.toLowerCase();

/**
 * Extends `continuations` (in place) with the author's self-replies found among `replies`, following
 * the chain from the last known post and taking the earliest self-reply at each step. Returns the
 * replies that are not part of that chain.
 */
export function takeContinuations(post: Post, continuations: Post[], replies: Post[]): Post[] {
  const rest = [...replies];
  let last = continuations[continuations.length - 1] ?? post;
  for (;;) {
    const next = rest
      .filter((r) => r.replyTo?.id === last.id && sameAuthor(r, post))
      .sort((a, b) => compareIds(a.id, b.id))[0];
    if (!next) return rest;
    continuations.push(next);
    rest.splice(rest.indexOf(next), 1);
    last = next;
  }
}

function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
