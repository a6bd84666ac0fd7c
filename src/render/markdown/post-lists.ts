// The lists hanging off a post (its quotes, its reposters) and a profile's media tab: what the list is about,
// then one page of it. The quoted post is the page's subject, so each quote is shown without it.
import type { Post } from '../../domain/models.ts';
import type { ProfileTabRead, QuotesRead, RepostsRead } from '../../domain/post-lists.ts';
import type { RenderContext } from '../../domain/reads.ts';
import { statusPath } from '../../domain/links.ts';
import { plainByline } from './author.ts';
import { markdownDialect as md, xProfileUrl } from './dialect.ts';
import { escapeLine, link } from './escape.ts';
import { formatTime, truncate } from './format.ts';
import { accountItem, finish, listPostBlock, pageLine, serviceProfileUrl } from './list.ts';

/** One line naming the post a list hangs off, linked to its page here. */
function subjectLine(p: Post, ctx: RenderContext): string {
  const text = truncate(p.text.replace(/\s+/g, ' ').trim(), 140);
  const when = escapeLine(formatTime(p.createdAt));
  const read = link('Read the post', ctx.baseUrl + statusPath(p.author.handle, p.id));
  return `Post by ${plainByline(p.author, md)} · ${when}${text ? ` — ${escapeLine(text)}` : ''} · ${read}`;
}

export function renderQuotesMarkdown(read: QuotesRead, ctx: RenderContext): string {
  const parts = [`# Quotes of @${escapeLine(read.post.author.handle)}'s post`, subjectLine(read.post, ctx)];
  parts.push(pageLine(read, read.posts.length, 'quote'));
  if (read.posts.length === 0) parts.push('No quotes on this page.');
  for (const p of read.posts) parts.push(listPostBlock({ ...p, quote: undefined }, ctx, 2, true));
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return finish(parts, read);
}

export function renderRepostsMarkdown(read: RepostsRead, ctx: RenderContext): string {
  const parts = [`# Reposts of @${escapeLine(read.post.author.handle)}'s post`, subjectLine(read.post, ctx)];
  parts.push(pageLine(read, read.items.length, 'account'));
  parts.push(
    read.items.length > 0 ? read.items.map((a) => accountItem(a, ctx)).join('\n') : 'No accounts on this page.',
  );
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return finish(parts, read);
}

const TAB_WORDS = {
  media: { title: 'Media', onX: 'Media on X', noun: 'post', none: 'No posts with photos or videos on this page.' },
  articles: { title: 'Articles', onX: 'Articles on X', noun: 'article', none: 'No Articles on this page.' },
} as const;

/** A profile tab; each article is rendered whole, as on its own post page. */
export function renderProfileTabMarkdown(read: ProfileTabRead, ctx: RenderContext): string {
  const a = read.profile;
  const w = TAB_WORDS[read.tab];
  const parts = [`# ${w.title} of ${plainByline(a, md)}`];
  const onX = xProfileUrl(a.handle);
  const here = serviceProfileUrl(ctx, a.handle, a.id);
  const links = [here ? link('Profile', here) : '', onX ? `[${w.onX}](${onX}/${read.tab})` : ''].filter(Boolean);
  if (links.length) parts.push(links.join(' · '));
  parts.push(pageLine(read, read.posts.length, w.noun));
  if (read.posts.length === 0) parts.push(w.none);
  for (const p of read.posts) parts.push(listPostBlock(p, ctx, 2, false));
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return finish(parts, read);
}
