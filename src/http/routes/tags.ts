// Hashtag and cashtag pages: /hashtag/{tag} and /cashtag/{symbol} (and /api/v1/hashtags/{tag}, /api/v1/cashtags/{symbol})
// as named searches for `#tag` and `$SYMBOL`, with their feeds. They are the search route with its query fixed by
// the path: same feeds, paging, limits, filters and search allowance (search-ip, or account-ip for photos and videos).
import { z } from 'zod';
import { isTag, tagPath, tagTerms, type TagKind } from '../../domain/tags.ts';
import { code } from '../../contract/params/common.ts';
import { searchJsonSchema } from '../../contract/json-schemas.ts';
import { defineRoute, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import { SEARCH_PAGE_ERRORS, serveSearch } from './search.ts';
import { SEARCH_FEED_ERRORS, searchFeed } from './feeds.ts';
import { ANY_TYPE, FILTER_NOTE, POLLING, RSS_ONLY } from './feed-common.ts';
import { permalinkTagFeedQuery, tagFeedQuery, tagPageQuery } from '../../contract/queries/tags.ts';

interface Kind {
  kind: TagKind;
  /** The path parameter's name: {tag} or {symbol}. */
  param: 'tag' | 'symbol';
  plural: string;
  error: CatalogCode;
  label: string;
  example: string;
}

const KINDS: Kind[] = [
  { kind: 'hashtag', param: 'tag', plural: 'hashtags', error: 'invalid_hashtag', label: 'hashtag', example: 'caching' },
  { kind: 'cashtag', param: 'symbol', plural: 'cashtags', error: 'invalid_cashtag', label: 'cashtag', example: 'TSLA' },
];

function paramsOf(k: Kind) {
  const value = z
    .string(code(k.error))
    .refine((v) => isTag(k.kind, v), code(k.error))
    .describe(
      k.kind === 'hashtag'
        ? 'The hashtag without `#`: letters, digits or underscores (at most 100, not only digits).'
        : 'The cashtag without `$`: 1-6 letters, optionally `.` or `_` and 1-2 letters (BRK.A).',
    );
  return z.object({ [k.param]: value }) as z.ZodObject<Record<string, typeof value>>;
}

const termsOf = (k: Kind) => (k.kind === 'hashtag' ? '`#tag`' : '`$SYMBOL`');
const titleOf = (k: Kind, tag: string) => tagTerms(k.kind, tag);

function pageDecl(k: Kind, surface: 'v1' | 'permalink') {
  const v1 = surface === 'v1';
  return {
    operationId: `${k.kind}${v1 ? '' : 'Permalink'}`,
    path: v1 ? `/api/v1/${k.plural}/{${k.param}}` : `/${k.kind}/{${k.param}}`,
    surface,
    summary: v1 ? `Posts with a ${k.label}` : `Posts with a ${k.label} (permalink)`,
    description:
      `The search for ${termsOf(k)} as a page of its own, e.g. /${k.kind}/${k.example}: the search route's feeds ` +
      '(latest, top, photos, videos), paging, date window, filters and allowance (search-ip; photos and videos ' +
      `are account-backed, 503 search_unavailable without sessions). Every ${k.label} in rendered posts links here. ` +
      `A ${k.label} that cannot exist is 400 ${k.error} before any upstream call.`,
    tags: [v1 ? 'search' : 'permalinks'],
    params: paramsOf(k),
    query: tagPageQuery,
    representations: ['markdown', 'json', 'html'],
    json: searchJsonSchema,
    keyAware: true,
    errors: [k.error, ...SEARCH_PAGE_ERRORS],
    browseResource: 'search',
    search: true,
    ...(v1 ? { mcpTool: `search_${k.kind}` } : {}),
  } satisfies RouteDecl;
}

function feedDecl<Q extends typeof permalinkTagFeedQuery>(k: Kind, surface: 'v1' | 'permalink', query: Q) {
  const v1 = surface === 'v1';
  return {
    operationId: `${k.kind}Feed${v1 ? '' : 'Permalink'}`,
    path: v1 ? `/api/v1/${k.plural}/{${k.param}}/feed` : `/${k.kind}/{${k.param}}/rss`,
    surface,
    summary: v1 ? `Feed of a ${k.label} (RSS, Atom or JSON Feed)` : `RSS feed of a ${k.label} (permalink)`,
    description:
      `The posts of the ${k.label}'s search feed (latest by default) as a feed, like /search/rss for ${termsOf(k)}.` +
      (v1 ? ' `type` picks RSS 2.0, Atom 1.0 or JSON Feed 1.1.' : '') +
      ' Uncached lookups count against the search allowance.' +
      FILTER_NOTE +
      POLLING,
    tags: [v1 ? 'feeds' : 'permalinks'],
    params: paramsOf(k),
    query,
    representations: [],
    keyAware: true,
    errors: [k.error, ...SEARCH_FEED_ERRORS.filter((c) => c !== 'missing_query' && c !== 'invalid_query')],
    search: true,
    fixed: v1 ? ANY_TYPE : RSS_ONLY,
  } satisfies RouteDecl<Q>;
}

function routesOf(k: Kind): RouteDef[] {
  const tagOf = (params: Record<string, string>) => params[k.param]!;
  const named = (tag: string) => ({ q: tagTerms(k.kind, tag), title: titleOf(k, tag), page: tagPath(k.kind, tag) });
  const pages = (['v1', 'permalink'] as const).map((surface) => {
    const d = pageDecl(k, surface);
    return defineRoute(d, (ctx) => {
      const tag = tagOf(ctx.params);
      const path = surface === 'v1' ? `/api/v1/${k.plural}/${encodeURIComponent(tag)}` : tagPath(k.kind, tag);
      return serveSearch(ctx, path, named(tag));
    });
  });
  const v1 = feedDecl(k, 'v1', tagFeedQuery);
  const permalink = feedDecl(k, 'permalink', permalinkTagFeedQuery);
  return [
    ...pages,
    defineRoute(v1, (ctx) => {
      const tag = tagOf(ctx.params);
      return searchFeed(
        ctx,
        `/api/v1/${k.plural}/${encodeURIComponent(tag)}/feed`,
        ctx.query.type ?? 'rss',
        named(tag),
      );
    }),
    defineRoute(permalink, (ctx) => {
      const tag = tagOf(ctx.params);
      return searchFeed(ctx, `${tagPath(k.kind, tag)}/rss`, undefined, named(tag));
    }),
  ];
}

export const tagRoutes: RouteDef[] = KINDS.flatMap(routesOf);
