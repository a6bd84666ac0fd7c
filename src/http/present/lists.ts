// List representations and the browse routes' 200 headers.
import { encodePart } from '../../domain/links.ts';
import { isHandle } from '../../domain/handles.ts';
import type {
  ConnectionsRead,
  ListMembersRead,
  ListPostsRead,
  ProfileRead,
  SearchRead,
  RenderContext,
} from '../../domain/reads.ts';
import type { CacheStatus } from '../../domain/sourced.ts';
import type { ProfileTabRead, QuotesRead, RepostsRead } from '../../domain/post-lists.ts';
import { statusPath } from '../../domain/links.ts';
import type { ListResource as BrowseResource } from '../../domain/lists.ts';
import type { Rendered } from '../../contract/rendered.ts';
import { CONTENT_TYPES, type Representation } from '../../contract/representation.ts';
import { renderProfileMarkdown } from '../../render/markdown/profile.ts';
import { renderConnectionsMarkdown } from '../../render/markdown/connections.ts';
import { renderSearchMarkdown } from '../../render/markdown/search.ts';
import { renderRecoveryMarkdown } from '../../render/markdown/recovery.ts';
import { renderListMembersMarkdown, renderListPostsMarkdown } from '../../render/markdown/curated-list.ts';
import {
  connectionsJson,
  listMembersJson,
  listPostsJson,
  profileTabJson,
  profileJson,
  quotesJson,
  repostsJson,
  searchJson,
} from '../../render/json.ts';
import {
  renderProfileTabMarkdown,
  renderQuotesMarkdown,
  renderRepostsMarkdown,
} from '../../render/markdown/post-lists.ts';
import { renderHtmlPage, type HtmlPageOptions } from '../../render/html.ts';
import { profilePreview } from '../../render/link-preview.ts';
import { budgetWarning, headerSafe, publicCacheControl, type BudgetRequest } from './common.ts';
import { fitBudget } from '../../render/budget.ts';
import { listGiveWay } from '../../domain/give-way.ts';
import { Problem } from '../../problems/problem.ts';
import { docsUrlFor } from '../failures/problem-reply.ts';

export type ListRead =
  | { resource: 'profile'; read: ProfileRead }
  | { resource: 'followers' | 'following'; read: ConnectionsRead }
  | { resource: 'search'; read: SearchRead }
  | { resource: 'list'; read: ListPostsRead }
  | { resource: 'list-members'; read: ListMembersRead }
  | { resource: 'quotes'; read: QuotesRead }
  | { resource: 'reposts'; read: RepostsRead }
  | { resource: 'media' | 'articles'; read: ProfileTabRead };

export interface ListPresentContext {
  baseUrl: string;
  full: boolean;
  cache: CacheStatus;
  cacheTtlS: number;
  keyStatus: string;
  keyed: boolean;
  title: string;
  budget?: BudgetRequest;
}

function markdownOf(l: ListRead, ctx: RenderContext): string {
  switch (l.resource) {
    case 'profile':
      return renderProfileMarkdown(l.read, ctx);
    case 'search':
      return renderSearchMarkdown(l.read, ctx);
    case 'list':
      return renderListPostsMarkdown(l.read, ctx);
    case 'list-members':
      return renderListMembersMarkdown(l.read, ctx);
    case 'quotes':
      return renderQuotesMarkdown(l.read, ctx);
    case 'reposts':
      return renderRepostsMarkdown(l.read, ctx);
    case 'media':
    case 'articles':
      return renderProfileTabMarkdown(l.read, ctx);
    default:
      return renderConnectionsMarkdown(l.read, ctx);
  }
}

function jsonOf(l: ListRead, markdown: string): unknown {
  switch (l.resource) {
    case 'profile':
      return profileJson(l.read, markdown);
    case 'search':
      return searchJson(l.read, markdown);
    case 'list':
      return listPostsJson(l.read, markdown);
    case 'list-members':
      return listMembersJson(l.read, markdown);
    case 'quotes':
      return quotesJson(l.read, markdown);
    case 'reposts':
      return repostsJson(l.read, markdown);
    case 'media':
    case 'articles':
      return profileTabJson(l.read, markdown);
    default:
      return connectionsJson(l.read, markdown);
  }
}

