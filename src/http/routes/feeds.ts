// Feeds: RSS on the Nitter-shaped permalinks (/{handle}/rss, /{a,b}/rss, /search/rss, /i/lists/{id}/rss) and RSS, Atom or
// JSON Feed on the versioned surface. Fixed-media routes: `type` (or the path) picks the format, not Accept.
import { z } from 'zod';
import { MAX_FEED_HANDLES, type FeedKind, type FeedType } from '../../domain/feeds.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import {
  defineRoute,
  NO_PARAMS,
  type HandlerContext,
  type RouteDecl,
  type RouteDef,
} from '../../contract/route-decl.ts';
import { serveListFeed, serveProfileFeed, serveSearchFeed, type NamedSearchFeed } from './feed-serve.ts';
import { ACCOUNT_BACKED_NOTE, CURATED_LIST_ERRORS, listIdParams } from './curated-lists.ts';
import { DEFAULT_FEED, normalizeQuery, upstreamTerms } from '../../domain/search.ts';
import { ANY_TYPE, FILTER_NOTE, options, POLLING, RSS_ONLY, withQuery } from './feed-common.ts';
import { permalinkThreadFeed, v1ThreadFeed } from './thread-feeds.ts';
import {
  handleParams,
  listFeedQuery,
  permalinkListFeedQuery,
  permalinkProfileQuery,
  permalinkSearchFeedQuery,
  searchFeedQuery,
  splitHandles,
  v1ProfileQuery,
} from '../../contract/queries/feeds.ts';

const PROFILE_ERRORS: CatalogCode[] = [
  'invalid_date',
  'search_unavailable',
  'invalid_since_id',
  'invalid_handle',
  'too_many_handles',
  'invalid_feed_option',
  'invalid_filter',
  'invalid_lang',
  'invalid_flag',
  'invalid_key',
  'not_found',
  'upstream_error',
];
export const SEARCH_FEED_ERRORS: CatalogCode[] = [
  'invalid_date',
  'invalid_since_id',
  'missing_query',
  'invalid_query',
  'invalid_feed',
  'invalid_feed_option',
  'invalid_filter',
  'invalid_lang',
  'invalid_flag',
  'invalid_key',
  'search_unavailable',
  'upstream_error',
];

function handlesOf(raw: string): string[] {
  const seen = new Map<string, string>();
  for (const h of splitHandles(raw)) if (!seen.has(h.toLowerCase())) seen.set(h.toLowerCase(), h);
  return [...seen.values()];
}

const WINDOW_NOTE =
  ' `since` and `until` (ISO 8601 date or date-time; since ≤ time < until) read one window of time straight away ' +
  'through X search, charged as live search lookups, one per upstream read (a merged feed pays for every account ' +
  'it reads live; 503 search_unavailable when search cannot be served); a bad ' +
  'or reversed window is 400 invalid_date.';

const PERMALINK_KINDS: Array<{ kind: FeedKind; segment: string; op: string; summary: string }> = [
  { kind: 'posts', segment: '', op: 'profileFeedPermalink', summary: "RSS feed of a profile's posts (permalink)" },
  {
    kind: 'media',
    segment: '/media',
    op: 'profileMediaFeedPermalink',
    summary: "RSS feed of a profile's posts with photos or videos (permalink)",
  },
  {
    kind: 'with_replies',
    segment: '/with_replies',
    op: 'profileRepliesFeedPermalink',
    summary: "RSS feed of a profile's posts and replies (permalink)",
  },
];

