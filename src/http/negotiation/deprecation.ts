// Deprecation signals on legacy aliases: every response, success or error, GET or HEAD (RFC 9745, RFC 8594).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LIFECYCLE } from '../../contract/lifecycle.ts';
import type { Deprecation } from '../../contract/route-decl.ts';
import { isRecord } from '../../contract/route-decl.ts';

export function deprecationLinks(baseUrl: string, dep: Deprecation, query: Record<string, unknown>): string {
  const policy = `${baseUrl}${LIFECYCLE.policyPath}`;
  const links = [`<${policy}>; rel="deprecation"; type="text/html"`, `<${policy}>; rel="sunset"; type="text/html"`];
  const successor = dep.resolve ? dep.resolve(query) : dep.successor;
  if (successor) links.push(`<${baseUrl}${successor}>; rel="successor-version"`);
  return links.join(', ');
}

export function deprecationHook(baseUrl: string, dep: Deprecation) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    reply.header('deprecation', LIFECYCLE.deprecationHeader);
    reply.header('sunset', LIFECYCLE.sunsetHeader);
    const existing = reply.getHeader('link');
    const ours = deprecationLinks(baseUrl, dep, isRecord(req.query) ? req.query : {});
    reply.header('link', existing ? `${String(existing)}, ${ours}` : ours);
    return payload;
  };
}
