// A feed document as a response: the serializer for the asked type, strong validators, and the conditional
// check that lets a poller's unchanged feed cost a 304 with no body.
import type { IncomingHttpHeaders } from 'node:http';
import type { FeedDoc, FeedType } from '../../domain/feeds.ts';
import type { CacheStatus } from '../../domain/sourced.ts';
import { renderAtom } from '../../render/feed/atom.ts';
import { renderJsonFeed } from '../../render/feed/json-feed.ts';
import { renderRss } from '../../render/feed/rss.ts';
import { rfc822 } from '../../render/feed/xml.ts';
import { entityTagOf } from '../negotiation/entity-tags.ts';
import { notModifiedTag } from '../negotiation/conditional.ts';
import type { Rendered, SerializedFeed } from '../../contract/rendered.ts';
import { headerSafe } from './common.ts';
import { browseCacheControl } from './lists.ts';

export const FEED_MEDIA_TYPES: Record<FeedType, string> = {
  rss: 'application/rss+xml',
  atom: 'application/atom+xml',
  json: 'application/feed+json',
};

const SERIALIZERS: Record<FeedType, (doc: FeedDoc) => string> = {
  rss: renderRss,
  atom: renderAtom,
  json: renderJsonFeed,
};

export interface FeedPresentContext {
  source: string;
  cache: CacheStatus;
  warnings: string[];
  keyStatus: string;
  keyed: boolean;
  headers: IncomingHttpHeaders;
}

/** Estimated bytes of a remembered feed (UTF-16 worst case for the body). */
export function serializedFeedSize(f: SerializedFeed): number {
  return f.body.length * 2 + 64;
}

/** `links` rewrites the serialized feed's media URLs (the media proxy) before its validators are taken. */
export function serializeFeed(
  doc: FeedDoc,
  type: FeedType,
  links: (text: string) => string = (t) => t,
): SerializedFeed {
  const body = links(SERIALIZERS[type](doc));
  return {
    type,
    body,
    etag: entityTagOf(body),
    ...(doc.updated ? { lastModified: rfc822(doc.updated) } : {}),
    ttlS: doc.ttlS,
    count: doc.entries.length,
    ...(doc.hubUrl ? { links: `<${doc.hubUrl}>; rel="hub", <${doc.selfUrl}>; rel="self"` } : {}),
  };
}

export function presentFeed(feed: SerializedFeed, ctx: FeedPresentContext): Rendered {
  const validators: Record<string, string> = {
    etag: feed.etag,
    ...(feed.lastModified ? { 'last-modified': feed.lastModified } : {}),
    'cache-control': browseCacheControl(ctx.keyed, feed.ttlS),
    vary: 'Authorization',
    ...(feed.links ? { link: feed.links } : {}),
  };
  const tag = notModifiedTag(ctx.headers, feed.etag, feed.lastModified);
  if (tag !== undefined) {
    // No Content-Type: a 304 repeats the validators and caching fields only.
    return { status: 304, body: '', contentType: '', headers: { ...validators, etag: tag } };
  }
  return {
    body: feed.body,
    contentType: `${FEED_MEDIA_TYPES[feed.type]}; charset=utf-8`,
    headers: {
      ...validators,
      'x-source': ctx.source,
      'x-cache': ctx.cache,
      'x-result-count': String(feed.count),
      'x-api-key-status': ctx.keyStatus,
      ...(ctx.warnings.length ? { 'x-warnings': headerSafe(ctx.warnings.join('; ')) } : {}),
    },
  };
}
