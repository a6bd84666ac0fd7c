// Thread feeds: a conversation as it grows, on the permalink (/{handle}/status/{id}/rss) and the versioned surface
// (/api/v1/posts/{id}/feed, RSS, Atom or JSON Feed by `type`).
import { serveThreadFeed } from './feed-serve.ts';
import { MAX_THREAD_ITEMS } from '../../domain/thread-feed.ts';
import type { PostFeedText } from './feed-common.ts';
import { postFeedRoutes } from './post-feed-routes.ts';

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
    'invalid_lang',
    'invalid_flag',
    'not_found',
    'upstream_error',
  ],
};

const routes = postFeedRoutes(TEXT, serveThreadFeed);
export const v1ThreadFeed = routes.v1;
export const permalinkThreadFeed = routes.permalink;
