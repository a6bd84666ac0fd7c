// GET /api/v1/search and its permalink /search?q=.
import { z } from 'zod';
import type { SearchFeed } from '../../providers/types.ts';
import { Problem } from '../../problems/problem.ts';
import type { HandlerContext, RouteDecl, RouteDef } from '../route-decl.ts';
import { sinceIdParam } from '../params/common.ts';
import { newerThan, reachesSince } from '../../domain/since.ts';
import type { SearchItem } from '../../providers/types.ts';
import { LIST_ERRORS, listShape, type ListQuery } from './list-params.ts';
import { serveList } from './list-serve.ts';
import { searchJsonSchema } from '../../render/json-schemas.ts';
import { isoWindow, sinceParam, untilParam, windowOf, windowOperators } from '../params/dates.ts';

export const SEARCH_FEEDS = ['latest', 'top', 'photos', 'videos', 'users'] as const;
export const DEFAULT_FEED: SearchFeed = 'latest';
export const ACCOUNT_FEEDS = new Set<SearchFeed>(['photos', 'videos', 'users']);
export const MAX_QUERY_CHARS = 512;

export const searchShape = {
  q: z.string({ error: 'missing_query' }).optional().describe('Search terms (required; at most 512 characters).'),
  feed: z
    .enum(SEARCH_FEEDS, { error: 'invalid_feed' })
    .optional()
    .describe('latest (default), top, photos, videos or users. photos, videos and users are account-backed.'),
  since: sinceParam,
  until: untilParam,
  ...listShape,
  since_id: sinceIdParam,
};

export type SearchQuery = ListQuery & { q?: string; feed?: SearchFeed; since?: string; until?: string; since_id?: string };

/** Search items by post id; accounts (the users feed) have none. */
const postIdOf = (i: SearchItem) => (i.kind === 'post' ? i.post.id : '0');

function decl(surface: 'v1' | 'permalink'): RouteDecl {
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
      'everything newer.',
    tags: [surface === 'v1' ? 'search' : 'permalinks'],
    query: z.object(searchShape),
    representations: ['markdown', 'json', 'html'],
    json: searchJsonSchema,
    keyAware: true,
    errors: ['missing_query', 'invalid_query', 'invalid_feed', 'invalid_date', 'invalid_since_id', 'search_unavailable', ...LIST_ERRORS],
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
  const { since, until, since_id: sinceId } = ctx.query;
  if (sinceId !== undefined && feed === 'users') {
    throw new Problem('invalid_since_id', 'since_id selects posts; the users feed lists accounts.');
  }
  const window = windowOf(since, until);
  // The window travels as X search operators: the upstream jumps to it, and cache and cursors key on it.
  const upstreamQ = [q, windowOperators(window)].filter(Boolean).join(' ');
  if (upstreamQ.length > MAX_QUERY_CHARS) throw new Problem('invalid_query', `Search terms and date window are limited to ${MAX_QUERY_CHARS} characters together.`);
  return serveList(ctx, {
    resource: 'search',
    scope: { route: 'search', query: upstreamQ, feed },
    path,
    title: `Search: ${q}`,
    keep: { q, feed: ctx.query.feed, since, until },
    search: ACCOUNT_FEEDS.has(feed) ? 'account' : 'plain',
    load: (call) => ctx.services.lists.search(upstreamQ, feed, call),
    // Only the latest feed is in time order; a page of top results says nothing about the next page.
    caughtUp: (page) => sinceId !== undefined && feed === 'latest' && reachesSince(page.items, sinceId, postIdOf),
    build: (page, meta) => ({
      resource: 'search',
      read: {
        q,
        feed,
        items: sinceId === undefined ? page.items : newerThan(page.items, sinceId, postIdOf),
        ...(window ? { window: isoWindow(window) } : {}),
        ...meta,
      },
    }),
  });
}

export const searchRoutes: RouteDef[] = (['v1', 'permalink'] as const).map((surface) => {
  const d = decl(surface);
  return { decl: d, handle: (ctx: HandlerContext<SearchQuery>) => serveSearch(ctx, d.path) };
});
