// Conventions every public route shares: GET/HEAD/OPTIONS only, CORS, and the reserved-path rule.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../../problems/problem.ts';
import { isReservedPath } from '../../contract/params/common.ts';
import { isRecord } from '../../contract/route-decl.ts';

export const PUBLIC_METHODS = 'GET, HEAD, OPTIONS';

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
};

const PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_HEADERS,
  'access-control-allow-methods': PUBLIC_METHODS,
  'access-control-allow-headers': 'Authorization, Accept, Content-Type, If-None-Match, If-Modified-Since',
  'access-control-max-age': '86400',
};

/**
 * Admin and operator paths: never granted to other origins, so a page elsewhere cannot read them even with a
 * token it got hold of (and probes and metrics are not a public API to begin with).
 */
export function isPrivatePath(url: string): boolean {
  return (
    url.startsWith('/admin') || url.startsWith('/healthz') || url.startsWith('/readyz') || url.startsWith('/metrics')
  );
}

/** Headers a browser script may read on /api/* responses. */
export const EXPOSED_HEADERS = [
  'Deprecation',
  'Sunset',
  'Link',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'X-Source',
  'X-Cache',
  'X-Converter',
  'X-Post-Count',
  'X-Warnings',
  'X-Browse-Resource',
  'X-Result-Count',
  'X-Api-Key-Status',
  'X-Request-Id',
  'ETag',
].join(', ');

/** A public route's `{handle}` that names one of the service's own paths: no such route. */
export function rejectReservedHandle(params: unknown): void {
  const handle = isRecord(params) ? params.handle : undefined;
  if (typeof handle === 'string' && isReservedPath(handle)) throw new Problem('route_not_found');
}

/** What a route answers a method it does not take; `allow` lists those it does (a public read's by default). */
export function methodNotAllowed(method: string, allow: string = PUBLIC_METHODS): Problem {
  return new Problem('method_not_allowed', `${method} is not accepted here.`, { headers: { allow } });
}

/** onRequest hook of every public route. */
export async function publicMethodGuard(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  rejectReservedHandle(req.params);
  const method = req.method;
  if (method === 'GET' || method === 'HEAD') return;
  if (method === 'OPTIONS') {
    reply.code(204).headers({
      allow: PUBLIC_METHODS,
      ...(isPrivatePath(req.url) ? {} : PREFLIGHT_HEADERS),
      'cache-control': 'public, max-age=86400',
    });
    await reply.send();
    return;
  }
  throw methodNotAllowed(method);
}
