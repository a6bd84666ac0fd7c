// Deprecation signals (RFC 9745, RFC 8594) on every response, success or error, GET or HEAD: of a legacy alias
// route, and of a request naming a deprecated parameter of a route that lives on.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIFECYCLE, PARAMETER_LIFECYCLE, type DeprecationDates } from '../../contract/lifecycle.ts';
import type { DeprecatedParam, Deprecation } from '../../contract/route-decl.ts';
import { isRecord } from '../../contract/route-decl.ts';

function policyLinks(baseUrl: string): string[] {
  const policy = `${baseUrl}${LIFECYCLE.policyPath}`;
  return [`<${policy}>; rel="deprecation"; type="text/html"`, `<${policy}>; rel="sunset"; type="text/html"`];
}

export function deprecationLinks(baseUrl: string, dep: Deprecation, query: Record<string, unknown>): string {
  const links = policyLinks(baseUrl);
  const successor = dep.resolve ? dep.resolve(query) : dep.successor;
  if (successor) links.push(`<${baseUrl}${successor}>; rel="successor-version"`);
  return links.join(', ');
}

function signal(reply: FastifyReply, dates: DeprecationDates, links: string): void {
  reply.header('deprecation', dates.deprecationHeader);
  reply.header('sunset', dates.sunsetHeader);
  const existing = reply.getHeader('link');
  reply.header('link', existing ? `${String(existing)}, ${links}` : links);
}

export function deprecationHook(baseUrl: string, dep: Deprecation) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    signal(reply, LIFECYCLE, deprecationLinks(baseUrl, dep, isRecord(req.query) ? req.query : {}));
    return payload;
  };
}

/** The request's URL with each deprecated parameter it names renamed to its successor (the successor's value wins). */
function successorUrl(baseUrl: string, url: string, named: readonly DeprecatedParam[]): string {
  const at = url.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
  for (const p of named) {
    const value = params.get(p.name);
    params.delete(p.name);
    if (value !== null && !params.has(p.successor)) params.set(p.successor, value);
  }
  const qs = params.toString();
  return `${baseUrl}${at < 0 ? url : url.slice(0, at)}${qs ? `?${qs}` : ''}`;
}

/**
 * Signals on the requests that name one of `params`. A deprecated route's own (earlier) dates stay when it has
 * them: only the successor link is added.
 */
export function parameterDeprecationHook(baseUrl: string, params: readonly DeprecatedParam[]) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const query = isRecord(req.query) ? req.query : {};
    const named = params.filter((p) => query[p.name] !== undefined);
    if (named.length === 0) return payload;
    const successor = `<${successorUrl(baseUrl, req.url, named)}>; rel="successor-version"`;
    if (reply.hasHeader('deprecation')) signal(reply, LIFECYCLE, successor);
    else signal(reply, PARAMETER_LIFECYCLE, [...policyLinks(baseUrl), successor].join(', '));
    return payload;
  };
}
