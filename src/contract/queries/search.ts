// The query parameters of a search page (GET /api/v1/search and /search), which the tag pages and browse reuse.
import { z } from 'zod';
import { SEARCH_FEEDS } from '../../domain/search.ts';
import { code, sinceIdParam } from '../params/common.ts';
import { sinceParam, untilParam } from '../params/dates.ts';
import { listFilterShape } from '../params/feed-filters.ts';
import { listShape } from '../params/list.ts';
import { translateShape } from '../params/lang.ts';

export const searchShape = {
  q: z.string(code('missing_query')).optional().describe('Search terms (required; at most 512 characters).'),
  feed: z
    .enum(SEARCH_FEEDS, code('invalid_feed'))
    .optional()
    .describe('latest (default), top, photos, videos or users. photos, videos and users are account-backed.'),
  since: sinceParam,
  until: untilParam,
  ...listShape,
  since_id: sinceIdParam,
  ...listFilterShape,
  ...translateShape,
};

export const searchQuery = z.object(searchShape);
