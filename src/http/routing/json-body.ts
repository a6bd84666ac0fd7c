// The only routes that take a body (admin, MCP) read it as JSON whatever its declared type, so a client's
// missing or odd Content-Type never decides whether a request is understood.
import type { FastifyInstance } from 'fastify';
import { Problem } from '../../problems/problem.ts';

/**
 * `malformed`, when given, becomes the body of a request whose JSON does not parse, for a route that answers that
 * in its own protocol (MCP's JSON-RPC parse error); otherwise such a request is 400 invalid_body.
 */
export function parseEveryBodyAsJson(scope: FastifyInstance, opts: { malformed?: symbol } = {}): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      if (opts.malformed) return done(null, opts.malformed);
      done(new Problem('invalid_body', 'The body is not well-formed JSON.'), undefined);
    }
  });
}
