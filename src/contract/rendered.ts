// What a route answers with, before Fastify sends it. A leaf module: presenters and the services type read it
// without reaching the route kernel.
import type { FeedType } from '../domain/feeds.ts';

export interface Rendered {
  status?: number;
  body: string;
  /** `body` already encoded as UTF-8 (memoised renders): sent instead of it, so a hit skips the encoding. */
  bytes?: Buffer;
  contentType: string;
  headers: Record<string, string>;
  /** Sent instead of `body` as it is produced (an export): the status and headers go out first. */
  stream?: NodeJS.ReadableStream;
}

/** A serialized feed and its validators: what a poll needs, so it can be kept and reused. */
export interface SerializedFeed {
  type: FeedType;
  body: string;
  etag: string;
  lastModified?: string;
  ttlS: number;
  count: number;
  /** Link header of the feed: its WebSub hub and itself. */
  links?: string;
}
