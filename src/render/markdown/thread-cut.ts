// What a `thread=N` cut kept and left out, in a reader's words: the count N is the contract's (posts in all), but
// a reader thinks in the thread's posts, the earlier posts above it and the replies below it.
import type { Kept, ThreadCut } from '../../domain/reads.ts';
import { safeHref } from './escape.ts';

interface Part {
  of: Kept;
  one: string;
  many: string;
}

const noun = (n: number, p: Part) => (n === 1 ? p.one : p.many);

function listed(items: string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '');
}

function kept(p: Part): string {
  const { kept: k, total } = p.of;
  if (k === 0) return `none of ${total} ${noun(total, p)}`;
  if (k === total) return total === 1 ? `the 1 ${p.one}` : `all ${total} ${p.many}`;
  return `${k} of ${total} ${noun(total, p)}`;
}

/** `kept 3 of 12 thread posts and none of 16 replies; left out 9 thread posts and 16 replies` */
export function cutSummary(cut: ThreadCut): string {
  const parts: Part[] = [
    { of: cut.thread, one: 'thread post', many: 'thread posts' },
    { of: cut.parents, one: 'earlier post', many: 'earlier posts' },
    { of: cut.replies, one: 'reply', many: 'replies' },
  ].filter((p) => p.of.total > 0);
  // A thread of one is the post itself.
  const keptWords = parts.map((p) => (p.of === cut.thread && p.of.total === 1 ? 'the post' : kept(p)));
  const leftOut = parts
    .filter((p) => p.of.kept < p.of.total)
    .map((p) => `${p.of.total - p.of.kept} ${noun(p.of.total - p.of.kept, p)}`);
  return `kept ${listed(keptWords)}; left out ${listed(leftOut)}`;
}

/** The warning (JSON `warnings`, X-Warnings): what was cut, and where the whole read is. */
export function cutWarning(cut: ThreadCut, fullUrl: string): string {
  return `truncated to ${cut.limit} of ${cut.total} posts (thread=${cut.limit}): ${cutSummary(cut)}; the whole read: ${fullUrl}`;
}

/** The Markdown's closing line: what was cut, and a link to the whole read. */
export function cutClosing(cut: ThreadCut, fullUrl: string): string {
  const href = safeHref(fullUrl);
  return `*Cut to ${cut.limit} of ${cut.total} posts (thread=${cut.limit}): ${cutSummary(cut)}.*${href ? ` [Read it all](${href})` : ''}`;
}
