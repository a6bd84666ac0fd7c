// An X List: what the list is (name, owner, description, size), then a page of its latest posts or of its members.
import type { CuratedList } from '../../domain/models.ts';
import type { ListMembersRead, ListPostsRead, RenderContext } from '../../domain/reads.ts';
import { markdownDialectFor } from './dialect.ts';
import { escapeHeading, escapeLine, link } from './escape.ts';
import { count } from './format.ts';
import { accountItem, finish, listPostBlock, pageLine, serviceProfileUrl } from './list.ts';
import { renderText } from './segments.ts';

/** This service's page of the list (its posts) or of its members. */
export function serviceListUrl(ctx: RenderContext, id: string, members = false): string {
  return `${ctx.baseUrl}/i/lists/${encodeURIComponent(id)}${members ? '/members' : ''}`;
}

function about(l: CuratedList, ctx: RenderContext, members: boolean): string[] {
  const owner = link(`@${l.owner.handle}`, serviceProfileUrl(ctx, l.owner.handle, l.owner.id));
  const facts = [`List by ${owner}`];
  if (l.members !== undefined) facts.push(count(l.members, 'member'));
  if (ctx.full && l.subscribers !== undefined) facts.push(count(l.subscribers, 'subscriber'));
  facts.push(
    members ? `[Latest posts](${serviceListUrl(ctx, l.id)})` : `[Members](${serviceListUrl(ctx, l.id, true)})`,
    `[List on X](https://x.com/i/lists/${encodeURIComponent(l.id)})`,
  );
  const parts = [facts.join(' · ')];
  if (l.description) parts.push(renderText(l.description, markdownDialectFor(ctx.baseUrl)));
  return parts;
}

export function renderListPostsMarkdown(read: ListPostsRead, ctx: RenderContext): string {
  const parts = [`# ${escapeHeading(read.list.name)}`, ...about(read.list, ctx, false), '## Latest posts'];
  parts.push(pageLine(read, read.posts.length, 'post'));
  if (read.posts.length === 0) parts.push('No posts on this page.');
  for (const p of read.posts) parts.push(listPostBlock(p, ctx, 3, true));
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return finish(parts, read);
}

export function renderListMembersMarkdown(read: ListMembersRead, ctx: RenderContext): string {
  const parts = [`# Members of ${escapeHeading(read.list.name)}`, ...about(read.list, ctx, true)];
  parts.push(pageLine(read, read.items.length, 'account'));
  parts.push(
    read.items.length > 0 ? read.items.map((a) => accountItem(a, ctx)).join('\n') : 'No accounts on this page.',
  );
  if (ctx.full) parts.push(`Source: ${escapeLine(read.source)}`);
  return finish(parts, read);
}
