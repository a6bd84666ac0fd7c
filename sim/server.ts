// The platform simulator: one node:http server that mounts the route modules under their prefixes,
// counts calls per target, applies armed faults, and exposes a small /__sim control surface so other
// processes (the demo, e2e runs) can steer it too.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getCorpus } from './corpus.ts';
import { appendPost, type NewSimPost } from './corpus-grow.ts';
import { applyFault, FaultBook, parseFault, type Fault } from './faults.ts';
import { routeModules } from './routes/index.ts';
import { mediaHostsFor } from './routes/media.ts';
import { json, type RouteModule, type SimResponse } from './routes/types.ts';

export interface Simulator {
  url: string;
  port: number;
  /** `${url}/fx` */
  fxtwitterUrl: string;
  /** `${url}/syndication` */
  syndicationUrl: string;
  /** `${url}/x/i/api` */
  xApiUrl: string;
  /** `${url}/x-web`: X's web app (home page, scripts) */
  xWebUrl: string;
  /** THREADMARK_MEDIA_HOSTS pointing X's media hosts at the simulator's media routes. */
  mediaHosts: string;
  /** Requests received by route modules, optionally filtered by target and path substring. */
  calls(filter?: { target?: string; path?: string }): number;
  /** Body bytes sent by route modules since the last reset, per target (the capacity model's upstream bytes). */
  bytesSent(target?: string): number;
  resetCalls(): void;
  addFault(f: Fault): void;
  clearFaults(): void;
  /** A new post in the corpus (POST /__sim/posts does the same over HTTP): a watched source changes. */
  appendPost(input: NewSimPost): string;
  close(): Promise<void>;
}

export interface CallRecord {
  target: string;
  method: string;
  /** Path and query string as received. */
  path: string;
}

const CONTROL = '/__sim';
const notFound = () => json(404, { code: 404, message: 'NOT_FOUND' });

function moduleFor(path: string): RouteModule | undefined {
  return routeModules.find((m) => path === m.prefix || path.startsWith(`${m.prefix}/`));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  /**
   * How long an idle connection stays open (default 1 s). Node's HTTP client does not reuse a connection whose server
   * announces a keep-alive of one second or less, so by default every upstream call opens a connection of its own.
   */
  keepAliveTimeoutMs?: number;
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const corpus = getCorpus();
  const faults = new FaultBook();
  let log: CallRecord[] = [];
  let sent = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();

  const matching = (filter: { target?: string; path?: string } = {}) =>
    log.filter((c) => (!filter.target || c.target === filter.target) && (!filter.path || c.path.includes(filter.path)));
  const count = (filter?: { target?: string; path?: string }) => matching(filter).length;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  function send(req: IncomingMessage, res: ServerResponse, r: SimResponse, target?: string) {
    if (res.destroyed || res.headersSent) return;
    const body = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body;
    if (target) sent.set(target, (sent.get(target) ?? 0) + body.length);
    res.writeHead(r.status, { ...r.headers, 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  async function control(req: IncomingMessage, url: URL): Promise<SimResponse> {
    const route = `${req.method} ${url.pathname.slice(CONTROL.length)}`;
    if (route === 'GET /calls') {
      const filter = {
        target: url.searchParams.get('target') ?? undefined,
        path: url.searchParams.get('path') ?? undefined,
      };
      const calls = matching(filter);
      return json(200, { count: calls.length, calls });
    }
    if (route === 'POST /faults') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readBody(req));
      } catch {
        return json(400, { error: 'body must be JSON' });
      }
      const fault = parseFault(parsed);
      if (typeof fault === 'string') return json(400, { error: fault });
      faults.add(fault);
      return json(201, { ok: true });
    }
    if (route === 'POST /posts') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readBody(req));
      } catch {
        return json(400, { error: 'body must be JSON' });
      }
      const made = appendPost(corpus, (parsed ?? {}) as Parameters<typeof appendPost>[1]);
      if (typeof made === 'string') return json(400, { error: made });
      return json(201, { id: made.id });
    }
    if (route === 'DELETE /faults') {
      faults.clear();
      return { status: 204, headers: {}, body: '' };
    }
    if (route === 'POST /reset') {
      faults.clear();
      log = [];
      sent = new Map();
      return { status: 204, headers: {}, body: '' };
    }
    return notFound();
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sim.local');
    if (url.pathname === CONTROL || url.pathname.startsWith(`${CONTROL}/`))
      return send(req, res, await control(req, url));
    const mod = moduleFor(url.pathname);
    if (!mod) return send(req, res, notFound());
    const fullPath = url.pathname + url.search;
    log.push({ target: mod.target, method: req.method ?? 'GET', path: fullPath });
    const body = await readBody(req);
    const render = async (): Promise<SimResponse> =>
      (await mod.handle(
        {
          method: req.method ?? 'GET',
          path: url.pathname.slice(mod.prefix.length) || '/',
          query: url.searchParams,
          headers: req.headers,
          body,
        },
        { corpus },
      )) ?? notFound();
    const fault = faults.take(mod.target, fullPath);
    if (fault) {
      return applyFault(fault, { req, res, query: url.searchParams, render, send: (r) => send(req, res, r), sleep });
    }
    send(req, res, await render(), mod.target);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      send(req, res, json(500, { code: 500, message: 'SIMULATOR_ERROR', detail: String(err) }));
    });
  });
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host && opts.host !== '0.0.0.0' && opts.host !== '::' ? opts.host : '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url,
    port,
    fxtwitterUrl: `${url}/fx`,
    syndicationUrl: `${url}/syndication`,
    xApiUrl: `${url}/x/i/api`,
    xWebUrl: `${url}/x-web`,
    mediaHosts: mediaHostsFor(url),
    calls: count,
    bytesSent: (target) => (target ? (sent.get(target) ?? 0) : [...sent.values()].reduce((a, b) => a + b, 0)),
    resetCalls: () => {
      log = [];
      sent = new Map();
    },
    addFault: (f) => faults.add(f),
    clearFaults: () => faults.clear(),
    appendPost: (input) => {
      const made = appendPost(corpus, input);
      if (typeof made === 'string') throw new Error(made);
      return made.id;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close((err) => (err ? reject(err) : resolve()));
        // Held 'timeout' requests and idle keep-alive sockets would otherwise keep close() waiting.
        server.closeAllConnections();
      }),
  };
}