const permalinkProfileFeeds: RouteDef[] = PERMALINK_KINDS.map(({ kind, segment, op, summary }) => {
  const decl = {
    operationId: op,
    path: `/{handle}${segment}/rss`,
    surface: 'permalink',
    summary,
    description:
      'The same path Nitter used, so a subscription only needs its host swapped. Several handles separated by ' +
      `commas (at most ${MAX_FEED_HANDLES}) give one feed, merged newest first. One item per post (or per self-thread ` +
      'with threads=grouped); reposts appear only in with_replies, labelled.' +
      WINDOW_NOTE +
      FILTER_NOTE +
      POLLING,
    tags: ['permalinks'],
    params: handleParams,
    query: permalinkProfileQuery,
    representations: [],
    keyAware: true,
    errors: PROFILE_ERRORS,
    fixed: RSS_ONLY,
  } satisfies RouteDecl;
  return defineRoute(decl, (ctx) => {
    const handles = handlesOf(ctx.params.handle);
    const self = withQuery(`${ctx.services.config.baseUrl}/${handles.join(',')}${segment}/rss`, {
      threads: ctx.query.threads,
      since: ctx.query.since,
      until: ctx.query.until,
    });
    return serveProfileFeed(ctx, handles, kind, options(ctx.query, 'rss', self));
  });
});

const v1ProfileFeedDecl = {
  operationId: 'profileFeed',
  path: '/api/v1/profiles/{handle}/feed',
  surface: 'v1',
  summary: 'Feed of a profile (RSS, Atom or JSON Feed)',
  description:
    '`type` picks RSS 2.0, Atom 1.0 or JSON Feed 1.1; `kind` picks posts, media or with_replies. Several handles ' +
    `separated by commas (at most ${MAX_FEED_HANDLES}) give one feed, merged newest first.` +
    WINDOW_NOTE +
    FILTER_NOTE +
    POLLING,
  tags: ['feeds'],
  params: handleParams,
  query: v1ProfileQuery,
  representations: [],
  keyAware: true,
  errors: PROFILE_ERRORS,
  fixed: ANY_TYPE,
} satisfies RouteDecl;

const v1ProfileFeed = defineRoute(v1ProfileFeedDecl, (ctx) => {
  const handles = handlesOf(ctx.params.handle);
  const q = ctx.query;
  const type = q.type ?? 'rss';
  const self = withQuery(`${ctx.services.config.baseUrl}/api/v1/profiles/${handles.join(',')}/feed`, {
    type,
    kind: q.kind,
    threads: q.threads,
    since: q.since,
    until: q.until,
  });
  return serveProfileFeed(ctx, handles, q.kind ?? 'posts', options(q, type, self));
});

function searchFeedDecl<Q extends typeof permalinkSearchFeedQuery>(
  surface: 'v1' | 'permalink',
  query: Q,
): RouteDecl<Q, typeof NO_PARAMS> {
  const v1 = surface === 'v1';
  return {
    operationId: v1 ? 'searchFeed' : 'searchFeedPermalink',
    path: v1 ? '/api/v1/search/feed' : '/search/rss',
    surface,
    summary: v1 ? 'Feed of a saved search (RSS, Atom or JSON Feed)' : 'RSS feed of a saved search (permalink)',
    description:
      'The posts of one search feed (latest by default) as a feed, in the order the search gives them.' +
      (v1 ? ' `type` picks RSS 2.0, Atom 1.0 or JSON Feed 1.1.' : '') +
      ' Uncached lookups count against the search allowance, as on the search route.' +
      WINDOW_NOTE.replace('through X search', 'as X search operators') +
      FILTER_NOTE +
      POLLING,
    tags: [v1 ? 'feeds' : 'permalinks'],
    params: NO_PARAMS,
    query,
    representations: [],
    keyAware: true,
    errors: SEARCH_FEED_ERRORS,
    search: true,
    fixed: v1 ? ANY_TYPE : RSS_ONLY,
  };
}

/**
 * `type` is the v1 route's choice; the permalink is always RSS and its self link names no type. A named search (a
 * hashtag's feed) has its query in its path: `q` is neither read nor named in the self link.
 */
