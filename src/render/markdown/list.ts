// Pieces shared by the list documents (profile, connections, search): page line, notes, Continue link.
import type { Author, Post } from '../../domain/models.ts';
import type { ListMeta, ReadWindow, RenderContext } from '../../domain/reads.ts';
import { authorDetails, bioLine, plainByline } from './author.ts';
import { markdownDialectFor } from './dialect.ts';
import { profilePath } from '../../domain/links.ts';
import { codeSpan, escapeLine, link, safeHref } from './escape.ts';
import { formatTime } from './format.ts';
import { renderPostBlock } from './post.ts';

/** `Page 2 · 3 results` plus provider notes. */
/** The window a list read was limited to, for its heading: ` · from … to …` (until is exclusive). */
export function windowLabel(w: ReadWindow | undefined): string {
  if (!w || (!w.since && !w.until)) return '';
  const at = (iso: string) => escapeLine(/:00\.000Z$/.test(iso) ? formatTime(iso) : iso);
  if (w.since && w.until) return ` · from ${at(w.since)} to before ${at(w.until)}`;
  return w.since ? ` · since ${at(w.since)}` : ` · before ${at(w.until!)}`;
}

export function pageLine(meta: ListMeta, n: number, noun: string): string {
  const line = `Page ${meta.page} · ${n} ${noun}${n === 1 ? '' : 's'}`;
  return meta.warnings.length > 0 ? `${line} · *Note: ${meta.warnings.map((w) => escapeLine(w)).join(' · ')}*` : line;
}

/**
 * The last line of every list document while there is a next page. Should the route not have built a URL,
 * the cursor itself is shown so the reader can still page.
 */
export function continueLine(meta: ListMeta): string | undefined {
  if (!meta.nextCursor) return undefined;
  const href = safeHref(meta.continueUrl);
  return href ? `[Continue →](${href})` : `Continue → pass cursor=${codeSpan(meta.nextCursor)}`;
}

/** This service's page for an account, or undefined when the upstream gave neither a handle nor an id. */
export function serviceProfileUrl(ctx: RenderContext, handle: string, id?: string): string | undefined {
  const path = profilePath(handle, id);
  return path === undefined ? undefined : ctx.baseUrl + path;
}

/** One account as a list item: name, handle linked here, one-line bio; counts and details when expanded. */
export function accountItem(a: Author, ctx: RenderContext): string {
  const bits = [
    `**${escapeLine(a.name) || escapeLine(a.handle)}** (${link('@' + a.handle, serviceProfileUrl(ctx, a.handle, a.id))})`,
  ];
  const md = markdownDialectFor(ctx.baseUrl);
  const bio = bioLine(a, md, 160);
  let line = `- ${bits[0]}${bio ? ' — ' + bio : ''}`;
  if (ctx.full) {
    const counts = [a.followers !== undefined ? `${a.followers} followers` : '', authorDetails(a, md) ?? '']
      .filter(Boolean)
      .join(' · ');
    if (counts) line += `\n  ${counts}`;
  }
  return line;
}

/** A post in a list: heading with time (and author unless the page is the author's), the usual block, and a link to read it here. */
export function listPostBlock(p: Post, ctx: RenderContext, level: number, withAuthor: boolean): string {
  const when = escapeLine(formatTime(p.createdAt));
  const md = markdownDialectFor(ctx.baseUrl);
  return renderPostBlock(
    p,
    {
      level,
      heading: withAuthor ? `${plainByline(p.author, md)} · ${when}` : when,
      full: ctx.full,
      baseUrl: ctx.baseUrl,
      showReplyTo: true,
    },
    md,
  );
}

/** Join document parts and end with the Continue link (or nothing) as the very last line. */
export function finish(parts: string[], meta: ListMeta): string {
  if (meta.budgetLine) parts.push(meta.budgetLine);
  const cont = continueLine(meta);
  if (cont) parts.push(cont);
  return parts.join('\n\n') + '\n';
}
