// GET /api/v1/search and its permalink /search?q=.
import { z } from 'zod';
import { LIST_FILTER_NOTE } from '../../contract/params/feed-filters.ts';
import { DEFAULT_FEED, normalizeQuery, readSearch, searchCharge, upstreamTerms } from '../../domain/search.ts';
import { Problem } from '../../problems/problem.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import { searchJsonSchema } from '../../contract/json-schemas.ts';
import {
  defineRoute,
  NO_PARAMS,
  type HandlerContext,
  type Rendered,
  type RouteDecl,
  type RouteDef,
} from '../../contract/route-decl.ts';
import { LIST_ERRORS } from '../../contract/params/list.ts';
import { serveList } from './list-serve.ts';
import { searchQuery } from '../../contract/queries/search.ts';
import { windowInput } from './profiles.ts';

/** What a page of search results can answer besides what its query itself can get wrong. */
export const SEARCH_PAGE_ERRORS: CatalogCode[] = [
  'invalid_feed',
  'invalid_date',
  'invalid_since_id',
  'invalid_filter',
  'invalid_lang',
  'search_unavailable',
  ...LIST_ERRORS,
];
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
      'feed that issued them; degraded results (served by a fallback provider) carry no cursor. `since` and `until` ' +
      'read one window of time (since ≤ time < until) straight away, as X search operators, without paging through ' +
      'everything newer; only posts inside the window are answered, whatever the upstream returns.' +
      LIST_FILTER_NOTE,
    tags: [surface === 'v1' ? 'search' : 'permalinks'],
    params: NO_PARAMS,
    query: searchQuery,
    representations: ['markdown', 'json', 'html'],
    json: searchJsonSchema,
    keyAware: true,
    errors: ['missing_query', 'invalid_query', ...SEARCH_PAGE_ERRORS],
    browseResource: 'search',
    search: true,
    ...(surface === 'v1' ? { mcpTool: 'search' } : {}),
  };
}

/** A search by a fixed query of its own page (a hashtag's or cashtag's): its terms and its title. */
export interface NamedSearch {
  q: string;
  title: string;
}

export function serveSearch(
  ctx: HandlerContext<SearchQuery, unknown>,
  path: string,
  named?: NamedSearch,
): Promise<Rendered> {
  const q = named?.q ?? normalizeQuery(ctx.query.q);
  const feed = ctx.query.feed ?? DEFAULT_FEED;
  const { since, until, since_id: sinceId } = ctx.query;
  if (sinceId !== undefined && feed === 'users') {
    throw new Problem('invalid_since_id', 'since_id selects posts; the users feed lists accounts.');
  }
  const window = windowInput(since, until);
  // Checked before anything is read: terms and window together must fit the limit.
  upstreamTerms(q, window);
  return serveList(ctx, {
    resource: 'search',
    path,
    title: named?.title ?? `Search: ${q}`,
    // A named search's page is its query: the Continue → link names no `q`.
    keep: { q: named ? undefined : q, feed: ctx.query.feed, since, until },
    sinceId,
    filter: ctx.query,
    translate: ctx.query.translate,
    search: searchCharge(feed),
    async read(policy, page) {
      const { read, cache } = await readSearch(ctx.services, { q, feed, window, sinceId, ...page }, policy);
      return { read: { resource: 'search', read }, cache };
    },
  });
}

export const searchRoutes: RouteDef[] = (['v1', 'permalink'] as const).map((surface) => {
  const d = decl(surface);
  return defineRoute(d, (ctx) => serveSearch(ctx, d.path));
});
