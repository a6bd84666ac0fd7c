// Output budgets: what gives way, in order, when a read must fit a number of characters. A post read gives up
// its lowest-ranked replies first (the last in rank order, so a reply never outlives the one it answers), then
// the remaining replies, then its oldest ancestors (other authors' posts above, then the author's own earlier
// posts), then the author's later posts from the end; never the requested post. A list gives up trailing items.
import type { PostRead } from './reads.ts';
import { countReplies, takeReplies } from './read-post.ts';

export interface GiveWay<R> {
  /** How many things can give way. */
  units: number;
  /** The read with the first `k` of them left out, and what that left out in words ("3 replies"). */
  drop(k: number): { read: R; leftOut: string[] };
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function postGiveWay(read: PostRead): GiveWay<PostRead> {
  const replies = countReplies(read.replies);
  const idx = Math.max(
    0,
    read.thread.findIndex((p) => p.id === read.requested.id),
  );
  const earlierOwn = read.thread.length > 0 ? idx : 0;
  const ancestors = read.parents.length + earlierOwn;
  const later = read.thread.length > 0 ? read.thread.length - idx - 1 : 0;
  return {
    units: replies + ancestors + later,
    drop(k) {
      const goneReplies = Math.min(k, replies);
      const goneAncestors = Math.min(Math.max(0, k - replies), ancestors);
      const goneLater = Math.min(Math.max(0, k - replies - ancestors), later);
      const goneParents = Math.min(goneAncestors, read.parents.length);
      const goneOwn = goneAncestors - goneParents;
      const thread = read.thread.length > 0 ? read.thread.slice(goneOwn, read.thread.length - goneLater) : read.thread;
      const leftOut = [
        goneReplies ? plural(goneReplies, 'reply', 'replies') : '',
        goneAncestors ? plural(goneAncestors, 'earlier post', 'earlier posts') : '',
        goneLater ? plural(goneLater, 'later post', 'later posts') : '',
      ].filter(Boolean);
      return {
        read: {
          ...read,
          replies: takeReplies(read.replies, { left: replies - goneReplies }),
          parents: read.parents.slice(goneParents),
          // The gap it counts sits below parents[0]; once the root gives way it no longer sits between shown posts.
          ...(goneParents > 0 ? { parentsOmitted: undefined } : {}),
          thread,
        },
        leftOut,
      };
    },
  };
}

/** A page of a list: trailing items give way. */
export function listGiveWay<R>(count: number, noun: [string, string], keep: (n: number) => R): GiveWay<R> {
  return {
    units: count,
    drop: (k) => ({ read: keep(count - k), leftOut: k ? [plural(k, noun[0], noun[1])] : [] }),
  };
}
