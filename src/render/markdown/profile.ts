// A profile: who it is, then its most recent original posts as post blocks.
import type { ProfileRead, RenderContext } from '../../domain/reads.ts';
import { authorDetails, plainByline } from './author.ts';
import { markdownDialectFor, xProfileUrl } from './dialect.ts';
import { escapeLine, urlLink } from './escape.ts';
import { count, formatDate } from './format.ts';
import { finish, listPostBlock, pageLine, windowLabel } from './list.ts';
import { renderSegments, renderText } from './segments.ts';

/** The account's other reads here, in X's tab order: who follows it and whom it follows, then its tabs. */
const TABS = [
  ['Followers', 'followers'],
  ['Following', 'following'],
  ['Media', 'media'],
  ['Articles', 'articles'],
  ['About', 'about'],
] as const;

export function renderProfileMarkdown(read: ProfileRead, ctx: RenderContext): string {
  const a = read.profile;
  const md = markdownDialectFor(ctx.baseUrl);
  const parts = [`# ${plainByline(a, md)}`];
  const bio =
    a.bioSegments && a.bioSegments.length > 0 ? renderSegments(a.bioSegments, md) : a.bio ? renderText(a.bio, md) : '';
  if (bio) parts.push(bio);
  const facts: string[] = [];
  if (a.location) facts.push(`Location: ${escapeLine(a.location)}`);
  if (a.website) facts.push(`Website: ${urlLink(a.website)}`);
  if (a.joined) facts.push(`Joined ${formatDate(a.joined)}`);
  if (a.followers !== undefined) facts.push(count(a.followers, 'follower'));
  if (a.following !== undefined) facts.push(`${a.following} following`);
  if (facts.length > 0) parts.push(facts.join(' · '));
  if (ctx.full) {
    const more = authorDetails(
      { ...a, following: undefined, joined: undefined, location: undefined, website: undefined },
      md,
    );
    if (more) parts.push(more);
  }
  // Follower lists and tabs are read by handle: an account whose upstream handle is not one gets no links at all.
  const onX = xProfileUrl(a.handle);
  if (onX) {
    const here = `${ctx.baseUrl}/${a.handle}`;
    const tabs = TABS.map(([label, tab]) => `[${label}](${here}/${tab})`).join(' · ');
    parts.push(`[Profile on X](${onX}) · ${tabs}`);
  }
  const kinds = ['posts', read.includes?.replies ? 'replies' : '', read.includes?.reposts ? 'reposts' : ''].filter(
    Boolean,
  );
  const what = kinds.length === 1 ? 'posts' : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)}`;
  parts.push(
    read.window ? `## ${what[0]!.toUpperCase()}${what.slice(1)}${windowLabel(read.window)}` : `## Recent ${what}`,
    pageLine(read, read.posts.length, 'post'),
  );
  if (read.posts.length === 0) parts.push('No original posts on this page.');
  for (const p of read.posts) parts.push(listPostBlock(p, ctx, 3, false));
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return finish(parts, read);
}
