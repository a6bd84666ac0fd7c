// One access line per exchange, written when the response has gone out, in place of Fastify's two lines
// (incoming + completed; the completed one has no URL). Successful cache hits and 304s are the hot path and the
// bulk of traffic: they log at debug, so at the default level they cost a level check instead of a serialised,
// synchronously written line (the metrics still count them).
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { clientAddress } from '../guards/client-address.ts';

type Level = 'debug' | 'info' | 'error';

export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
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
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ...(typeof cache === 'string' ? { cache } : {}),
        ip: clientAddress(req),
        ...(error ? { err: error } : {}),
      },
      error ? 'request errored' : 'request',
    );
  }
}
