// Feeds every finished exchange (exchanges.ts), and every connection dropped before a request was parsed, to the
// metrics. The hit path counts its own answers in the series stored with them (http/responses/fast-path.ts).
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../ops/metrics.ts';
import type { ExchangeEnd } from './exchanges.ts';

export function countExchanges(metrics: Metrics): ExchangeEnd {
  return (req, reply, ms) => {
    const cache = reply.getHeader('x-cache');
    metrics.observe({
      // routeOptions.url is the declared pattern; unmatched requests (404) have none.
      route: req.routeOptions.url,
      method: req.method,
      status: reply.statusCode,
      durationS: ms / 1000,
      cache: typeof cache === 'string' ? cache : undefined,
      rejectedBy: req.rateStates?.find((s) => !s.allowed)?.policy,
    });
  };
}

/** Fastify answers these (408, 431, 400) itself; this listener only counts them. */
export function countClientErrors(app: FastifyInstance, metrics: Metrics): void {
  app.server.on('clientError', (err: NodeJS.ErrnoException) => metrics.clientError(err.code));
}
