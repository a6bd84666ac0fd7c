// Quote feeds: the posts quoting a post as they come, on the permalink (/{handle}/status/{id}/quotes/rss) and the
// versioned surface (/api/v1/posts/{id}/quotes/feed, RSS, Atom or JSON Feed by `type`).
import type { RouteDef } from '../../contract/route-decl.ts';
import { serveQuotesFeed } from './feed-serve.ts';
import type { PostFeedText } from './feed-common.ts';
import { postFeedRoutes } from './post-feed-routes.ts';

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
    'invalid_lang',
    'invalid_flag',
    'read_unavailable',
    'not_found',
    'upstream_error',
  ],
};

const routes = postFeedRoutes(TEXT, serveQuotesFeed);
export const quoteFeedRoutes: RouteDef[] = [routes.v1, routes.permalink];
