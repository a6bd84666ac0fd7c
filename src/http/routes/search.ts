// GET /api/v1/search and its permalink /search?q=.
import { z } from 'zod';
import type { SearchFeed } from '../../domain/capabilities.ts';
import { Problem } from '../../problems/problem.ts';
import { code } from '../params/common.ts';
import { defineRoute, NO_PARAMS, type HandlerContext, type RouteDecl, type RouteDef } from '../route-decl.ts';
import { LIST_ERRORS, listShape } from './list-params.ts';
import { serveList } from './list-serve.ts';

export const SEARCH_FEEDS = ['latest', 'top', 'photos', 'videos', 'users'] as const;
export const DEFAULT_FEED: SearchFeed = 'latest';
export const ACCOUNT_FEEDS = new Set<SearchFeed>(['photos', 'videos', 'users']);
export const MAX_QUERY_CHARS = 512;

export const searchShape = {
  q: z.string(code('missing_query')).optional().describe('Search terms (required; at most 512 characters).'),
  feed: z
    .enum(SEARCH_FEEDS, code('invalid_feed'))
    .optional()
    .describe('latest (default), top, photos, videos or users. photos, videos and users are account-backed.'),
  ...listShape,
};

const searchQuery = z.object(searchShape);
export type SearchQuery = z.output<typeof searchQuery>;

function decl(surface: 'v1' | 'permalink'): RouteDecl<typeof searchQuery, typeof NO_PARAMS> {
  return {
    operationId: surface === 'v1' ? 'search' : 'searchPermalink',
    path: surface === 'v1' ? '/api/v1/search' : '/search',
    surface,
    summary: surface === 'v1' ? 'Search public posts and accounts' : 'Search (permalink)',
    description:
      'Feeds: latest (default, newest first), top, photos, videos, users. The photos, videos and users feeds need ' +
      'configured sessions on the deployment (503 search_unavailable otherwise). Cursors are tied to the query and ' +
      'feed that issued them; degraded results (served by a fallback provider) carry no cursor.',
    tags: [surface === 'v1' ? 'search' : 'permalinks'],
    params: NO_PARAMS,
    query: searchQuery,
    representations: ['markdown', 'json', 'html'],
    keyAware: true,
    errors: ['missing_query', 'invalid_query', 'invalid_feed', 'search_unavailable', ...LIST_ERRORS],
    browseResource: 'search',
    search: true,
    ...(surface === 'v1' ? { mcpTool: 'search' } : {}),
  };
}

/** Terms as the upstream will see them: trimmed, inner whitespace folded. */
export function normalizeQuery(q: string | undefined): string {
  const terms = (q ?? '').trim().replace(/\s+/g, ' ');
  if (!terms) throw new Problem('missing_query', 'Pass the search terms in `q`.');
  if (terms.length > MAX_QUERY_CHARS) throw new Problem('invalid_query', `Search terms are limited to ${MAX_QUERY_CHARS} characters.`);
  return terms;
}

export function serveSearch(ctx: HandlerContext<SearchQuery>, path: string) {
  const q = normalizeQuery(ctx.query.q);
  const feed = ctx.query.feed ?? DEFAULT_FEED;
  return serveList(ctx, {
    resource: 'search',
    scope: { route: 'search', query: q, feed },
    path,
    title: `Search: ${q}`,
    keep: { q, feed: ctx.query.feed },
    search: ACCOUNT_FEEDS.has(feed) ? 'account' : 'plain',
    load: (call) => ctx.services.lists.search(q, feed, call),
    build: (page, meta) => ({
      resource: 'search',
      read: {
        q,
        feed,
        items: page.items,
        ...meta,
      },
    }),
  });
}

export const searchRoutes: RouteDef[] = (['v1', 'permalink'] as const).map((surface) => {
  const d = decl(surface);
  return defineRoute(d, (ctx) => serveSearch(ctx, d.path));
});
