// Conditional requests (RFC 9110 §13) and negotiated compression for the public routes: every 200 to a
// GET or HEAD carries a strong ETag, a matching If-None-Match (or If-Modified-Since against a route's own
// Last-Modified) turns it into a bodyless 304, and bodies above a threshold are sent br or gzip.
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { entityTagOf, mergeVary, noneMatchHit, tagFor304, withCoding } from './entity-tags.ts';

/** Below this many bytes compression costs more than it saves (most problem documents stay under it). */
export const COMPRESS_THRESHOLD = 1024;

/** Text, JSON and XML flavours; never event streams. The compressor and the Vary decision share it. */
export const COMPRESSIBLE = /^(?:text\/(?!event-stream)|[^;]*[/+](?:json|xml)\s*(?:;|$))/i;

const COMPRESSION: FastifyCompressOptions = {
  encodings: ['br', 'gzip'],
  threshold: COMPRESS_THRESHOLD,
  customTypes: COMPRESSIBLE,
  // The public surface takes no request bodies; admin routes live outside this scope anyway.
  globalDecompression: false,
};

type Done = (err: Error | null, payload?: unknown) => void;

function notModified(reply: FastifyReply, etag: string): null {
  reply.code(304);
  reply.header('etag', etag);
  // A 304 carries the validators and caching fields of the 200, not its representation metadata.
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return null;
}

function isUnmodifiedSince(lastModified: unknown, since: string): boolean {
  if (typeof lastModified !== 'string') return false;
  const lm = Date.parse(lastModified);
  const ims = Date.parse(since);
  return Number.isFinite(lm) && Number.isFinite(ims) && lm <= ims;
}

/**
 * The one conditional-request decision (RFC 9110 §13.2.2): If-None-Match, when present, decides alone; otherwise
 * If-Modified-Since against the response's Last-Modified. Returns the tag a 304 must carry, or undefined to send
 * the body. Routes that answer their own 304 (feeds) ask it too.
 */
export function notModifiedTag(headers: IncomingHttpHeaders, etag: string, lastModified: unknown): string | undefined {
  const inm = headers['if-none-match'];
  if (inm !== undefined) {
    const hit = noneMatchHit(inm, etag);
    return hit === undefined ? undefined : tagFor304(etag, hit);
  }
  const ims = headers['if-modified-since'];
  return ims !== undefined && isUnmodifiedSince(lastModified, ims) ? etag : undefined;
}

/**
 * Runs before the compressor, on the identity bytes. A tag set by the route (feeds set their own) is kept.
 * Callback style on purpose: this is on the cache-hit hot path and an async hook costs a promise per request.
 */
function validate(req: FastifyRequest, reply: FastifyReply, payload: unknown, done: Done): void {
  if (reply.statusCode !== 200 || (req.method !== 'GET' && req.method !== 'HEAD')) return done(null, payload);
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  let etag = reply.getHeader('etag');
  if (typeof etag !== 'string') {
    etag = entityTagOf(payload);
    reply.header('etag', etag);
  }
  const type = reply.getHeader('content-type');
  if (typeof type === 'string' && COMPRESSIBLE.test(type) && Buffer.byteLength(payload) >= COMPRESS_THRESHOLD) {
    reply.header('vary', mergeVary(reply.getHeader('vary') as string | undefined, 'Accept-Encoding'));
  }
  const tag = notModifiedTag(req.headers, etag, reply.getHeader('last-modified'));
  done(null, tag === undefined ? payload : notModified(reply, tag));
}

/** Runs after the compressor: an encoded body is its own representation and gets its own strong tag. */
function tagCoding(_req: FastifyRequest, reply: FastifyReply, payload: unknown, done: Done): void {
  const coding = reply.getHeader('content-encoding');
  if (reply.statusCode === 200 && typeof coding === 'string') {
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string') reply.header('etag', withCoding(etag, coding));
    // The compressor appends its own lower-case token; keep one, spelled like the others.
    reply.header('vary', mergeVary(reply.getHeader('vary') as string | undefined, 'Accept-Encoding'));
  }
  done(null, payload);
}

function appendOnSend(route: RouteOptions, hook: typeof tagCoding): void {
  const existing = route.onSend ? [route.onSend].flat() : [];
  route.onSend = [...existing, hook] as RouteOptions['onSend'];
}

/**
 * Registers `routes` in a scope with compression and conditional requests. The scope matters twice:
 * the compressor only wraps routes declared after it has loaded, and private routes (admin, MCP) stay out.
 */
export function withConditionalRequests(app: FastifyInstance, routes: (scope: FastifyInstance) => void): void {
  app.register(async (scope) => {
    await scope.register(compress, COMPRESSION);
    scope.addHook('onSend', validate);
    // Added after the compressor's own onRoute hook, so tagCoding lands after its onSend.
    scope.addHook('onRoute', (route) => appendOnSend(route, tagCoding));
    routes(scope);
  });
}
