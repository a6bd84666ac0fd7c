// Turns a PostRead into the negotiated representation plus the posts route's 200 headers.
import { encodePart, statusPath } from '../../domain/links.ts';
import type { PostRead, PostReadOptions } from '../../domain/reads.ts';
import { postCount } from '../../domain/read-post.ts';
import { isEarlierVersion, latestVersionId, type Post } from '../../domain/models.ts';
import type { CacheStatus } from '../../domain/sourced.ts';
import { renderPostMarkdown } from '../../render/markdown/thread.ts';
import { cutWarning } from '../../render/markdown/thread-cut.ts';
import { renderPostObsidian } from '../../render/obsidian.ts';
import { postJson } from '../../render/json.ts';
import { renderHtmlPage } from '../../render/html.ts';
import { postPreview } from '../../render/link-preview.ts';
import { CONTENT_TYPES, type Representation } from '../../contract/representation.ts';
import type { Rendered } from '../../contract/rendered.ts';
import { budgetWarning, headerSafe, publicCacheControl, type BudgetRequest } from './common.ts';
import { appendClosing, fitBudget } from '../../render/budget.ts';
import { postGiveWay } from '../../domain/give-way.ts';
import { Problem } from '../../problems/problem.ts';
import type { FrontMatterOptions } from '../../render/note-template.ts';

/**
 * The document of the representation; under a budget, the read cut down to what fits (the budget bounds the
 * Obsidian note when that is asked for, the Markdown otherwise) and the warning naming what was left out.
 */
function documentOf(
  read: PostRead,
  rep: Representation,
  mdOpts: Parameters<typeof renderPostMarkdown>[1],
  budget?: BudgetRequest,
  note?: FrontMatterOptions,
) {
  const render =
    rep === 'obsidian'
      ? (r: PostRead) => renderPostObsidian(r, mdOpts, undefined, note)
      : (r: PostRead) => renderPostMarkdown(r, mdOpts);
  if (!budget) return { shown: read, text: render(read), warnings: read.warnings };
  const fitted = fitBudget(
    postGiveWay(read),
    (r, closing) => appendClosing(render(r), closing),
    budget.chars,
    budget.fullUrl,
  );
  if (!fitted.fits) {
    throw new Problem(
      'invalid_budget',
      `The requested post alone takes ${fitted.needed} characters; ask for a budget of at least ${fitted.needed}.`,
    );
  }
  const warnings = fitted.leftOut.length
    ? [...read.warnings, budgetWarning(budget.chars, fitted.leftOut)]
    : read.warnings;
  return { shown: fitted.read, text: fitted.markdown, warnings };
}

/** RFC 5829 version relations for an edited post: where the latest and the previous versions are read here. */
function versionLinks(p: Post, baseUrl: string): { link?: string } {
  const versions = p.edits?.versions;
  if (!versions) return {};
  const at = (id: string) => `<${baseUrl}${statusPath(p.author.handle, id)}>`;
  const links: string[] = [];
  if (isEarlierVersion(p)) links.push(`${at(latestVersionId(p))}; rel="latest-version"`);
  const i = versions.indexOf(p.id);
  if (i > 0) links.push(`${at(versions[i - 1]!)}; rel="predecessor-version"`);
  return links.length ? { link: links.join(', ') } : {};
}

/**
 * The read a `thread=N` cut was taken from: the same post and options without `thread` (whose default is the
 * whole read). Built from the options rather than the request URL, so renders stay shareable.
 */
function fullReadUrl(p: Post, opts: PostReadOptions, baseUrl: string): string {
  const q = new URLSearchParams();
  if (opts.context !== 'full') q.set('context', opts.context);
  if (opts.replies !== 'top') q.set('replies', opts.replies);
  if (opts.userinfo !== 'off') q.set('userinfo', opts.userinfo);
  if (opts.full) q.set('full', 'true');
  const query = q.toString();
  return `${baseUrl}${statusPath(p.author.handle, p.id)}${query ? `?${query}` : ''}`;
}

export function presentPost(
  whole: PostRead,
  opts: PostReadOptions,
  rep: Representation,
  ctx: {
    baseUrl: string;
    cache: CacheStatus;
    cacheTtlS: number;
    version: string;
    budget?: BudgetRequest;
    /** Front matter added to the Obsidian note. */
    note?: FrontMatterOptions;
    /** Rewrites the HTML page's media URLs (the media proxy). */
    links?: (text: string) => string;
  },
): Rendered {
  const fullUrl = whole.cut ? fullReadUrl(whole.requested, opts, ctx.baseUrl) : undefined;
  const full =
    whole.cut && fullUrl ? { ...whole, warnings: [...whole.warnings, cutWarning(whole.cut, fullUrl)] } : whole;
  const mdOpts = { full: opts.full, userinfo: opts.userinfo, baseUrl: ctx.baseUrl, fullReadUrl: fullUrl };
  const { shown, text, warnings } = documentOf(full, rep, mdOpts, ctx.budget, ctx.note);
  const read = { ...shown, warnings };
  const markdown = text;
  const p = read.requested;
  const permalink = ctx.baseUrl + statusPath(p.author.handle, p.id);
  let body: string;
  switch (rep) {
    case 'obsidian':
      body = text;
      break;
    case 'json':
      body = JSON.stringify(postJson(read, markdown));
      break;
    case 'html':
      body = (ctx.links ?? ((t: string) => t))(
        renderHtmlPage(markdown, {
          title: `${p.author.name} (@${p.author.handle}) on X`,
          baseUrl: ctx.baseUrl,
          canonicalUrl: permalink,
          oembedUrl: `${ctx.baseUrl}/oembed?url=${encodePart(permalink)}`,
          preview: postPreview(p, permalink),
        }),
      );
      break;
    default:
      body = markdown;
  }
  return {
    body,
    contentType: CONTENT_TYPES[rep],
    headers: {
      ...versionLinks(p, ctx.baseUrl),
      vary: 'Accept',
      'cache-control': publicCacheControl(ctx.cacheTtlS, ctx.cache),
      'x-source': read.source,
      'x-cache': ctx.cache,
      'x-converter': `threadmark/${ctx.version} ${rep}${opts.full ? '+full' : ''}`,
      'x-post-count': String(postCount(read)),
      'x-warnings': read.warnings.length ? headerSafe(read.warnings.join('; ')) : 'none',
    },
  };
}
