// The query parameters of the hashtag and cashtag pages and feeds: the search ones with the terms fixed by the path.
import { z } from 'zod';
import type { SearchFeed } from '../../domain/capabilities.ts';
import { code } from '../params/common.ts';
import { permalinkSearchFeedQuery, searchFeedQuery } from './feeds.ts';
import { searchShape } from './search.ts';

/** A tag's page lists posts: every search feed but the accounts one. */
const TAG_FEEDS = ['latest', 'top', 'photos', 'videos'] as const satisfies readonly SearchFeed[];

const feedParam = z
  .enum(TAG_FEEDS, code('invalid_feed'))
  .optional()
  .describe('latest (default, newest first), top, photos or videos (photos and videos are account-backed).');

const { q: _fixed, feed: _anyFeed, ...pageShape } = searchShape;
export const tagPageQuery = z.object({ ...pageShape, feed: feedParam });
const { q: _fixedFeed, feed: _anyFeedFeed, ...v1FeedShape } = searchFeedQuery.shape;
export const tagFeedQuery = z.object({ ...v1FeedShape, feed: feedParam });
const { q: _fixedPermalink, feed: _anyPermalinkFeed, ...permalinkFeedShape } = permalinkSearchFeedQuery.shape;
export const permalinkTagFeedQuery = z.object({ ...permalinkFeedShape, feed: feedParam });
