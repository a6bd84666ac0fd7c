// Posts → feed entries. The entry HTML is the same Markdown the other representations show, rendered by the
// page renderer (raw HTML off, http(s) links only), so a feed reader gets nothing the HTML page would not.
import type { FeedEnclosure, FeedEntry, FeedPerson } from '../../domain/feeds.ts';
import { encodePart, profilePath, statusPath } from '../../domain/links.ts';
import type { Author, Media, Post } from '../../domain/models.ts';
import { markdownDialectFor } from '../markdown/dialect.ts';
import { escapeLine, safeHref } from '../markdown/escape.ts';
import { formatTime } from '../markdown/format.ts';
import { permalinkOf, renderPostBody } from '../markdown/post.ts';
import { markdownToHtml } from '../html.ts';

export interface EntryContext {
  baseUrl: string;
  /** `author` puts `@handle: ` before each title, so a merged or thread feed says who speaks. */
  titleStyle?: 'text' | 'author';
  /** The post's place in its conversation (a thread feed's "Part 3 of 12", "Reply to @bob"), by post id. */
  places?: ReadonlyMap<string, string>;
}

const TITLE_MAX = 100;

/** This service's reading of a post. */
export function servicePermalink(baseUrl: string, p: Post): string {
  return baseUrl + statusPath(p.author.handle, p.id);
}

export function feedPerson(a: Author, baseUrl: string): FeedPerson {
  const avatar = safeHref(a.avatarUrl);
  const profile = profilePath(a.handle, a.id);
  return {
    name: a.name.replace(/\s+/g, ' ').trim() || a.handle,
    handle: a.handle,
    ...(profile ? { url: baseUrl + profile } : {}),
    ...(avatar ? { avatarUrl: avatar } : {}),
  };
}

/** Shortens at a word boundary when there is one in the last fifth. */
function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd() + '…';
}

const ONLY_URL = /^https?:\/\/\S+$/i;

/** The first line of the text that says something (a bare link is not a title), trimmed. */
function headline(p: Post): string {
  if (p.article?.title.trim()) return p.article.title.replace(/\s+/g, ' ').trim();
  for (const line of p.text.split(/\r?\n/)) {
    // Control characters count as blanks here; XML could not carry them anyway.
    const t = line.replace(/[\s\p{Cc}]+/gu, ' ').trim();
    if (t && !ONLY_URL.test(t)) return t;
  }
  if (p.media.some((m) => m.kind !== 'photo')) return 'Video';
  if (p.media.length > 0) return p.media.length > 1 ? `${p.media.length} photos` : 'Photo';
  if (p.poll) return 'Poll';
  if (p.quote) return 'Quote';
  return 'Post';
}

export function entryTitle(group: Post[], opts: { byAuthor?: boolean; place?: string } = {}): string {
  const first = group[0]!;
  if (first.repostOf) {
    return clip(
      `↻ @${first.author.handle} reposted @${first.repostOf.author.handle}: ${headline(first.repostOf)}`,
      TITLE_MAX,
    );
  }
  let t = headline(first);
  const to = first.replyTo?.handle;
  if (opts.place) t = `${opts.place}: ${t}`;
  else if (to && to.toLowerCase() !== first.author.handle.toLowerCase()) t = `Reply to @${to}: ${t}`;
  if (opts.byAuthor) t = `@${first.author.handle}: ${t}`;
  const suffix = group.length > 1 ? ` (thread, ${group.length} posts)` : '';
  return clip(t, TITLE_MAX - suffix.length) + suffix;
}

function hashtags(p: Post): string[] {
  const src = p.repostOf ?? p;
  if (src.segments.length > 0) return src.segments.flatMap((s) => (s.type === 'hashtag' ? [s.tag] : []));
  return [...src.text.matchAll(/(?:^|[^\p{L}\p{N}_&])#([\p{L}\p{N}_]+)/gu)].map((m) => m[1]!);
}

const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** Photo type from the file extension, or the `format` parameter the platform's image CDN uses. */
function imageType(u: URL): string {
  const ext = (u.searchParams.get('format') ?? /\.([a-z0-9]+)$/i.exec(u.pathname)?.[1] ?? '').toLowerCase();
  return IMAGE_TYPES[ext] ?? 'image/jpeg';
}

function enclosure(m: Media): FeedEnclosure | undefined {
  const href = safeHref(m.url);
  if (!href) return undefined;
  // Videos and GIFs are both served as mp4.
  return m.kind === 'photo'
    ? { url: href, mimeType: imageType(new URL(href)), medium: 'image' }
    : { url: href, mimeType: 'video/mp4', medium: 'video' };
}

function postHtml(p: Post, ctx: EntryContext, label?: string): string {
  const shown = p.repostOf ?? p;
  const links = `[Read on threadmark](${servicePermalink(ctx.baseUrl, shown)}) · [View on X](${permalinkOf(shown)})`;
  const parts = [label, renderPostBody(p, markdownDialectFor(ctx.baseUrl)), links].filter((x): x is string => !!x);
  return markdownToHtml(parts.join('\n\n'));
}

/** One entry for a post, or for a self-thread (oldest post first) when threads are grouped. */
export function buildEntry(group: Post[], ctx: EntryContext): FeedEntry {
  const first = group[0]!;
  const last = group[group.length - 1]!;
  const shown = first.repostOf ?? first;
  const url = servicePermalink(ctx.baseUrl, shown);
  const place = group.length === 1 && !first.repostOf ? ctx.places?.get(first.id) : undefined;
  const html =
    group.length === 1
      ? postHtml(first, ctx, place ? `*${escapeLine(place)}*` : undefined)
      : group
          .map((p, i) => postHtml(p, ctx, `*${i + 1}/${group.length} · ${escapeLine(formatTime(p.createdAt))}*`))
          .join('<hr>\n');
  const tags = new Map<string, string>();
  for (const p of group) for (const t of hashtags(p)) if (!tags.has(t.toLowerCase())) tags.set(t.toLowerCase(), t);
  const enclosures = group
    .flatMap((p) => (p.repostOf ?? p).media.map(enclosure))
    .filter((e): e is FeedEnclosure => !!e);
  return {
    // A repost shares its original's permalink; the fragment keeps the two entries apart in a merged feed.
    id: first.repostOf ? `${url}#repost-by-${encodePart(first.author.handle)}` : url,
    idIsUrl: !first.repostOf,
    title: entryTitle(group, { byAuthor: ctx.titleStyle === 'author', ...(place ? { place } : {}) }),
    url,
    platformUrl: permalinkOf(shown),
    published: first.createdAt,
    updated: last.createdAt,
    author: feedPerson(shown.author, ctx.baseUrl),
    contentHtml: html,
    categories: [...tags.values()],
    enclosures,
  };
}
