// Cache-hit replay: the hot path of a read API, answered before Fastify's routing.
//
// When a public read is answered 200 entirely from fresh in-process cache entries, the exact status line,
// headers and body Fastify wrote are remembered, keyed by everything in the request that shapes the answer
// (method, raw URL, Accept, Accept-Encoding). The next identical request is answered from that record in the
// server's own request listener, with the per-request fields filled in (X-Request-Id and the RateLimit fields)
// after api-ip is charged exactly as the guards charge it, and counted in the metrics. Everything else, and
// every case the record cannot vouch for, goes through Fastify:
//   - a record lives only while every cache entry it was built from is still the same and still fresh (a
//     refresh or an eviction makes it stale at once), and within its own byte-bounded LRU. In process that is
//     checked and api-ip charged synchronously; with Redis both happen in one scripted round trip
//     (stores/shared-hit-check.ts), so every instance sees every other's refreshes and charges;
//   - an answer shaped by a passing upstream failure (a part that failed to load, a stale copy, a walk cut short)
//     is never recorded: it would be replayed past the failure, to clients a fresh read would answer in full;
//   - conditional requests, Authorization, X-No-Compression and compressed bodies are never replayed;
//   - a client that would be refused (429) goes through the guards, which answer and count it;
//   - debug access logging or a draining server turn it off.
// The profile of the normal path (bench/RESULTS.md) is spread thin over routing, hooks, validation, header
// building and the promise chain; this path does a map lookup, a limiter charge and one write of the recorded
// header block (http/raw-head.ts) and body.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { ExchangeSeries, Metrics } from '../ops/metrics.ts';
import { previewDecision, PREVIEW_HEADER } from '../contract/link-preview.ts';
import type { Limiter } from '../stores/limits/limiter.ts';
import { member } from '../stores/limits/headers.ts';
import { POLICIES, type LimitState } from '../stores/limits/policies.ts';
import type { SharedHitCheck } from '../stores/shared-hit-check.ts';
import { storedTail } from '../stores/cache/redis.ts';
import type { CacheEntry } from '../stores/cache/types.ts';
import { RawHead, httpDate, type Slot } from './raw-head.ts';
import { nextRequestId } from './request-id.ts';

/** Bound on remembered responses (bodies and headers), beside the render memo's own. */
export const REPLAY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Headers whose value is per request: filled in on every replay, in the position Fastify wrote them. A record
 * answers only requests charged to api-ip alone, so RateLimit-Policy and RateLimit-Limit are the same on every
 * one of them and are replayed as recorded.
 */
const PER_REQUEST: ReadonlySet<string> = new Set<Slot>([
  'x-request-id',
  'ratelimit',
  'ratelimit-remaining',
  'ratelimit-reset',
]);

/** Synchronous reads of the in-process cache (MemoryCache.getNow). */
export interface SyncCache {
  getNow(key: string): { freshUntil: number } | undefined;
}

interface Record_ {
  /** Header names in the order Fastify wrote them, and their values ('' for per-request ones). */
  names: string[];
  values: Array<string | number | string[]>;
  body: Buffer;
  /** The header block Node wrote, split around the per-request values (undefined: replayed with writeHead). */
  head: RawHead | undefined;
  /** Cache key, the entry object it was answered from, and the bytes that entry ends with in Redis. */
  deps: Deps;
  /** Cache key and stored tail, as the distributed check takes them. */
  stamps: Array<[string, string]>;
  freshUntil: number;
  /** Where its exchanges are counted (route, method, 200, hit). */
  series: ExchangeSeries;
}

export interface HitReplayOptions {
  /** In process: synchronous cache reads and api-ip charges. */
  sync?: { cache: SyncCache; limiter: Limiter };
  /** Distributed: one Redis round trip per replay. */
  shared?: SharedHitCheck;
  metrics: Metrics;
  /** The api-ip partition of a client address (the guards' own rule). */
  partitionOf: (ip: string) => string;
  /** The client address as Fastify computes it (trusted proxies included). */
  clientIp: (raw: IncomingMessage) => string | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The cache-hit replay in front of this server, or null when it is off. */
    hitReplay: HitReplay | null;
  }
}

