// One post as a Markdown block: heading, text, media, quote, poll, card, community note, article, permalink.
// The expanded representation only inserts lines (a metrics paragraph), so compact ⊂ full line by line.
import {
  isEarlierVersion,
  isUnavailable,
  latestVersionId,
  type Article,
  type Card,
  type Media,
  type Poll,
  type Post,
  type UnavailablePost,
} from '../../domain/models.ts';
import { encodePart, statusPath } from '../../domain/links.ts';
import { articleParts } from './article.ts';
import { plainByline } from './author.ts';
import type { Dialect, PostList } from './dialect.ts';
import { escapeLine, image, link, oneLine, safeHref } from './escape.ts';
import { count, formatDuration, formatPercent, formatTime, isoTime } from './format.ts';
import { renderSegments, renderText, segmentsOf } from './segments.ts';
import { translationPart } from './translation.ts';

export interface PostBlockOptions {
  /** Heading level of the post (2 in threads, 3 under a section). */
  level: number;
  /** Already-rendered heading text, e.g. `1/6 · 2026-01-01 00:01 UTC`. */
  heading: string;
  full: boolean;
  /** When set, the links line also points at this service's reading of the post (lists, search). */
  baseUrl?: string;
  /** Show `Replying to @x` for replies to other people (off when the parents are already shown). */
  showReplyTo: boolean;
}

/** Canonical permalink, rebuilt from handle and id when the provider's is missing or unsafe. */
export function permalinkOf(p: Post): string {
  return safeHref(p.url) ?? `https://x.com${statusPath(p.author.handle, p.id)}`;
}

function mediaLine(m: Media): string {
  if (m.kind === 'photo') return image(m.altText || 'Image', m.url);
  const label = m.kind === 'gif' ? 'GIF' : 'Video';
  const target = safeHref(m.url);
  if (!target) return `${label} (unavailable)`;
  const dur = m.durationSeconds !== undefined ? ` ${formatDuration(m.durationSeconds)}` : '';
  const thumb = safeHref(m.thumbnailUrl)
    ? `[${image(m.altText || `${label} thumbnail`, m.thumbnailUrl)}](${target}) `
    : '';
  return `${thumb}[▶ ${label}${dur}](${target})`;
}

/**
 * "Replying to @bob" for an answer to someone else (in notes, with a link to the post answered). When X left out
 * the parent's handle and kept its id, the line links the parent post instead.
 */
function replyingTo(p: Post, d: Dialect): string | undefined {
  const r = p.replyTo;
  if (!r) return undefined;
  if (r.handle) {
    if (r.handle.toLowerCase() === p.author.handle.toLowerCase()) return undefined;
    const to = `Replying to ${d.mention(r.handle, `@${r.handle}`)}`;
    return d.replyLinks && r.id ? `${to} · ${link('the post', `https://x.com${statusPath(r.handle, r.id)}`)}` : to;
  }
  return r.id ? `Replying to ${link('a post', `https://x.com${statusPath('', r.id)}`)}` : undefined;
}

function pollPart(poll: Poll, d: Dialect): string {
  const state = poll.final
    ? 'final results'
    : poll.endsAt
      ? `open until ${escapeLine(formatTime(poll.endsAt))}`
      : 'open';
  const lines = [`**Poll** · ${count(poll.totalVotes, 'vote')} · ${state}`];
  for (const c of poll.choices)
    lines.push(`- ${d.text(oneLine(c.label), true)} — ${formatPercent(c.percent)} (${count(c.votes, 'vote')})`);
  return lines.join('\n');
}

function cardPart(c: Card, d: Dialect): string {
  const title = c.title?.trim();
  const target = safeHref(c.url);
  let s = '**Card:** ' + (title ? link(title, c.url) : target ? `<${target}>` : escapeLine(c.url));
  if (c.domain) s += ` · ${d.text(oneLine(c.domain), false)}`;
  if (c.description) s += ` — ${d.text(oneLine(c.description), false)}`;
  return s;
}

