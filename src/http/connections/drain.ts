// Graceful drain: once close() starts, the listener stops accepting (Fastify), requests already in flight run to
// completion, and their connections are closed after the response instead of idling in keep-alive. Without
// this, server.close() waits for every idle keep-alive socket to time out (keepAliveTimeout, about a minute)
// and the shutdown deadline in main.ts kills the process first.
import type { FastifyInstance } from 'fastify';
import type { ExchangeEnd } from '../observe/exchanges.ts';

/** Installs the drain's hooks on `app`, and returns the part that follows each finished exchange (exchanges.ts). */
export function drainOnClose(app: FastifyInstance): ExchangeEnd {
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
  });
  // Callback style: these run on every response, and an async hook costs a promise each time.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });
  // A response whose headers went out before the drain began: drop its connection as soon as it is idle.
  return () => {
    if (draining) setImmediate(() => app.server.closeIdleConnections());
  };
}
