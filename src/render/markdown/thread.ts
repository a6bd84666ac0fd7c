// The posts route's document: title, author info, parents (context), the author's numbered chain, replies.
import type { Author, Post, ReplyNode } from '../../domain/models.ts';
import type { PostRead, UserinfoOption } from '../../domain/reads.ts';
import { authorDetails, authorSummary, plainByline } from './author.ts';
import { markdownDialectFor, type Dialect } from './dialect.ts';
import { escapeLine } from './escape.ts';
import { formatTime } from './format.ts';
import { renderPostBlock } from './post.ts';
import { renderReplyList } from './replies.ts';
import { cutClosing } from './thread-cut.ts';

export interface PostDocumentOptions {
  full: boolean;
  userinfo: UserinfoOption;
  baseUrl: string;
  /** The read without its `thread=N` cut, linked from the closing line when the cut left posts out. */
  fullReadUrl?: string;
}

/**
 * `section`: parents under `## Context` as `###` posts (Markdown). `flat`: every post, parents included, gets
 * its own `## ` heading (Obsidian, where each post is a linkable heading).
 */
export type ParentsLayout = 'section' | 'flat';

function participants(read: PostRead): Author[] {
  const seen = new Map<string, Author>();
  const add = (a: Author): void => {
    const k = a.handle.toLowerCase();
    if (!seen.has(k)) seen.set(k, a);
  };
  const walk = (nodes: ReplyNode[]): void => {
    for (const n of nodes) {
      add(n.post.author);
      walk(n.children);
    }
  };
  chainOf(read).forEach((p) => add(p.author));
  read.parents.forEach((p) => add(p.author));
  walk(read.replies);
  return [...seen.values()];
}

function chainOf(read: PostRead): Post[] {
  return read.thread.length > 0 ? read.thread : [read.requested];
}

function userinfoSection(read: PostRead, opts: PostDocumentOptions, d: Dialect): string | undefined {
  if (opts.userinfo === 'off') return undefined;
  if (opts.userinfo === 'author') {
    const a = chainOf(read)[0]!.author;
    const extra = opts.full ? authorDetails(a, d) : undefined;
    // A soft continuation line, so the expanded form only adds lines.
    return `> ${authorSummary(a, d)}` + (extra ? `\n> ${extra}` : '');
  }
  const items = participants(read).map((a) => {
    const extra = opts.full ? authorDetails(a, d) : undefined;
    return `- ${authorSummary(a, d)}` + (extra ? `\n  ${extra}` : '');
  });
  return `## Participants\n\n${items.join('\n')}`;
}

const EARLIER_NOTE = {
  unavailable: '*An earlier post in this conversation is unavailable.*',
  cut_short: '*Earlier posts in this conversation were not read in time.*',
} as const;

function contextHeading(read: PostRead): string {
  const shown = read.parents.length;
  if (shown === 0) return '## Context';
  const total = shown + (read.parentsOmitted ?? 0);
  const counted = total === shown ? `${shown}` : `${shown} of ${total}`;
  return `## Context · ${counted} earlier ${total === 1 ? 'post' : 'posts'}`;
}

function omittedNote(n: number): string {
  return `*… ${n} more ${n === 1 ? 'post' : 'posts'} of the conversation left out here …*`;
}

/** The whole document in a dialect (plain Markdown or Obsidian share everything but escaping and links). */
export function renderPostDocument(
  read: PostRead,
  opts: PostDocumentOptions,
  d: Dialect,
  layout: ParentsLayout = 'section',
): string {
  const chain = chainOf(read);
  const author = chain[0]!.author;
  const n = chain.length;
  // A thread=N cut says how much of the thread is shown: 3 of 12 posts, not a 3-post thread.
  const inAll = read.cut?.thread.total ?? n;
  const counted = inAll > n ? `${n} of ${inAll}` : `${n}`;
  const parts: string[] = [
    n > 1 ? `# Thread by ${plainByline(author, d)} · ${counted} posts` : `# Post by ${plainByline(author, d)}`,
  ];
  const info = userinfoSection(read, opts, d);
  if (info) parts.push(info);
  if (read.warnings.length > 0)
    parts.push(`*Note: ${read.warnings.map((w) => d.text(w.replace(/\s+/g, ' '), false)).join(' · ')}*`);
  if (read.parents.length > 0 || read.earlier) {
    const flat = layout === 'flat';
    if (!flat) parts.push(contextHeading(read));
    if (read.earlier) parts.push(EARLIER_NOTE[read.earlier]);
    read.parents.forEach((p, i) => {
      const heading = `${flat ? 'Context · ' : ''}${plainByline(p.author, d)} · ${escapeLine(formatTime(p.createdAt))}`;
      parts.push(renderPostBlock(p, { level: flat ? 2 : 3, heading, full: opts.full, showReplyTo: false }, d));
      if (i === 0 && read.parentsOmitted) parts.push(omittedNote(read.parentsOmitted));
    });
  }
  chain.forEach((p, i) => {
    const when = escapeLine(formatTime(p.createdAt));
    const mark = n > 1 && p.id === read.requested.id && i > 0 ? ' · requested' : '';
    const heading = n > 1 ? `${i + 1}/${n} · ${when}${mark}` : when;
    parts.push(
      renderPostBlock(p, { level: 2, heading, full: opts.full, showReplyTo: i === 0 && read.parents.length === 0 }, d),
    );
  });
  if (read.replies.length > 0 && read.repliesMode !== 'off') {
    parts.push('---', `## Replies (${read.repliesMode})`, renderReplyList(read.replies, opts.full, d));
  }
  if (opts.full) parts.push(`Source: ${escapeLine(read.source)}`);
  if (read.cut && opts.fullReadUrl) parts.push(cutClosing(read.cut, opts.fullReadUrl));
  return parts.join('\n\n') + '\n';
}

/** Compact (or, with `full`, expanded) Markdown for a post, thread or conversation. */
export function renderPostMarkdown(read: PostRead, opts: PostDocumentOptions): string {
  return renderPostDocument(read, opts, markdownDialectFor(opts.baseUrl));
}