export function searchFeed(
  ctx: HandlerContext<z.output<typeof permalinkSearchFeedQuery>, unknown>,
  path: string,
  type?: FeedType,
  named?: NamedSearchFeed & { q: string },
) {
  const q = named?.q ?? normalizeQuery(ctx.query.q);
  const feed = ctx.query.feed ?? DEFAULT_FEED;
  const self = withQuery(`${ctx.services.config.baseUrl}${path}`, {
    q: named ? undefined : q,
    feed: ctx.query.feed,
    ...(type ? { type } : {}),
    since: ctx.query.since,
    until: ctx.query.until,
  });
  const opts = options(ctx.query, type ?? 'rss', self);
  // Checked before anything is read: terms and window together must fit the limit.
  upstreamTerms(q, opts.window);
  return serveSearchFeed(ctx, q, feed, { ...opts, threads: 'separate' }, named);
}

const v1SearchFeedDecl = searchFeedDecl('v1', searchFeedQuery);
const v1SearchFeed = defineRoute(v1SearchFeedDecl, (ctx) =>
  searchFeed(ctx, v1SearchFeedDecl.path, ctx.query.type ?? 'rss'),
);
const permalinkSearchFeedDecl = searchFeedDecl('permalink', permalinkSearchFeedQuery);
const permalinkSearchFeed = defineRoute(permalinkSearchFeedDecl, (ctx) =>
  searchFeed(ctx, permalinkSearchFeedDecl.path),
);

const LIST_FEED_ERRORS: CatalogCode[] = [
  ...CURATED_LIST_ERRORS,
  'invalid_since_id',
  'invalid_feed_option',
  'invalid_filter',
  'invalid_lang',
  'invalid_flag',
  'invalid_key',
  'not_found',
  'upstream_error',
];

function listFeedDecl<Q extends typeof permalinkListFeedQuery>(
  surface: 'v1' | 'permalink',
  query: Q,
): RouteDecl<Q, typeof listIdParams> {
  const v1 = surface === 'v1';
  return {
    operationId: v1 ? 'listFeed' : 'listFeedPermalink',
    path: v1 ? '/api/v1/lists/{id}/feed' : '/i/lists/{id}/rss',
    surface,
    summary: v1
      ? "Feed of an X List's latest posts (RSS, Atom or JSON Feed)"
      : "RSS feed of an X List's latest posts (permalink)",
    description:
      "The latest posts of the list's members, newest first, one item per post (or per self-thread with threads=grouped)." +
      (v1 ? ' `type` picks RSS 2.0, Atom 1.0 or JSON Feed 1.1.' : '') +
      ACCOUNT_BACKED_NOTE +
      FILTER_NOTE +
      POLLING,
    tags: [v1 ? 'feeds' : 'permalinks'],
    params: listIdParams,
    query,
    representations: [],
    keyAware: true,
    errors: LIST_FEED_ERRORS,
    fixed: v1 ? ANY_TYPE : RSS_ONLY,
  };
}

const v1ListFeedDecl = listFeedDecl('v1', listFeedQuery);
const v1ListFeed = defineRoute(v1ListFeedDecl, (ctx) => {
  const type = ctx.query.type ?? 'rss';
  const { id } = ctx.params;
  const self = withQuery(`${ctx.services.config.baseUrl}/api/v1/lists/${id}/feed`, {
    type,
    threads: ctx.query.threads,
  });
  return serveListFeed(ctx, id, options(ctx.query, type, self));
});
const permalinkListFeed = defineRoute(listFeedDecl('permalink', permalinkListFeedQuery), (ctx) => {
  const { id } = ctx.params;
  const self = withQuery(`${ctx.services.config.baseUrl}/i/lists/${id}/rss`, { threads: ctx.query.threads });
  return serveListFeed(ctx, id, options(ctx.query, 'rss', self));
});

export const feedRoutes: RouteDef[] = [
  v1ProfileFeed,
  v1SearchFeed,
  v1ListFeed,
  v1ThreadFeed,
  ...permalinkProfileFeeds,
  permalinkSearchFeed,
  permalinkListFeed,
  permalinkThreadFeed,
];
