// Quote feeds: the posts quoting a post as they come, on the permalink (/{handle}/status/{id}/quotes/rss) and the
// versioned surface (/api/v1/posts/{id}/quotes/feed, RSS, Atom or JSON Feed by `type`).
import { z } from 'zod';
import { statusHandle, statusId } from '../params/common.ts';
import { defineRoute, type RouteDef } from '../../contract/route-decl.ts';
import { serveQuotesFeed } from './feed-serve.ts';
import { checkIdRange } from '../params/status-url.ts';
import {
  options,
  permalinkPostFeedQuery,
  postFeedDecl,
  postFeedQuery,
  withQuery,
  type PostFeedText,
} from './feed-common.ts';

const TEXT: PostFeedText = {
  operationId: { v1: 'quotesFeed', permalink: 'quotesFeedPermalink' },
  path: { v1: '/api/v1/posts/{id}/quotes/feed', permalink: '/{handle}/status/{id}/quotes/rss' },
  summary: {
    v1: 'Feed of the posts quoting a post (RSS, Atom or JSON Feed)',
    permalink: 'RSS feed of the posts quoting a post (permalink)',
  },
  description:
    'The latest posts quoting the post, newest first, one item per post: the first page of the quotes route, read ' +
    'through the same cache (503 read_unavailable with Retry-After when no configured provider serves quotes).',
  errors: [
    'invalid_params',
    'invalid_since_id',
    'invalid_feed_option',
    'invalid_filter',
    'invalid_flag',
    'read_unavailable',
    'not_found',
    'upstream_error',
  ],
};

export const quoteFeedRoutes: RouteDef[] = [
  defineRoute(postFeedDecl('v1', postFeedQuery, z.object({ id: statusId }), TEXT), (ctx) => {
    const { id } = ctx.params;
    checkIdRange(id);
    const type = ctx.query.type ?? 'rss';
    const self = withQuery(`${ctx.services.config.baseUrl}/api/v1/posts/${id}/quotes/feed`, { type });
    return serveQuotesFeed(ctx, id, options(ctx.query, type, self));
  }),
  defineRoute(
    postFeedDecl('permalink', permalinkPostFeedQuery, z.object({ handle: statusHandle, id: statusId }), TEXT),
    (ctx) => {
      const { handle, id } = ctx.params;
      checkIdRange(id);
      const self = `${ctx.services.config.baseUrl}/${handle}/status/${id}/quotes/rss`;
      return serveQuotesFeed(ctx, id, options(ctx.query, 'rss', self));
    },
  ),
];