const RECORDING = Symbol('threadmark.replay.recording');

type Deps = Array<[string, object, string]>;
type Raw = IncomingMessage & { [RECORDING]?: { route: string; deps: Deps; freshUntil: number } };
type Listener = (req: IncomingMessage, res: ServerResponse) => void;
const API_IP = POLICIES['api-ip'];

/** Request headers the replay key accounts for (User-Agent and X-Link-Preview through the crawler decision). */
const KEYED_VARY = new Set(['accept', 'accept-encoding', 'user-agent', PREVIEW_HEADER]);

/**
 * Whether every header a response varies on is one the replay key accounts for. A response varying on anything
 * else (or `*`) is never recorded, so a new Vary dimension cannot be replayed to the wrong caller.
 */
export function varyIsKeyed(vary: string | number | string[] | undefined): boolean {
  if (vary === undefined) return true;
  const names = (Array.isArray(vary) ? vary.join(',') : String(vary)).split(',');
  return names.every((n) => {
    const name = n.trim().toLowerCase();
    return name === '' || KEYED_VARY.has(name);
  });
}

function replayKey(req: IncomingMessage): string | undefined {
  const m = req.method;
  if (m !== 'GET' && m !== 'HEAD') return undefined;
  const h = req.headers;
  if (h.authorization !== undefined || h['if-none-match'] !== undefined || h['if-modified-since'] !== undefined)
    return undefined;
  if (h['x-no-compression'] !== undefined) return undefined;
  // Permalinks answer link-preview crawlers with HTML where others get Markdown, so whether the caller is one,
  // and how that was decided (register.ts), is part of what shapes the answer.
  const crawler = previewDecision(h);
  // The URL the client sent: a prefix read (http/prefix-read.ts) is rerouted, and answers with its own Link.
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url;
  return `${m} ${url}\n${h.accept ?? ''}\n${h['accept-encoding'] ?? ''}\n${crawler}`;
}

