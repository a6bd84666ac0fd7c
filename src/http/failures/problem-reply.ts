// The problem mapper: the only place that writes error responses (RFC 9457).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDomainError } from '../../domain/errors.ts';
import { anchorFor } from '../../problems/catalog.ts';
import { Problem, isProblem } from '../../problems/problem.ts';
import { domainProblem } from './domain-problem.ts';
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

/**
 * Any error as the problem to answer with. Invalid parameters never arrive here as Fastify validation errors: no
 * route carries a Fastify schema, the route kernel validates (contract/route-decl.ts validationProblem).
 */
export function toProblem(err: unknown): Problem {
  if (isProblem(err)) return err;
  if (isDomainError(err)) return domainProblem(err.failure);
  const fe = err as FastifyError;
  if (fe && fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return new Problem('invalid_body');
  // The body limit is the caller's doing, not ours: 413, not a 500 with a stack trace in the error log.
  if (fe && (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.statusCode === 413)) {
    return new Problem('request_too_large', 'The request body is over the 1 MiB this service accepts.', {
      status: 413,
    });
  }
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode === 400 && /json/i.test(fe.message ?? '')) {
    return new Problem('invalid_body');
  }
  return new Problem('internal_error', 'The service hit an unexpected error; the log has the details.');
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
