// The query parameters of the feeds (RSS, Atom, JSON Feed): the format and cache parameters every feed takes, and
// the path and query of the profile, search, list and post feeds.
import { z } from 'zod';
import { FEED_KINDS, FEED_TYPES, MAX_FEED_HANDLES, THREAD_MODES } from '../../domain/feeds.ts';
import { HANDLE_RE, code, flag, isReservedPath, sinceIdParam } from '../params/common.ts';
import { sinceParam, untilParam } from '../params/dates.ts';
import { filterShape } from '../params/feed-filters.ts';
import { translateShape } from '../params/lang.ts';

export const typeParam = z
  .enum(FEED_TYPES, code('invalid_feed_option'))
  .optional()
  .describe('rss (default, RSS 2.0), atom (Atom 1.0) or json (JSON Feed 1.1).');

export const nocacheParam = flag.describe('Bypass the application cache; charged against the live-lookup quota.');

export function splitHandles(raw: string): string[] {
  return raw.split(',');
}

/** One handle, or up to 10 separated by commas (repeats count once). A reserved first segment is not ours. */
const feedHandles = z
  .string()
  .refine((h) => !isReservedPath(h), code('route_not_found'))
  .superRefine((h, ctx) => {
    const accounts = new Set(splitHandles(h).map((x) => x.toLowerCase())).size;
    if (accounts <= MAX_FEED_HANDLES) return;
    ctx.addIssue({
      code: 'custom',
      message: 'too_many_handles',
      params: {
        detail: `\`handle\` names ${accounts} accounts; a feed merges at most ${MAX_FEED_HANDLES} (repeats count once).`,
      },
    });
  })
  .refine((h) => splitHandles(h).every((x) => HANDLE_RE.test(x) && !isReservedPath(x)), code('invalid_handle'))
  .describe(
    `Account handle, or up to ${MAX_FEED_HANDLES} handles separated by commas for one merged feed (newest first).`,
  );

const kindParam = z
  .enum(FEED_KINDS, code('invalid_feed_option'))
  .optional()
  .describe(
    "posts (default: original posts and the author's own thread continuations), media (those with photos or videos) or with_replies (also replies to others and reposts, labelled).",
  );

const threadsParam = z
  .enum(THREAD_MODES, code('invalid_feed_option'))
  .optional()
  .describe('separate (default: one item per post) or grouped (one item per self-thread).');

const FEED_SEARCH_FEEDS = ['latest', 'top', 'photos', 'videos'] as const;
const searchFeedParam = z
  .enum(FEED_SEARCH_FEEDS, code('invalid_feed'))
  .optional()
  .describe(
    'latest (default), top, photos or videos (photos and videos are account-backed). The users feed has no posts to syndicate.',
  );

const qParam = z.string(code('missing_query')).optional().describe('Search terms (required; at most 512 characters).');

export const handleParams = z.object({ handle: feedHandles });
const windowShape = { since: sinceParam, until: untilParam };
export const permalinkProfileQuery = z.object({
  threads: threadsParam,
  nocache: nocacheParam,
  since_id: sinceIdParam,
  ...windowShape,
  ...filterShape,
  ...translateShape,
});
export const v1ProfileQuery = z.object({
  type: typeParam,
  kind: kindParam,
  threads: threadsParam,
  nocache: nocacheParam,
  since_id: sinceIdParam,
  ...windowShape,
  ...filterShape,
  ...translateShape,
});
export const searchFeedQuery = z.object({
  q: qParam,
  feed: searchFeedParam,
  type: typeParam,
  nocache: nocacheParam,
  since_id: sinceIdParam,
  ...windowShape,
  ...filterShape,
  ...translateShape,
});
export const permalinkSearchFeedQuery = searchFeedQuery.omit({ type: true });

export const listFeedQuery = z.object({
  type: typeParam,
  threads: threadsParam,
  nocache: nocacheParam,
  since_id: sinceIdParam,
  ...filterShape,
  ...translateShape,
});
export const permalinkListFeedQuery = listFeedQuery.omit({ type: true });

/** The query of a feed about one post (its conversation, its quotes): the format, the cache, since_id, the filters. */
export const postFeedQuery = z.object({
  type: typeParam,
  nocache: nocacheParam,
  since_id: sinceIdParam,
  ...filterShape,
  ...translateShape,
});
/** The permalink is always RSS. */
export const permalinkPostFeedQuery = postFeedQuery.omit({ type: true });
