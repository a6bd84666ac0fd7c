// A one-time warning that forwarding headers arrive while THREADMARK_TRUST_PROXY is off.
import type { FastifyRequest } from 'fastify';

interface WarnLog {
  warn(obj: object, msg: string): void;
}

/**
 * Behind a proxy the service does not trust, every caller has the proxy's address: one wrong-token lockout then
 * shuts every operator out. Only worth saying when the admin routes are on and no proxy is trusted; says it once,
 * on the first request carrying X-Forwarded-For or Forwarded. Undefined when there is nothing to watch for.
 */
export function untrustedForwardingWatch(
  opts: { adminToken?: string; trustProxy: false | number | string[] },
  log: WarnLog,
): ((req: FastifyRequest) => void) | undefined {
  if (!opts.adminToken || opts.trustProxy !== false) return undefined;
  let warned = false;
  return (req) => {
    if (warned) return;
    const h = req.headers;
    if (h['x-forwarded-for'] === undefined && h.forwarded === undefined) return;
    warned = true;
    log.warn(
      { socket: req.socket?.remoteAddress },
      'requests carry X-Forwarded-For/Forwarded but THREADMARK_TRUST_PROXY is off: if a proxy is in front, every client shares its address for rate limits and the admin-token lockout (ten wrong tokens from anyone lock every operator out); set THREADMARK_TRUST_PROXY to the proxy',
    );
  };
}
