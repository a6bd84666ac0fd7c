// The only routes that take a body (admin, MCP) read it as JSON whatever its declared type, so a client's
// missing or odd Content-Type never decides whether a request is understood.
import type { FastifyInstance } from 'fastify';
import { Problem } from '../problems/problem.ts';

export function parseEveryBodyAsJson(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new Problem('invalid_body', 'The body is not well-formed JSON.'), undefined);
    }
  });
}
