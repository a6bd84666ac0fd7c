// How the command reaches the service: over HTTP to a running instance, or in-process by injecting requests
// into an app built from the same configuration (same domain code, embedded stores, no port).
import { ConfigError, loadConfig } from '../config.ts';
import { CliError, EXIT, usageError } from './exit.ts';

export interface Reply {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
}

export type Query = Record<string, string | undefined>;

/** A response whose body is read as it arrives (an export). */
export interface StreamReply {
  status: number;
  headers: Record<string, string>;
  body: AsyncIterable<Uint8Array | string>;
}

export interface Transport {
  /** Where requests go, for messages. */
  readonly target: string;
  /** The service's public base, for links in what the command renders itself (vault notes). */
  readonly baseUrl: string;
  get(path: string, query: Query, headers: Record<string, string>): Promise<Reply>;
  stream(path: string, query: Query, headers: Record<string, string>): Promise<StreamReply>;
  /** A keyed write (the watch routes): POST with a JSON body, or DELETE. */
  send(method: 'POST' | 'DELETE', path: string, body: unknown, headers: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

export function pathWithQuery(path: string, query: Query): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, v);
  const s = qs.toString();
  return s ? `${path}?${s}` : path;
}

export function httpTransport(server: string): Transport {
  let base: URL;
  try {
    base = new URL(server);
  } catch {
    throw usageError(`--server must be an http(s) URL (got ${JSON.stringify(server)})`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw usageError(`--server must be an http(s) URL (got ${JSON.stringify(server)})`);
  }
  const root = base.href.replace(/\/+$/, '');
  const send = async (path: string, query: Query, headers: Record<string, string>, init: RequestInit = {}) => {
    try {
      return await fetch(root + pathWithQuery(path, query), { headers, ...init });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(
        'unreachable',
        `cannot reach ${root} (${cause?.code ?? cause?.message ?? (e as Error).message})`,
        EXIT.failure,
      );
    }
  };
  const headersOf = (res: Response) => {
    const out: Record<string, string> = {};
    res.headers.forEach((v, k) => (out[k] = v));
    return out;
  };
  return {
    target: root,
    baseUrl: root,
    async get(path, query, headers) {
      const res = await send(path, query, headers);
      return { status: res.status, headers: headersOf(res), body: await res.text() };
    },
    async stream(path, query, headers) {
      const res = await send(path, query, headers);
      const body: AsyncIterable<Uint8Array> = res.body ?? (async function* () {})();
      return { status: res.status, headers: headersOf(res), body };
    },
    async send(method, path, body, headers) {
      const json = body === undefined ? {} : { body: JSON.stringify(body) };
      const res = await send(path, {}, { 'content-type': 'application/json', ...headers }, { method, ...json });
      return { status: res.status, headers: headersOf(res), body: await res.text() };
    },
    async close() {},
  };
}

/** Where in-process output links when no THREADMARK_BASE_URL says where a service runs. */
export const X_BASE = 'https://x.com';

export interface InProcessOptions {
  /** Where the service's log lines go; unset = no logging (they would interleave with the output on stdout). */
  logTo?: NodeJS.WritableStream;
}

export async function inProcessTransport(env: NodeJS.ProcessEnv, opts: InProcessOptions = {}): Promise<Transport> {
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError('config', e.message, EXIT.usage);
    throw e;
  }
  // Nothing listens at the default base (http://localhost:PORT) in-process: without THREADMARK_BASE_URL, links go
  // to X's own permalinks, whose paths the service's mirror (/{handle}, /{handle}/status/{id}, /{handle}/followers).
  const baseUrl = env.THREADMARK_BASE_URL ? config.baseUrl : X_BASE;
  config = { ...config, baseUrl };
  // Loaded lazily: server mode never pays for building the app (stores, providers, routes).
  const { composeRuntime } = await import('../compose.ts');
  // Problems reach the user as problem documents either way.
  const app = await composeRuntime(config, {
    // One command's process: the watched sources stay the running service's business.
    push: false,
    logger: opts.logTo ? { level: config.logLevel, stream: opts.logTo } : false,
  });
  await app.server.ready();
  const headersOf = (raw: Record<string, string | string[] | number | undefined>) => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
    return out;
  };
  return {
    target: 'in-process',
    baseUrl: config.baseUrl,
    async get(path, query, headers) {
      const res = await app.server.inject({ method: 'GET', url: pathWithQuery(path, query), headers });
      return { status: res.statusCode, headers: headersOf(res.headers), body: res.body };
    },
    async stream(path, query, headers) {
      const res = await app.server.inject({
        method: 'GET',
        url: pathWithQuery(path, query),
        headers,
        payloadAsStream: true,
      });
      return { status: res.statusCode, headers: headersOf(res.headers), body: res.stream() };
    },
    async send(method, path, body, headers) {
      const res = await app.server.inject({
        method,
        url: path,
        headers: { 'content-type': 'application/json', ...headers },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      return { status: res.statusCode, headers: headersOf(res.headers), body: res.body };
    },
    close: () => app.close(),
  };
}

/** `--server` wins over THREADMARK_SERVER; neither means in-process. */
export function openTransport(
  server: string | undefined,
  env: NodeJS.ProcessEnv,
  opts: InProcessOptions = {},
): Promise<Transport> {
  const url = server ?? (env.THREADMARK_SERVER || undefined);
  return url ? Promise.resolve(httpTransport(url)) : inProcessTransport(env, opts);
}
