// Thread feeds: a conversation as it grows, on the permalink (/{handle}/status/{id}/rss) and the versioned surface
// (/api/v1/posts/{id}/feed, RSS, Atom or JSON Feed by `type`).
import { z } from 'zod';
import { statusHandle, statusId } from '../params/common.ts';
import { defineRoute } from '../../contract/route-decl.ts';
import { serveThreadFeed } from './feed-serve.ts';
import { checkIdRange } from '../params/status-url.ts';
import { MAX_THREAD_ITEMS } from '../../domain/thread-feed.ts';
import {
  options,
  permalinkPostFeedQuery,
  postFeedDecl,
  postFeedQuery,
  withQuery,
  type PostFeedText,
} from './feed-common.ts';

const TEXT: PostFeedText = {
  operationId: { v1: 'threadFeed', permalink: 'threadFeedPermalink' },
  path: { v1: '/api/v1/posts/{id}/feed', permalink: '/{handle}/status/{id}/rss' },
  summary: {
    v1: 'Feed of a conversation as it grows (RSS, Atom or JSON Feed)',
    permalink: 'RSS feed of a conversation as it grows (permalink)',
  },
  description:
    "A conversation as it grows: the author's thread (the chain of their own posts containing the post) and the " +
    'replies below it, newest first, one item per post. Each item says its place in the conversation in its ' +
    'title and first line ("Part 3 of 12 of the thread", "Reply to @bob"). Read like the post route with ' +
    `replies=recent, so a poll inside the cache lifetime reaches no upstream; at most ${MAX_THREAD_ITEMS} items.`,
  errors: [
    'invalid_params',
    'invalid_since_id',
    'invalid_feed_option',
    'invalid_filter',
    'invalid_flag',
    'not_found',
    'upstream_error',
  ],
};

export const v1ThreadFeed = defineRoute(postFeedDecl('v1', postFeedQuery, z.object({ id: statusId }), TEXT), (ctx) => {
  const { id } = ctx.params;
  checkIdRange(id);
  const type = ctx.query.type ?? 'rss';
  const self = withQuery(`${ctx.services.config.baseUrl}/api/v1/posts/${id}/feed`, { type });
  return serveThreadFeed(ctx, id, options(ctx.query, type, self));
});
export const permalinkThreadFeed = defineRoute(
  postFeedDecl('permalink', permalinkPostFeedQuery, z.object({ handle: statusHandle, id: statusId }), TEXT),
  (ctx) => {
    const { handle, id } = ctx.params;
    checkIdRange(id);
    const self = `${ctx.services.config.baseUrl}/${handle}/status/${id}/rss`;
    return serveThreadFeed(ctx, id, options(ctx.query, 'rss', self));
  },
);
