// Thread feeds: a conversation as it grows, on the permalink (/{handle}/status/{id}/rss) and the versioned surface
// (/api/v1/posts/{id}/feed, RSS, Atom or JSON Feed by `type`).
import { z } from 'zod';
import type { CatalogCode } from '../../problems/catalog.ts';
import { sinceIdParam, statusHandle, statusId } from '../params/common.ts';
import { defineRoute, type RouteDecl } from '../../contract/route-decl.ts';
import { serveThreadFeed } from './feed-serve.ts';
import { filterShape } from '../params/feed-filters.ts';
import { checkIdRange } from '../params/status-url.ts';
import { MAX_THREAD_ITEMS } from '../../domain/thread-feed.ts';
import {
  ANY_TYPE,
  FILTER_NOTE,
  nocacheParam,
  options,
  POLLING,
  RSS_ONLY,
  typeParam,
  withQuery,
} from './feed-common.ts';

export const threadFeedQuery = z.object({
  type: typeParam,
  nocache: nocacheParam,
  since_id: sinceIdParam,
  ...filterShape,
});
const permalinkThreadFeedQuery = threadFeedQuery.omit({ type: true });
const THREAD_FEED_ERRORS: CatalogCode[] = [
  'invalid_params',
  'invalid_since_id',
  'invalid_feed_option',
  'invalid_filter',
  'invalid_flag',
  'not_found',
  'upstream_error',
];

function threadFeedDecl<Q extends typeof permalinkThreadFeedQuery, P extends z.ZodObject>(
  surface: 'v1' | 'permalink',
  query: Q,
  params: P,
): RouteDecl<Q, P> {
  const v1 = surface === 'v1';
  return {
    operationId: v1 ? 'threadFeed' : 'threadFeedPermalink',
    path: v1 ? '/api/v1/posts/{id}/feed' : '/{handle}/status/{id}/rss',
    surface,
    summary: v1
      ? 'Feed of a conversation as it grows (RSS, Atom or JSON Feed)'
      : 'RSS feed of a conversation as it grows (permalink)',
    description:
      "A conversation as it grows: the author's thread (the chain of their own posts containing the post) and the " +
      'replies below it, newest first, one item per post. Each item says its place in the conversation in its ' +
      'title and first line ("Part 3 of 12 of the thread", "Reply to @bob"). Read like the post route with ' +
      `replies=recent, so a poll inside the cache lifetime reaches no upstream; at most ${MAX_THREAD_ITEMS} items.` +
      (v1 ? ' `type` picks RSS 2.0, Atom 1.0 or JSON Feed 1.1.' : '') +
      FILTER_NOTE +
      POLLING,
    tags: [v1 ? 'feeds' : 'permalinks'],
    params,
    query,
    representations: [],
    keyAware: true,
    errors: THREAD_FEED_ERRORS,
    fixed: v1 ? ANY_TYPE : RSS_ONLY,
  };
}

export const v1ThreadFeed = defineRoute(threadFeedDecl('v1', threadFeedQuery, z.object({ id: statusId })), (ctx) => {
  const { id } = ctx.params;
  checkIdRange(id);
  const type = ctx.query.type ?? 'rss';
  const self = withQuery(`${ctx.services.config.baseUrl}/api/v1/posts/${id}/feed`, { type });
  return serveThreadFeed(ctx, id, options(ctx.query, type, self));
});
export const permalinkThreadFeed = defineRoute(
  threadFeedDecl('permalink', permalinkThreadFeedQuery, z.object({ handle: statusHandle, id: statusId })),
  (ctx) => {
    const { handle, id } = ctx.params;
    checkIdRange(id);
    const self = `${ctx.services.config.baseUrl}/${handle}/status/${id}/rss`;
    return serveThreadFeed(ctx, id, options(ctx.query, 'rss', self));
  },
);
