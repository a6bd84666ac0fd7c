// The service's one root logger. Fastify is given none of its own (server.ts): a Fastify logger makes the framework
// follow every response with listeners of its own, a cache hit included, so the service's request loggers
// (request-logger.ts) and the exchange lines (exchanges.ts) are made from this root instead. The serializers are
// those a log line that names a request, a reply or an error needs, so such a line never dumps a whole object.
import type { IncomingMessage } from 'node:http';
import { pino, type Logger } from 'pino';

interface Named {
  raw?: IncomingMessage;
  method?: string;
  url?: string;
}

const serializers = {
  req: (req: Named) => {
    const raw = req.raw ?? (req as IncomingMessage);
    return { method: raw.method, url: raw.url, remoteAddress: raw.socket?.remoteAddress };
  },
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
  err: pino.stdSerializers.err,
};

/** A root logger at `level` (silent = none), writing to `stream` or stdout. */
function serviceLog(level: string, stream?: NodeJS.WritableStream): Logger {
  const opts = { level, serializers };
  return stream ? pino(opts, stream as pino.DestinationStream) : pino(opts);
}

/**
 * The root logger for a server's `logger` setting (server.ts `ServerOptions`): silent when false, `level` when
 * absent or true, else the setting's own level and stream.
 */
export function serviceLogFor(
  setting: boolean | { level: string; stream?: NodeJS.WritableStream } | undefined,
  level: string,
): Logger {
  if (setting === false) return serviceLog('silent');
  if (setting === undefined || setting === true) return serviceLog(level);
  return serviceLog(setting.level, setting.stream);
}
