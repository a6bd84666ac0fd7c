// The problem mapper: the only place that writes error responses (RFC 9457).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { anchorFor } from '../../problems/catalog.ts';
import { Problem } from '../../problems/problem.ts';
import { toProblem } from './problem-of.ts';
import { problemMediaType } from '../negotiation/negotiate.ts';
import { isRecord } from '../../contract/route-decl.ts';

export function docsUrlFor(baseUrl: string, code: string): string {
  return `${baseUrl}/docs/reliability#${anchorFor(code)}`;
}

export function problemBody(baseUrl: string, p: Problem, requestId?: string): Record<string, unknown> {
  const doc = docsUrlFor(baseUrl, p.code);
  return {
    type: doc,
    title: p.title,
    status: p.status,
    code: p.code,
    detail: p.detail,
    resolution: p.resolution,
    documentation_url: doc,
    ...(requestId ? { request_id: requestId } : {}),
    ...p.extensions,
  };
}

export function sendProblem(req: FastifyRequest, reply: FastifyReply, baseUrl: string, err: unknown): FastifyReply {
  const p = toProblem(err);
  if (p.code === 'internal_error') req.log.error({ err }, 'internal error');
  reply.code(p.status);
  reply.header(
    'content-type',
    `${problemMediaType(isRecord(req.query) ? req.query.format : undefined, req.headers)}; charset=utf-8`,
  );
  reply.header('cache-control', 'no-store');
  reply.header('link', `<${docsUrlFor(baseUrl, p.code)}>; rel="help"; type="text/html"`);
  for (const [k, v] of Object.entries(p.headers)) reply.header(k, v);
  return reply.send(JSON.stringify(problemBody(baseUrl, p, String(req.id))));
}

/** Fastify's `frameworkErrors`: a path that is not URL syntax is no route; an overlong segment a bad request. */
export function frameworkErrorHandler(
  baseUrl: string,
): (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => void {
  return (err, req, reply) => {
    const p =
      err.code === 'FST_ERR_BAD_URL'
        ? new Problem('route_not_found', 'The path is not valid URL syntax.')
        : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new Problem('bad_request', 'A path segment is longer than 1000 characters.')
          : err;
    sendProblem(req, reply, baseUrl, p);
  };
}

/** The not-found handler of a server: `what` names what it routes (a route, an operator route). */
export function notFoundHandler(
  baseUrl: string,
  what: string,
): (req: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (req, reply) =>
    sendProblem(
      req,
      reply,
      baseUrl,
      new Problem('route_not_found', `No ${what} ${req.method} ${req.url.split('?')[0]}.`),
    );
}
