// Socket-level timeouts, so a slow or idle client cannot hold a connection (and its memory) indefinitely.
import type { ServerOptions as HttpServerOptions } from 'node:http';

export interface ServerTimeouts {
  /** Whole request head must arrive within this (slowloris defence). Node answers 408 and closes. */
  headersMs: number;
  /** Whole request, head and body, must arrive within this. */
  requestMs: number;
  /**
   * A socket with no traffic in either direction for this long is destroyed (covers clients that stop reading
   * the response). Longer than any request may legitimately take, upstream retries included. Node's own
   * per-socket timer (the server's `timeout`, Fastify's `connectionTimeout`).
   */
  idleMs: number;
  /**
   * An idle keep-alive connection is closed after this. Behind a reverse proxy it must exceed the proxy's own
   * upstream idle timeout (nginx `keepalive_timeout` 60 s, most cloud balancers 60 s), so the proxy always
   * closes first and never reuses a socket the service is closing.
   */
  keepAliveMs: number;
  /** How often connections are swept for the header and request deadlines (their granularity). */
  checkIntervalMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 60_000,
  keepAliveMs: 65_000,
  checkIntervalMs: 1_000,
};

/** The timeouts in force: the defaults with the given ones over them. */
export function serverTimeouts(t: Partial<ServerTimeouts> = {}): ServerTimeouts {
  return { ...DEFAULT_TIMEOUTS, ...t };
}

/** Fastify options carrying the timeouts (Fastify applies the first three to the Node server it creates). */
export interface TimeoutOptions {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: HttpServerOptions;
}

export function timeoutOptions(v: ServerTimeouts): TimeoutOptions {
  return {
    connectionTimeout: v.idleMs,
    keepAliveTimeout: v.keepAliveMs,
    requestTimeout: v.requestMs,
    // Only settable when the server is created; Node requires headersTimeout <= requestTimeout.
    http: {
      headersTimeout: Math.min(v.headersMs, v.requestMs),
      requestTimeout: v.requestMs,
      connectionsCheckingInterval: v.checkIntervalMs,
    },
  };
}