export function metaLine(p: Post, d: Dialect): string {
  const m = p.metrics;
  const bits = [`Posted ${escapeLine(isoTime(p.createdAt))}`];
  // A count of quotes or reposts links the read that lists them; none to list, no link.
  const listed = (n: number, noun: string, list: PostList) => {
    const text = count(n, noun);
    return n > 0 ? link(text, d.postList(p.author.handle, p.id, list)) : text;
  };
  if (m.likes !== undefined) bits.push(count(m.likes, 'like'));
  if (m.reposts !== undefined) bits.push(listed(m.reposts, 'repost', 'reposts'));
  if (m.quotes !== undefined) bits.push(listed(m.quotes, 'quote', 'quotes'));
  if (m.replies !== undefined) bits.push(count(m.replies, 'reply', 'replies'));
  if (m.views !== undefined) bits.push(count(m.views, 'view'));
  if (m.bookmarks !== undefined) bits.push(count(m.bookmarks, 'bookmark'));
  if (p.lang) bits.push(`lang: ${escapeLine(p.lang)}`);
  if (p.source) bits.push(`via ${d.text(oneLine(p.source), false)}`);
  if (p.sensitive) bits.push('marked sensitive');
  return bits.join(' · ');
}

function unavailableQuote(q: UnavailablePost, d: Dialect): string {
  const where = q.id && /^[0-9]+$/.test(q.id) ? ` ([${q.id}](https://x.com/i/status/${q.id}))` : '';
  const why = q.message ? `: ${d.text(oneLine(q.message), false)}` : '';
  return `**Quoted post unavailable** (${d.text(q.reason, false)})${where}${why}`;
}

/**
 * An edited post names its versions and links each one; an earlier version says so first and links the latest,
 * so nobody quotes superseded text without knowing.
 */
export function editPart(p: Post): string | undefined {
  const versions = p.edits?.versions;
  if (!versions) return undefined;
  const at = (id: string) => `https://x.com${statusPath(p.author.handle, id)}`;
  const n = versions.length;
  const mine = versions.indexOf(p.id) + 1;
  const list = versions.map((id, i) => (id === p.id ? `${i + 1} (this one)` : `[${i + 1}](${at(id)})`)).join(' · ');
  if (isEarlierVersion(p)) {
    return `*Earlier version ${mine} of ${n} of an edited post; the latest is [version ${n}](${at(latestVersionId(p))}).* Versions: ${list}`;
  }
  return `*Edited: ${n} versions, this is the latest.* Versions: ${list}`;
}

function blockquote(s: string): string {
  return s
    .split('\n')
    .map((l) => (l === '' ? '>' : '> ' + l))
    .join('\n');
}

/** The Article's own page on x.com, which the post's text links to. */
function articleUrl(a: Article): string | undefined {
  return a.id ? safeHref(`https://x.com/i/article/${encodePart(a.id)}`) : undefined;
}

/**
 * The body of a post as blank-line separated parts. `depth` 1 is a quoted post: its own quote is only linked
 * and an article is reduced to its title and preview, so quotes stay short.
 */