function resultCount(l: ListRead): number {
  return 'posts' in l.read ? l.read.posts.length : l.read.items.length;
}

/** The first `n` posts or items of the page. */
function firstOf(l: ListRead, n: number): ListRead {
  switch (l.resource) {
    case 'profile':
      return { ...l, read: { ...l.read, posts: l.read.posts.slice(0, n) } };
    case 'list':
      return { ...l, read: { ...l.read, posts: l.read.posts.slice(0, n) } };
    case 'quotes':
      return { ...l, read: { ...l.read, posts: l.read.posts.slice(0, n) } };
    case 'media':
    case 'articles':
      return { ...l, read: { ...l.read, posts: l.read.posts.slice(0, n) } };
    case 'list-members':
      return { ...l, read: { ...l.read, items: l.read.items.slice(0, n) } };
    case 'reposts':
      return { ...l, read: { ...l.read, items: l.read.items.slice(0, n) } };
    case 'search':
      return { ...l, read: { ...l.read, items: l.read.items.slice(0, n) } };
    default:
      return { ...l, read: { ...l.read, items: l.read.items.slice(0, n) } };
  }
}

const NOUNS: Record<ListRead['resource'], [string, string]> = {
  profile: ['post', 'posts'],
  followers: ['account', 'accounts'],
  following: ['account', 'accounts'],
  search: ['result', 'results'],
  list: ['post', 'posts'],
  'list-members': ['account', 'accounts'],
  quotes: ['quote', 'quotes'],
  reposts: ['account', 'accounts'],
  media: ['post', 'posts'],
  articles: ['article', 'articles'],
};

/** The page as a document; under a budget, cut to the leading items that fit, with the warning naming the rest. */
function documentOf(l: ListRead, rctx: RenderContext, budget?: BudgetRequest): { shown: ListRead; markdown: string } {
  if (!budget) return { shown: l, markdown: markdownOf(l, rctx) };
  const render = (r: ListRead, budgetLine?: string) =>
    markdownOf({ ...r, read: { ...r.read, budgetLine } } as ListRead, rctx);
  const fitted = fitBudget(
    listGiveWay(resultCount(l), NOUNS[l.resource], (n) => firstOf(l, n)),
    render,
    budget.chars,
    budget.fullUrl,
  );
  if (!fitted.fits) {
    throw new Problem(
      'invalid_budget',
      `The page without any of its items takes ${fitted.needed} characters; ask for a budget of at least ${fitted.needed}.`,
    );
  }
  if (!fitted.leftOut.length) return { shown: l, markdown: fitted.markdown };
  const warnings = [...l.read.warnings, budgetWarning(budget.chars, fitted.leftOut)];
  return { shown: { ...fitted.read, read: { ...fitted.read.read, warnings } } as ListRead, markdown: fitted.markdown };
}

export function browseCacheControl(keyed: boolean, ttlS: number, cache?: CacheStatus): string {
  return keyed ? 'private, no-store' : publicCacheControl(ttlS, cache);
}

/** A profile page names its permalink and, for embedding consumers, its oEmbed document (as post pages do). */
function pageLinks(l: ListRead, baseUrl: string): Omit<HtmlPageOptions, 'title'> {
  if (l.resource === 'list') {
    const page = `${baseUrl}/i/lists/${encodePart(l.read.list.id)}`;
    return {
      baseUrl,
      canonicalUrl: page,
      feeds: [{ type: 'application/rss+xml', href: `${page}/rss`, title: `${l.read.list.name}: latest posts` }],
    };
  }
  if (l.resource === 'quotes' || l.resource === 'reposts' || l.resource === 'media' || l.resource === 'articles')
    return tabLinks(l, baseUrl);
  // Feeds and permalinks are addressed by handle: an upstream handle that is not one gets none of them.
  if (l.resource !== 'profile' || !isHandle(l.read.profile.handle)) return { baseUrl };
  const permalink = `${baseUrl}/${l.read.profile.handle}`;
  return {
    baseUrl,
    canonicalUrl: permalink,
    oembedUrl: `${baseUrl}/oembed?url=${encodePart(permalink)}`,
    preview: profilePreview(l.read.profile, permalink),
    // Feed discovery: browsers and feed readers find the profile's RSS feeds from the page.
    feeds: [
      { type: 'application/rss+xml', href: `${permalink}/rss`, title: `@${l.read.profile.handle}: posts` },
      { type: 'application/rss+xml', href: `${permalink}/media/rss`, title: `@${l.read.profile.handle}: media` },
      {
        type: 'application/rss+xml',
        href: `${permalink}/with_replies/rss`,
        title: `@${l.read.profile.handle}: posts and replies`,
      },
    ],
  };
}

