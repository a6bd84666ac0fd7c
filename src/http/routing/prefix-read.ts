// URL-prefix reads: `/https://x.com/alice/status/1` (or `/x.com/alice`, percent-encoded or raw, a mirror's or a
// Nitter-style link) reads what the link names. The request is rerouted before Fastify's router to the matching
// permalink route, so it is negotiated, cached, limited and answered exactly as that route answers; the answer
// adds `Link: <permalink>; rel="canonical"`. Not an HTTP redirect: one round trip, and the pasted URL keeps
// working where a client does not follow redirects. A link to any other host is refused, never fetched.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { isRefusal, parseLink, permalinkOf } from '../../domain/pasted-link.ts';
import type { Problem } from '../../problems/problem.ts';
import { DomainError } from '../../domain/errors.ts';
import { toProblem } from '../failures/problem-of.ts';

const PREFIX = Symbol('threadmark.prefixRead');

type Marked = IncomingMessage & { [PREFIX]?: { permalink: string } | { problem: Problem } };

/** A first path segment that reads as a host name (`x.com`, `nitter.example.org:8080`). */
const HOST_SEGMENT = /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*\.?(:[0-9]{1,5})?$/i;

/** Names of files browsers and crawlers ask any host for: a missing one stays 404, not a refused link. */
const FILE_SUFFIX = /\.(txt|json|xml|ico|png|jpe?g|gif|svg|webp|css|js|html?|map|webmanifest)$/i;

function decoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/**
 * The pasted link a request path carries, or undefined when the path is one of this service's own. `reserved`
 * holds the first segments of the service's own routes that look like host names (llms.txt, openapi.json).
 */
export function prefixedLink(rawUrl: string, reserved: ReadonlySet<string>): string | undefined {
  if (plainFirstSegment(rawUrl)) return undefined;
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const outer = q < 0 ? '' : rawUrl.slice(q + 1);
  let body = path.slice(1);
  // A link pasted percent-encoded (`/https%3A%2F%2Fx.com%2F…`) is read once decoded; its own query may be in it.
  if (body.includes('%')) body = decoded(body) ?? body;
  const first = body.split('/')[0] ?? '';
  const schemed = /^https?:\//i.test(body);
  const host = HOST_SEGMENT.test(first) && !FILE_SUFFIX.test(first) && !reserved.has(first.toLowerCase());
  if (!schemed && !host) return undefined;
  if (!outer) return body;
  return body + (body.includes('?') ? '&' : '?') + outer;
}

/**
 * Whether the first path segment can be neither a host name nor a scheme, nor turn into one once decoded: no dot,
 * no percent sign, not starting with `http`. Every request is asked this before routing, so the common case is
 * a character scan that allocates nothing.
 */
function plainFirstSegment(rawUrl: string): boolean {
  const n = rawUrl.length;
  let i = 1;
  for (; i < n; i++) {
    const c = rawUrl.charCodeAt(i);
    if (c === 47 || c === 63) break; // '/' or '?'
    if (c === 46 || c === 37) return false; // '.' or '%'
  }
  if (i < 5) return true;
  const lower = (at: number) => rawUrl.charCodeAt(at) | 32;
  return lower(1) !== 104 || lower(2) !== 116 || lower(3) !== 116 || lower(4) !== 112; // 'http'
}

/** Where a pasted link is read on this service: its permalink path and query, or the problem that refuses it. */
export function prefixTarget(link: string): { permalink: string } | { problem: Problem } {
  const target = parseLink(link, 'mirrors');
  if (!isRefusal(target)) {
    const query = new URL(/^https?:\//i.test(link) ? link : `https://${link}`).searchParams;
    return { permalink: permalinkOf(target, query) };
  }
  return { problem: toProblem(new DomainError({ kind: 'refused_link', refusal: target })) };
}

/** Fastify's rewriteUrl: a prefixed link is routed as its permalink; a refused one keeps its path and is marked. */
export function prefixRewriter(reserved: ReadonlySet<string>): (req: IncomingMessage) => string {
  return (req) => {
    const url = req.url ?? '/';
    const link = prefixedLink(url, reserved);
    if (link === undefined) return url;
    const out = prefixTarget(link);
    (req as Marked)[PREFIX] = out;
    return 'permalink' in out ? out.permalink : url;
  };
}

/** onRequest: a refused prefix read answers its problem before any route runs (and before any fetch). */
export function prefixRefusalHook(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  const mark = (req.raw as Marked)[PREFIX];
  if (mark && 'problem' in mark) return done(mark.problem);
  done();
}

/** The permalink a prefix read was routed to, if this request is one. */
export function prefixPermalink(req: FastifyRequest): string | undefined {
  const mark = (req.raw as Marked)[PREFIX];
  return mark && 'permalink' in mark ? mark.permalink : undefined;
}

/** onSend: a prefix read names the permalink it read as canonical, unless the route already named one. */
export function canonicalLinkHook(baseUrl: string): onSendHookHandler {
  return (req, reply, payload, done) => {
    const permalink = prefixPermalink(req);
    if (permalink !== undefined) {
      const existing = reply.getHeader('link');
      const links = existing === undefined ? [] : [existing].flat().map(String);
      if (!links.some((l) => /rel="?canonical"?/.test(l))) {
        links.push(`<${baseUrl.replace(/\/$/, '')}${permalink}>; rel="canonical"`);
        reply.header('link', links.join(', '));
      }
    }
    done(null, payload);
  };
}