function postBodyParts(
  p: Post,
  o: Pick<PostBlockOptions, 'level' | 'full' | 'showReplyTo'>,
  d: Dialect,
  depth = 0,
): string[] {
  const parts: string[] = [];
  if (p.repostOf) {
    parts.push(
      `↻ Reposted by ${plainByline(p.author, d)}; original by ${plainByline(p.repostOf.author, d)} · ${escapeLine(formatTime(p.repostOf.createdAt))}`,
    );
    return parts.concat(postBodyParts(p.repostOf, o, d, depth), `[Original](${permalinkOf(p.repostOf)})`);
  }
  const to = o.showReplyTo ? replyingTo(p, d) : undefined;
  if (to) parts.push(to);
  const text = renderSegments(segmentsOf(p), d);
  if (text) parts.push(text);
  if (p.translation) parts.push(translationPart(p.translation, d));
  if (p.truncated) parts.push('*(The source gave only the start of this post; open the permalink for the rest.)*');
  const edited = depth === 0 ? editPart(p) : undefined;
  if (edited) parts.push(edited);
  if (p.media.length > 0) parts.push(p.media.map(mediaLine).join('\n'));
  if (p.quote) {
    if (isUnavailable(p.quote)) parts.push(blockquote(unavailableQuote(p.quote, d)));
    else if (depth > 0) parts.push(`Quotes [a post by @${escapeLine(p.quote.author.handle)}](${permalinkOf(p.quote)})`);
    else parts.push(blockquote(quoteBlock(p.quote, o, d)));
  }
  if (p.poll) parts.push(pollPart(p.poll, d));
  if (p.card) parts.push(cardPart(p.card, d));
  if (p.communityNote) parts.push(`**Community note:** ${renderText(p.communityNote, d, false)}`);
  if (p.article) {
    if (depth > 0) {
      parts.push(
        `**Article:** ${d.text(oneLine(p.article.title), false)}` +
          (p.article.previewText ? ` — ${d.text(oneLine(p.article.previewText), false)}` : ''),
      );
    } else {
      // The post on X is the Article's link: under its title the document keeps it.
      const [title, ...body] = articleParts(p.article, Math.min(6, o.level + 1), d);
      const onX = articleUrl(p.article);
      parts.push(title!, ...(onX ? [`[Article on X](${onX})`] : []), ...body);
    }
  }
  return parts;
}

function quoteBlock(q: Post, o: Pick<PostBlockOptions, 'level' | 'full' | 'showReplyTo'>, d: Dialect): string {
  const parts = [`**Quoting ${plainByline(q.author, d)}** · ${escapeLine(formatTime(q.createdAt))}`];
  parts.push(...postBodyParts(q, { ...o, showReplyTo: false }, d, 1));
  if (o.full) parts.push(metaLine(q, d));
  parts.push(`[Permalink](${permalinkOf(q)})`);
  return parts.join('\n\n');
}

/** A whole post block, without trailing newline. */
export function renderPostBlock(p: Post, o: PostBlockOptions, d: Dialect): string {
  const parts = [`${'#'.repeat(o.level)} ${o.heading}`, ...postBodyParts(p, o, d)];
  if (o.full) parts.push(metaLine(p, d));
  let links = `[Permalink](${permalinkOf(p)})`;
  if (o.baseUrl) links += ` · [Thread](${o.baseUrl}${statusPath(p.author.handle, p.id)})`;
  parts.push(links);
  return parts.join('\n\n');
}

/** The body of a post without heading or links (feed entries add their own), as Markdown. */
export function renderPostBody(p: Post, d: Dialect, level = 2): string {
  return postBodyParts(p, { level, full: false, showReplyTo: true }, d).join('\n\n');
}

/** Compact attachments of a reply, e.g. ` · [photo](…) · quoting [@x](…)`. */
export function replyAttachments(p: Post, d: Dialect): string {
  const bits: string[] = [];
  for (const m of p.media) {
    const href = safeHref(m.url);
    const kind =
      m.kind === 'photo'
        ? 'photo'
        : m.kind === 'gif'
          ? 'GIF'
          : `video${m.durationSeconds !== undefined ? ' ' + formatDuration(m.durationSeconds) : ''}`;
    const label = m.altText ? `${kind}: ${m.altText}` : kind;
    bits.push(href ? link(label, href) : escapeLine(label));
  }
  if (p.quote)
    bits.push(
      isUnavailable(p.quote)
        ? 'quoted post unavailable'
        : `quoting ${link('@' + p.quote.author.handle, permalinkOf(p.quote))}`,
    );
  if (p.poll)
    bits.push(
      `poll: ${p.poll.choices.map((c) => `${d.text(oneLine(c.label), false)} ${formatPercent(c.percent)}`).join(', ')}`,
    );
  if (p.card) bits.push(p.card.title ? `card: ${link(p.card.title, p.card.url)}` : link('card', p.card.url));
  if (p.article) bits.push(`article: ${link(p.article.title, permalinkOf(p))}`);
  if (p.communityNote) bits.push(`community note: ${d.text(oneLine(p.communityNote), false)}`);
  return bits.length > 0 ? ' · ' + bits.join(' · ') : '';
}
