// Which posts are an account's own: its original posts and the continuations of its own threads (its replies to
// itself). A self-thread is one piece of writing cut into posts, so wherever an account's posts are listed its
// continuations belong with the post they continue; replies to other people and reposts do not.
import type { Post } from './models.ts';

/** A reply to the author's own post: the next part of a self-thread. */
export function isSelfReply(p: Post): boolean {
  return !!p.replyTo && p.replyTo.handle.toLowerCase() === p.author.handle.toLowerCase();
}

/** An original post or a self-thread continuation; not a repost, not a reply to someone else. */
export function isOwnPost(p: Post): boolean {
  return !p.repostOf && (!p.replyTo || isSelfReply(p));
}
