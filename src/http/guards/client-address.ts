// The client address a request is rate-limited and logged under: one rule, compiled once per server from the
// trustProxy setting, used by the guards (through the Fastify request) and by the response layer's fast path
// (on the raw request, before Fastify). Fastify is given the very trust function the rule uses, so `req.ip`,
// `req.protocol` and `req.host` trust the same hops.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyRequest } from 'fastify';
import { isPlainIPv4 } from '../../stores/limits/client-key.ts';

/** The configured setting (config.ts): no proxy, a number of trusted hops, or trusted addresses / CIDR blocks. */
export type TrustProxy = false | number | string[];

type Trust = (addr: string, hop: number) => boolean;

export interface AddressRule {
  /** Fastify's trustProxy option for this setting. */
  trustProxy: false | Trust;
  /** The client address of a raw request. */
  addressOf: (raw: IncomingMessage) => string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's address rule (installed by buildServer), read by `clientAddress`. */
    addressRule?: AddressRule;
  }
}

/**
 * The address a request comes from: the furthest address the trusted proxies vouch for (X-Forwarded-For read
 * from the right, as Fastify reads it), or the socket's own. A forwarded value that is not an address
 * ("unknown", a hostname, junk a client put there when the proxy appends) must not become a rate-limit partition
 * of its own: the socket's address stands instead.
 */
export function addressRule(setting: TrustProxy): AddressRule {
  if (setting === false) return { trustProxy: false, addressOf: (raw) => raw.socket.remoteAddress };
  // A hop count as a function: Fastify's types take no number (its proxy-addr does the same with one).
  const trust: Trust =
    typeof setting === 'number' ? (_addr, hop) => hop < setting : proxyAddr.compile(setting.map((s) => s.trim()));
  return {
    trustProxy: trust,
    addressOf: (raw) => {
      const ip = proxyAddr(raw, trust);
      return isPlainIPv4(ip) || isIP(ip) ? ip : raw.socket.remoteAddress;
    },
  };
}

const SOCKET_ONLY = addressRule(false);

/** The client address of a request, by the rule of the server that received it. */
export function clientAddress(req: FastifyRequest): string {
  return (req.server.addressRule ?? SOCKET_ONLY).addressOf(req.raw) ?? req.ip;
}
