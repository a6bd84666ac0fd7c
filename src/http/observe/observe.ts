// Feeds every finished exchange, and every connection dropped before a request was parsed, to the metrics.
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../ops/metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The series an exchange already known before it ends is counted in (the response layer's hit path sets it:
     * route, method, status and cache result are those of the stored answer), so it is not classified again.
     */
    observer?: { add(durationS: number): void };
  }
}

export function observeRequests(app: FastifyInstance, metrics: Metrics): void {
  // Callback style: this runs on every response, and an async hook costs a promise each time.
  app.addHook('onResponse', (req, reply, done) => {
    const known = req.observer;
    if (known !== undefined) {
      known.add(reply.elapsedTime / 1000);
      return done();
    }
    const cache = reply.getHeader('x-cache');
    try {
      metrics.observe({
        // routeOptions.url is the declared pattern; unmatched requests (404) have none.
        route: req.routeOptions.url,
        method: req.method,
        status: reply.statusCode,
        durationS: reply.elapsedTime / 1000,
        cache: typeof cache === 'string' ? cache : undefined,
        rejectedBy: req.rateStates?.find((s) => !s.allowed)?.policy,
      });
      done();
    } catch (err) {
      done(err as Error);
    }
  });
  // Fastify answers these (408, 431, 400) itself; this listener only counts them.
  app.server.on('clientError', (err: NodeJS.ErrnoException) => metrics.clientError(err.code));
}
