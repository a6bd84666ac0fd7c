// What every feed route shares: the format and cache parameters, the query a feed reads, the notes of its
// description, its fixed media types, and the options a feed is served with (its self link names its filters).
import { z } from 'zod';
import { type FeedType, type ThreadMode } from '../../domain/feeds.ts';
import type { RouteDecl } from '../../contract/route-decl.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import { FEED_MEDIA_TYPES } from '../present/feeds.ts';
import type { FeedOptions } from './feed-serve.ts';
import { filterOf, filterParams, type FilterQuery } from '../../contract/params/feed-filters.ts';
import { windowInput } from './profiles.ts';
import type { permalinkPostFeedQuery } from '../../contract/queries/feeds.ts';

/**
 * What every feed route reads: the feed's threading, whether to bypass the cache, an incremental since_id and
 * (profile and search feeds) a date window.
 */
export type FeedQuery = {
  threads?: ThreadMode;
  nocache?: boolean;
  since_id?: string;
  since?: string;
  until?: string;
  /** The language to translate the feed's posts into (canonical tag). */
  translate?: string;
} & FilterQuery;

export const POLLING =
  ' Cheap to poll: strong `ETag` and `Last-Modified` (newest item), so `If-None-Match` or `If-Modified-Since` ' +
  'gets a 304 without an upstream lookup inside the cache lifetime (a 304 that needed a live lookup is charged like its 200); items come from the application cache ' +
  'for its fresh lifetime (`ttl`), and a stale copy is served when upstreams fail.';

export const FILTER_NOTE =
  ' Filters keep only some of the posts read (they never cost another upstream read): `include` and `exclude` ' +
  '(words or "quoted phrases", whole words, case-insensitive, on the text, link targets and alt texts), ' +
  '`media=only|none`, `min_likes`, `min_reposts` and `lang` (the language a post is written in); `title=author` puts ' +
  '`@handle: ` in each title. A filtered feed is a feed of its own: its self link, cache entry and ETag name its ' +
  "filters. A bad filter is 400 invalid_filter. `translate=<BCP 47 tag>` adds each post's translation beside its " +
  'text (from the page itself where the upstream attaches them, else post by post; a bad tag is 400 invalid_lang).';

export const RSS_ONLY = { mediaType: FEED_MEDIA_TYPES.rss };
export const ANY_TYPE = {
  mediaType: FEED_MEDIA_TYPES.rss,
  alternatives: [FEED_MEDIA_TYPES.atom, FEED_MEDIA_TYPES.json],
};

export function withQuery(url: string, params: Record<string, string | undefined>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) qs.set(k, v);
  const s = qs.toString();
  return s ? `${url}${url.includes('?') ? '&' : '?'}${s}` : url;
}

export function options(q: FeedQuery, type: FeedType, selfUrl: string): FeedOptions {
  const window = windowInput(q.since, q.until);
  return {
    type,
    threads: q.threads ?? 'separate',
    nocache: q.nocache ?? false,
    // The self link names the filters, so two filters never share a feed id, a cache entry or an ETag.
    selfUrl: withQuery(selfUrl, { ...filterParams(q), translate: q.translate }),
    filter: filterOf(q),
    titleStyle: q.title ?? 'text',
    since: q.since_id,
    ...(window ? { window } : {}),
    ...(q.translate ? { translate: q.translate } : {}),
  };
}

/** What a feed with a route on each surface (one post's conversation or quotes, a profile tab) says of itself. */
export interface PostFeedText {
  operationId: { v1: string; permalink: string };
  path: { v1: string; permalink: string };
  summary: { v1: string; permalink: string };
  /** The description both surfaces share (the v1 one adds `type`, the notes on filters and polling follow). */
  description: string;
  errors: CatalogCode[];
}

export function postFeedDecl<Q extends typeof permalinkPostFeedQuery, P extends z.ZodObject>(
  surface: 'v1' | 'permalink',
  query: Q,
  params: P,
  t: PostFeedText,
): RouteDecl<Q, P> {
  const v1 = surface === 'v1';
  return {
    operationId: t.operationId[surface],
    path: t.path[surface],
    surface,
    summary: t.summary[surface],
    description:
      t.description + (v1 ? ' `type` picks RSS 2.0, Atom 1.0 or JSON Feed 1.1.' : '') + FILTER_NOTE + POLLING,
    tags: [v1 ? 'feeds' : 'permalinks'],
    params,
    query,
    representations: [],
    keyAware: true,
    errors: t.errors,
    fixed: v1 ? ANY_TYPE : RSS_ONLY,
  };
}