export class HitReplay {
  readonly #opts: HitReplayOptions;
  readonly #records = new LRUCache<string, Record_>({
    maxSize: REPLAY_MAX_BYTES,
    sizeCalculation: (r) => r.body.length + r.names.length * 64 + 256,
  });
  #enabled = true;
  /** Requests answered here (tests and the benchmark check that the path was taken). */
  served = 0;

  constructor(opts: HitReplayOptions) {
    this.#opts = opts;
  }

  /** Stops replaying (server draining, or a log level that wants every hit written). */
  disable(): void {
    this.#enabled = false;
    this.#records.clear();
  }

  get size(): number {
    return this.#records.size;
  }

  /**
   * Takes `req` when a record may answer it: true when it answered or will answer (in distributed mode after
   * one round trip, handing the request to `fallback` if the record turns out stale or the client is over its
   * allowance); false when Fastify must answer it now.
   */
  serve(req: IncomingMessage, res: ServerResponse, fallback: Listener): boolean {
    if (!this.#enabled || this.#records.size === 0) return false;
    const key = replayKey(req);
    if (key === undefined) return false;
    const rec = this.#records.get(key);
    if (!rec) return false;
    const started = performance.now();
    if (Date.now() >= rec.freshUntil) {
      this.#records.delete(key);
      return false;
    }
    const ip = this.#opts.clientIp(req);
    if (ip === undefined) return false;
    const partition = this.#opts.partitionOf(ip);
    const { sync, shared } = this.#opts;
    if (sync) {
      for (const [k, entry] of rec.deps) {
        if (sync.cache.getNow(k) !== entry) {
          this.#records.delete(key);
          return false;
        }
      }
      const state = sync.limiter.consumeNow('api-ip', partition, 1, true);
      if (!state?.allowed) return false;
      this.#answer(rec, state, res, started);
      return true;
    }
    if (!shared) return false;
    shared.check(partition, rec.stamps).then(
      (got) => {
        if (got === 'changed') this.#records.delete(key);
        if (typeof got === 'string') return fallback(req, res);
        const state: LimitState = {
          allowed: true,
          policy: 'api-ip',
          limit: API_IP.quota,
          windowS: API_IP.windowS,
          remaining: Math.max(0, API_IP.quota - got.consumed),
          resetS: Math.min(API_IP.windowS, Math.max(1, Math.ceil(got.ttlMs / 1000))),
        };
        this.#answer(rec, state, res, started);
      },
      // Redis unreachable: the normal path knows how to degrade.
      () => fallback(req, res),
    );
    return true;
  }

  #answer(rec: Record_, state: LimitState, res: ServerResponse, started: number): void {
    const id = nextRequestId();
    if (!rec.head?.apply(res, slotValues(rec.head.slots, id, state))) {
      const headers = this.#headers(rec, id, state);
      res.writeHead(200, headers);
      // A record taken from a closing exchange learns the keep-alive block from its first keep-alive replay.
      rec.head ??= RawHead.split(
        res,
        rec.names,
        rec.names.map((n) => headers[n]!),
        PER_REQUEST,
      );
    }
    res.end(rec.body);
    this.served++;
    rec.series.add((performance.now() - started) / 1000);
  }

  #headers(rec: Record_, id: string, state: LimitState): OutgoingHttpHeaders {
    const out: OutgoingHttpHeaders = {};
    for (let i = 0; i < rec.names.length; i++) {
      const name = rec.names[i]!;
      out[name] = PER_REQUEST.has(name) ? perRequest(name as Slot, id, state) : rec.values[i];
    }
    return out;
  }

  /**
   * onSend of every request: a 200 answered only from fresh cache entries, charged to api-ip alone, is
   * recorded from what Fastify then writes on the wire (after every other hook, compression included).
   */
  mark(req: FastifyRequest, reply: FastifyReply): void {
    if (!this.#enabled || reply.statusCode !== 200 || !req.cacheHits?.length) return;
    // Only what a fresh read would answer again: a failed or stale part would be replayed past its failure.
    if (req.degraded) return;
    const states = req.rateStates;
    if (states?.length !== 1 || states[0]!.policy !== 'api-ip' || !states[0]!.allowed) return;
    if (reply.getHeader('x-cache') !== 'hit') return;
    const raw = req.raw as Raw;
    const key = replayKey(raw);
    if (key === undefined || this.#records.has(key)) return;
    const route = req.routeOptions.url;
    if (route === undefined) return;
    let freshUntil = Number.POSITIVE_INFINITY;
    const deps: Deps = [];
    for (const [k, entry, until] of req.cacheHits) {
      const e = entry as Partial<Record<'storedAt' | 'freshUntil' | 'staleUntil', unknown>>;
      if (typeof e.storedAt !== 'number' || typeof e.freshUntil !== 'number' || typeof e.staleUntil !== 'number')
        return;
      deps.push([k, entry, storedTail(e as CacheEntry)]);
      freshUntil = Math.min(freshUntil, until);
    }
    raw[RECORDING] = { route, deps, freshUntil };
    this.#capture(key, raw, reply.raw);
  }

  /** Wraps this one response's writeHead and end to copy exactly what goes out. */
  #capture(key: string, raw: Raw, res: ServerResponse): void {
    // Borrowed unbound on purpose: they are called with the response as `this` and put back afterwards.
    /* eslint-disable @typescript-eslint/unbound-method */
    const writeHead = res.writeHead;
    const end = res.end;
    /* eslint-enable @typescript-eslint/unbound-method */
    let written: { status: number; headers: OutgoingHttpHeaders } | undefined;
    res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      const headers = rest.find((a) => typeof a === 'object' && a !== null) as OutgoingHttpHeaders | undefined;
      written = { status, headers: { ...(headers ?? {}) } };
      return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
    };
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      res.writeHead = writeHead;
      res.end = end;
      const info = raw[RECORDING];
      raw[RECORDING] = undefined;
      if (info && written) this.#record(key, raw.method!, written, chunk, info, res);
      return (end as (...a: unknown[]) => ServerResponse).call(res, chunk, ...rest);
    }) as typeof res.end;
  }

  #record(
    key: string,
    method: string,
    written: { status: number; headers: OutgoingHttpHeaders },
    chunk: unknown,
    info: { route: string; deps: Deps; freshUntil: number },
    res: ServerResponse,
  ): void {
    if (written.status !== 200) return;
    const body = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : undefined;
    if (!body) return;
    const h = written.headers;
    // Encoded, closing or refused responses are never replayed; neither is one without its RateLimit fields.
    if (h['content-encoding'] !== undefined || h.connection !== undefined || h['retry-after'] !== undefined) return;
    if (h['set-cookie'] !== undefined || h['transfer-encoding'] !== undefined || h.ratelimit === undefined) return;
    if (!varyIsKeyed(h.vary)) return;
    const names = Object.keys(h);
    const values = names.map((n) => (PER_REQUEST.has(n) ? '' : h[n]!));
    if (values.some((v) => v === undefined)) return;
    const stamps = info.deps.map(([k, , tail]): [string, string] => [k, tail]);
    this.#records.set(key, {
      names,
      values,
      body,
      head: RawHead.split(
        res,
        names,
        names.map((n) => h[n]!),
        PER_REQUEST,
      ),
      deps: info.deps,
      stamps,
      freshUntil: info.freshUntil,
      series: this.#opts.metrics.series(info.route, method, 200, 'hit'),
    });
  }
}

