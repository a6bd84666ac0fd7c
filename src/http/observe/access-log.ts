// One access line per exchange, written when the response has gone out (exchanges.ts), in place of Fastify's two
// lines (incoming + completed; the completed one has no URL). 304s log at debug, as cache hits do: they are the
// bulk of traffic, so at the default level they cost a level check instead of a serialised, synchronously written
// line (the metrics still count them). The hit path's own answers write no line at all: it is off whenever debug
// lines are (http/responses/layer.ts).
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { clientAddress } from '../guards/client-address.ts';

type Level = 'debug' | 'info' | 'error';

/** Fastify's log controller without its incoming line (the access line below says it all, once). */
export class QuietIncoming extends LogController {
  override incomingRequest(): void {}
}

export function accessLine(req: FastifyRequest, reply: FastifyReply, ms: number, error: Error | undefined): void {
  const status = reply.statusCode;
  const cache = reply.getHeader('x-cache');
  const level: Level = error ? 'error' : status === 304 || (status < 300 && cache === 'hit') ? 'debug' : 'info';
  const log = reply.log as FastifyReply['log'] & { isLevelEnabled?: (l: string) => boolean };
  if (log.isLevelEnabled && !log.isLevelEnabled(level)) return;
  log[level](
    {
      method: req.method,
      url: req.url,
      status,
      ms: Math.round(ms * 10) / 10,
      ...(typeof cache === 'string' ? { cache } : {}),
      ip: clientAddress(req),
      ...(error ? { err: error } : {}),
    },
    error ? 'request errored' : 'request',
  );
}
