// Conditional requests (RFC 9110 §13) and negotiated compression for the public routes: every 200 to a
// GET or HEAD carries a strong ETag, a matching If-None-Match (or If-Modified-Since against a route's own
// Last-Modified) turns it into a bodyless 304, and bodies above a threshold are sent br or gzip. A finished body
// (a string or Buffer, every read) is encoded here through `encode` (codings.ts), the function the response store
// uses for its stored variants; @fastify/compress encodes what is left (streams: exports, the ones no hook sees whole).
import compress, { type FastifyCompressOptions } from '@fastify/compress';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { COMPRESS_THRESHOLD, COMPRESSIBLE, codingFor, codingsApply, encode, type Coding } from './codings.ts';
import { entityTagOf, mergeVary, noneMatchHit, tagFor304, withCoding } from './entity-tags.ts';

/** The 200 body a read's GET or HEAD was answered with, before any coding (kept for the response store). */
export interface SentBody {
  identity: string | Buffer;
  /** The identity body's tag (a coded body's tag is this one with the coding's suffix). */
  etag: string;
  /** The coded body that went out instead, when one did. */
  coded?: { coding: Coding; body: Buffer };
}

declare module 'fastify' {
  interface FastifyRequest {
    sentBody?: SentBody;
  }
}

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
  const coded = codingsApply(reply.getHeader('content-type'), Buffer.byteLength(payload));
  if (coded) reply.header('vary', mergeVary(reply.getHeader('vary') as string | undefined, 'Accept-Encoding'));
  const tag = notModifiedTag(req.headers, etag, reply.getHeader('last-modified'));
  if (tag !== undefined) return done(null, notModified(reply, tag));
  const sent: SentBody = { identity: payload, etag };
  req.sentBody = sent;
  const h = req.headers;
  const coding = coded ? codingFor(h['accept-encoding'], h['x-no-compression'] !== undefined) : undefined;
  if (coding === undefined) return done(null, payload);
  encode(payload, coding).then((body) => {
    sent.coded = { coding, body };
    // The compressor leaves a body that already has a coding alone; tagCoding gives it its own tag.
    reply.header('content-encoding', coding);
    done(null, body);
  }, done);
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