const slotScratch: string[] = [];

/** The values of `slots` for one replay, in order (in a shared array: RawHead.apply reads it at once). */
function slotValues(slots: readonly Slot[], id: string, state: LimitState): string[] {
  slotScratch.length = slots.length;
  for (let i = 0; i < slots.length; i++) slotScratch[i] = perRequest(slots[i]!, id, state);
  return slotScratch;
}

/** One per-request value, as Fastify's hooks write it (rateLimitHeaders for a single api-ip state). */
function perRequest(slot: Slot, id: string, state: LimitState): string {
  switch (slot) {
    case 'x-request-id':
      return id;
    case 'ratelimit':
      return member(state.policy, 'r', state.remaining, 't', state.resetS);
    case 'ratelimit-remaining':
      return String(state.remaining);
    case 'ratelimit-reset':
      return String(state.resetS);
    case 'date':
      return httpDate(Date.now());
  }
}

/**
 * Fastify's own client address for a raw request: the `ip` getter of its Request prototype (built from the
 * trustProxy option), borrowed so the replay can never disagree with the guards. Undefined when this Fastify
 * does not expose it, which turns the replay off.
 */
export function fastifyClientIp(app: FastifyInstance): ((raw: IncomingMessage) => string | undefined) | undefined {
  const sym = Object.getOwnPropertySymbols(app).find((s) => s.description === 'fastify.Request');
  const Request = sym ? (app as unknown as Record<symbol, { prototype?: object }>)[sym] : undefined;
  let proto = Request?.prototype;
  let getter: (() => unknown) | undefined;
  while (proto && !getter) {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called below with a request-shaped `this`
    getter = Object.getOwnPropertyDescriptor(proto, 'ip')?.get;
    proto = Object.getPrototypeOf(proto) as object | undefined;
  }
  if (!getter) return undefined;
  const ip = getter;
  return (raw) => {
    const v = ip.call({ raw, socket: raw.socket });
    return typeof v === 'string' ? v : undefined;
  };
}

/**
 * Puts `replay` in front of Fastify's request listener. Called once the server is built; the listener is the
 * one Fastify registered, so routing, hooks and errors are untouched for every request not replayed.
 */
export function installReplay(app: FastifyInstance, replay: HitReplay): void {
  const server = app.server;
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (listeners.length !== 1) return replay.disable();
  const fastify = listeners[0]!;
  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!replay.serve(req, res, fastify)) fastify(req, res);
  });
}
