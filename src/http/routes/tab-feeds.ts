// Feeds of a profile tab: the account's Articles as they come, on the permalink (/{handle}/articles/rss) and the
// versioned surface (/api/v1/profiles/{handle}/articles/feed, RSS, Atom or JSON Feed by `type`).
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../../contract/route-decl.ts';
import { profileHandle } from '../../contract/params/common.ts';
import { serveTabFeed, type FeedTab } from './feed-serve.ts';
import { options, postFeedDecl, withQuery, type PostFeedText } from './feed-common.ts';
import { permalinkPostFeedQuery, postFeedQuery } from '../../contract/queries/feeds.ts';

const TEXT: Record<FeedTab, PostFeedText> = {
  articles: {
    operationId: { v1: 'articlesFeed', permalink: 'articlesFeedPermalink' },
    path: { v1: '/api/v1/profiles/{handle}/articles/feed', permalink: '/{handle}/articles/rss' },
    summary: {
      v1: "Feed of a profile's X Articles (RSS, Atom or JSON Feed)",
      permalink: "RSS feed of a profile's X Articles (permalink)",
    },
    description:
      "The account's latest X Articles, newest first, one item per Article rendered whole: the first page of the " +
      'Articles tab, read through the same cache (FxTwitter, or X with the deployment sessions; 503 ' +
      'read_unavailable with Retry-After when no configured provider serves it). An unknown, suspended or ' +
      'protected account is 404 not_found.',
    errors: [
      'invalid_handle',
      'invalid_since_id',
      'invalid_feed_option',
      'invalid_filter',
      'invalid_lang',
      'invalid_flag',
      'read_unavailable',
      'not_found',
      'upstream_error',
    ],
  },
};

const params = z.object({ handle: profileHandle });

function feedRoutesOf(tab: FeedTab): RouteDef[] {
  const text = TEXT[tab];
  const v1 = defineRoute(postFeedDecl('v1', postFeedQuery, params, text), (ctx) => {
    const { handle } = ctx.params;
    const type = ctx.query.type ?? 'rss';
    const self = withQuery(`${ctx.services.config.baseUrl}${text.path.v1.replace('{handle}', handle)}`, { type });
    return serveTabFeed(ctx, handle, tab, options(ctx.query, type, self));
  });
  const permalink = defineRoute(postFeedDecl('permalink', permalinkPostFeedQuery, params, text), (ctx) => {
    const { handle } = ctx.params;
    const self = `${ctx.services.config.baseUrl}${text.path.permalink.replace('{handle}', handle)}`;
    return serveTabFeed(ctx, handle, tab, options(ctx.query, 'rss', self));
  });
  return [v1, permalink];
}

export const tabFeedRoutes: RouteDef[] = feedRoutesOf('articles');