/** The page's own permalink, and for the post lists (quotes, media, Articles) their RSS feed. */
function tabLinks(
  l: Extract<ListRead, { resource: 'quotes' | 'reposts' | 'media' | 'articles' }>,
  baseUrl: string,
): Omit<HtmlPageOptions, 'title'> {
  if (l.resource === 'media' || l.resource === 'articles') {
    const { handle } = l.read.profile;
    if (!isHandle(handle)) return { baseUrl };
    const page = `${baseUrl}/${handle}/${l.resource}`;
    const title = `@${handle}: ${l.resource === 'media' ? 'media' : 'Articles'}`;
    return { baseUrl, canonicalUrl: page, feeds: [{ type: 'application/rss+xml', href: `${page}/rss`, title }] };
  }
  const read = l.read;
  if (!('post' in read)) return { baseUrl };
  const author = read.post.author.handle;
  const page = `${baseUrl}${statusPath(author, read.post.id)}/${l.resource}`;
  if (l.resource === 'reposts' || !isHandle(author)) return { baseUrl, canonicalUrl: page };
  return {
    baseUrl,
    canonicalUrl: page,
    feeds: [{ type: 'application/rss+xml', href: `${page}/rss`, title: `Quotes of @${author}'s post` }],
  };
}

export function presentList(whole: ListRead, rep: Representation, ctx: ListPresentContext): Rendered {
  const rctx: RenderContext = { baseUrl: ctx.baseUrl, full: ctx.full };
  const { shown: l, markdown } = documentOf(whole, rctx, ctx.budget);
  const body =
    rep === 'json'
      ? JSON.stringify(jsonOf(l, markdown))
      : rep === 'html'
        ? renderHtmlPage(markdown, { title: ctx.title, ...pageLinks(l, ctx.baseUrl) })
        : markdown;
  return {
    body,
    contentType: CONTENT_TYPES[rep],
    headers: {
      vary: 'Accept, Authorization',
      'cache-control': browseCacheControl(ctx.keyed, ctx.cacheTtlS, ctx.cache),
      'x-source': l.read.source,
      'x-cache': ctx.cache,
      'x-browse-resource': l.resource,
      'x-result-count': String(resultCount(l)),
      'x-api-key-status': ctx.keyStatus,
      ...(l.read.warnings.length ? { 'x-warnings': headerSafe(l.read.warnings.join('; ')) } : {}),
    },
  };
}

/** A 404 for Markdown or HTML readers: what is missing, where to look next, the valid URL shapes. */
export function presentRecovery(
  kind: 'profile' | 'post',
  what: string,
  rep: Representation,
  ctx: { baseUrl: string; keyStatus: string; resource: BrowseResource },
): Rendered {
  const markdown = renderRecoveryMarkdown(kind, what, ctx.baseUrl);
  const html = rep === 'html';
  return {
    status: 404,
    body: html ? renderHtmlPage(markdown, { title: `Not found: ${what}`, baseUrl: ctx.baseUrl }) : markdown,
    contentType: CONTENT_TYPES[html ? 'html' : 'markdown'],
    headers: {
      'cache-control': 'no-store',
      link: `<${docsUrlFor(ctx.baseUrl, 'not_found')}>; rel="help"; type="text/html"`,
      'x-browse-resource': ctx.resource,
      'x-api-key-status': ctx.keyStatus,
    },
  };
}
