// How the command reaches the service: over HTTP to a running instance, or in-process by injecting requests
// into an app built from the same configuration (same domain code, embedded stores, no port).
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { Readable } from 'node:stream';
import { ConfigError, loadConfig } from '../config.ts';
import { PACKAGED_DOCS_URL } from '../packaged-docs.ts';
import { CliError, EXIT, usageError } from './exit.ts';

/** Query parameters as the commands fill them (undefined = not sent). */
export type Query = Record<string, string | undefined>;

/** The request half of a fetch, as the typed client calls it. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface Transport {
  /** Where requests go, for messages. */
  readonly target: string;
  /** The service's public base, for links in what the command renders itself (vault notes). */
  readonly baseUrl: string;
  /** The base URL the typed client sends to, and the fetch that carries its requests there. */
  readonly requestBase: string;
  readonly fetch: Fetch;
  close(): Promise<void>;
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
  return {
    target: root,
    baseUrl: root,
    requestBase: root,
    fetch: (input, init) => fetch(input, init),
    async close() {},
  };
}

/** Where in-process output links when no THREADMARK_BASE_URL says where a service runs. */
export const X_BASE = 'https://x.com';

export interface InProcessOptions {
  /** Where the service's log lines go; unset = no logging (they would interleave with the output on stdout). */
  logTo?: NodeJS.WritableStream;
}

/**
 * Where in-process runs keep their state (keys, watches, secrets): the user's state directory
 * (`$XDG_STATE_HOME/threadmark`, else `~/.local/state/threadmark`), not whatever directory the command runs in.
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_STATE_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'state'), 'threadmark');
}

/** The reliability reference under a documentation URL: a page on a site, a Markdown file in a folder. */
export function reliabilityPage(docs: string): string {
  return `${docs}/reliability${docs.startsWith('file:') ? '.md' : ''}`;
}

export async function inProcessTransport(env: NodeJS.ProcessEnv, opts: InProcessOptions = {}): Promise<Transport> {
  let config;
  try {
    if (!env.THREADMARK_KEYS_DB) {
      const dir = stateDir(env);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      env = { ...env, THREADMARK_KEYS_DB: join(dir, 'keys.db') };
    }
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError('config', e.message, EXIT.usage);
    throw e;
  }
  // Nothing listens at the default base (http://localhost:PORT) in-process: without THREADMARK_BASE_URL, links go
  // to X's own permalinks, whose paths the service's mirror (/{handle}, /{handle}/status/{id}, /{handle}/followers).
  const baseUrl = env.THREADMARK_BASE_URL ? config.baseUrl : X_BASE;
  // Nor does anything serve /docs there: problems link the documentation setting, else the packaged guides.
  const docs = config.docsUrl ?? (env.THREADMARK_BASE_URL ? `${config.baseUrl}/docs` : PACKAGED_DOCS_URL);
  const served = `${baseUrl}/docs/reliability#`;
  const linked = `${reliabilityPage(docs)}#`;
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
  return {
    target: 'in-process',
    baseUrl: config.baseUrl,
    requestBase: IN_PROCESS_BASE,
    fetch: injectFetch(app.server, served === linked ? undefined : { served, linked }),
    close: () => app.close(),
  };
}

/** The typed client's base in-process: any http URL does, only the path and query reach the app. */
const IN_PROCESS_BASE = 'http://in-process.invalid';

type Injector = Awaited<ReturnType<typeof import('../compose.ts').composeRuntime>>['server'];

/** Problem links as the in-process app writes them, and as the command gives them. */
interface DocsLinks {
  served: string;
  linked: string;
}

/** A problem document's links to the reliability reference, pointed at documentation that exists. */
function relinkProblem(body: string, docs: DocsLinks): string {
  let problem: unknown;
  try {
    problem = JSON.parse(body);
  } catch {
    return body;
  }
  if (typeof problem !== 'object' || problem === null || Array.isArray(problem)) return body;
  const out: Record<string, unknown> = { ...problem };
  for (const k of ['type', 'documentation_url']) {
    const v = out[k];
    if (typeof v === 'string' && v.startsWith(docs.served)) out[k] = docs.linked + v.slice(docs.served.length);
  }
  return JSON.stringify(out);
}

/** A fetch answered by injecting the request into the app: no socket, the same routes and hooks. */
function injectFetch(server: Injector, docs?: DocsLinks): Fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    init?.signal?.throwIfAborted();
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const res = await server.inject({ method: 'GET', url: url.pathname + url.search, headers, payloadAsStream: true });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : String(v));
    }
    const empty = res.statusCode === 204 || res.statusCode === 304;
    const link = out.get('link');
    if (docs && res.statusCode >= 400 && link?.includes(docs.served)) {
      out.set('link', link.replaceAll(docs.served, docs.linked));
      if (/json/.test(out.get('content-type') ?? '')) {
        const text = relinkProblem(await new Response(Readable.toWeb(res.stream()) as ReadableStream).text(), docs);
        out.delete('content-length');
        return new Response(text, { status: res.statusCode, headers: out });
      }
    }
    const body = empty ? null : (Readable.toWeb(res.stream()) as ReadableStream<Uint8Array>);
    return new Response(body, { status: res.statusCode, headers: out });
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
