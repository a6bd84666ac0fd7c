// The client address a request is rate-limited and logged under.
import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * `req.ip` when it is an IP address, else the socket's own address. Behind a trusted proxy `req.ip` comes from
 * X-Forwarded-For, where a value that is not an address ("unknown", a hostname, junk a client put there when the
 * proxy appends) must not become a rate-limit partition of its own.
 */
export function clientAddress(req: FastifyRequest): string {
  const ip = req.ip;
  if (isIP(ip)) return ip;
  return req.socket?.remoteAddress ?? ip;
}
