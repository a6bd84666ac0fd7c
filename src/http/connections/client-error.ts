// Requests Node's HTTP parser rejects never reach Fastify's routing or error handler; this answers them on the
// raw socket, still with a catalog problem document, so a malformed request line, an unknown method, an
// oversized head or a slow client gets the same kind of body as every other error.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Problem } from '../../problems/problem.ts';
import { CORS_HEADERS, PUBLIC_METHODS } from '../routing/conventions.ts';
import { docsUrlFor, problemBody } from '../failures/problem-reply.ts';
import { nextRequestId } from '../observe/request-id.ts';

/** The problem for one parser error code (llhttp `HPE_*`, or Node's own timeout). */
export function clientErrorProblem(code: string | undefined): Problem {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new Problem('request_timeout', 'The request head or body did not arrive in time.');
    case 'HPE_HEADER_OVERFLOW':
      return new Problem('request_too_large', 'The request line and headers exceed the size this service accepts.');
    case 'HPE_INVALID_METHOD':
      return new Problem('method_not_allowed', 'The method is not one this service accepts.', {
        headers: { allow: PUBLIC_METHODS },
      });
    default:
      return new Problem(
        'bad_request',
        'The request could not be parsed as HTTP/1.1 (request line, target or headers).',
      );
  }
}

/** The latest response begun on each connection, for the client-error handler of its server. */
const latest = new WeakMap<Socket, ServerResponse>();

/** Remembers each connection's latest response (the parser error of a pipelined request may follow one). */
export function trackResponses(server: Server): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => latest.set(req.socket, res));
}

export function clientErrorHandler(baseUrl: string): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    // A reset or closed socket has nobody to answer; a response already on the wire must not get a second head.
    const pending = latest.get(socket);
    if (err.code === 'ECONNRESET' || socket.destroyed || !socket.writable || (pending && !pending.writableFinished)) {
      socket.destroy();
      return;
    }
    writeProblem(socket, baseUrl, clientErrorProblem(err.code));
  };
}

/**
 * Node hands CONNECT requests to a 'connect' listener and, without one, drops the connection unanswered;
 * this service proxies nothing, so it answers 405 like any other method it does not take.
 */
export function connectHandler(baseUrl: string): (req: unknown, socket: Socket) => void {
  return (_req, socket) => {
    if (socket.destroyed || !socket.writable) return;
    writeProblem(socket, baseUrl, clientErrorProblem('HPE_INVALID_METHOD'));
  };
}

function writeProblem(socket: Socket, baseUrl: string, p: Problem): void {
  const body = JSON.stringify(problemBody(baseUrl, p, nextRequestId()));
  const headers: Record<string, string> = {
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    link: `<${docsUrlFor(baseUrl, p.code)}>; rel="help"; type="text/html"`,
    connection: 'close',
    ...CORS_HEADERS,
    ...p.headers,
  };
  const head = [
    `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status] ?? 'Error'}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
