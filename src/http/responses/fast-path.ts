// The hit path of the response layer: the first onRequest hook of the server. A request the response store holds a
// current answer for is answered from it there, in whichever coding the client accepts, and the request ends
// (`reply.hijack()`, then `writeHead(200, fields)` and `end(bytes)` on the response: no further hook, no handler).
// The per-request fields are filled in (X-Request-Id, and the RateLimit fields from the guards' own
// `rateLimitHeaders`) after api-ip is charged by the guards' own limiter to the guards' own client address, and the
// exchange is counted in the metrics here: nothing follows a hit's response (no listener, no onResponse hook,
// http/observe/exchanges.ts). Every other request, and every case the stored answer cannot vouch for,
// continues through the lifecycle (the normal path), which stores answers (recorder.ts):
//   - an answer is used only while every cache entry it depends on is still the same and still fresh. In process
//     that is checked and api-ip charged synchronously (the entries looked up again only once the cache has changed
//     or a second has passed); with Redis both happen in one scripted round trip
//     (stores/stored-response-check.ts), so every instance sees every other's refreshes and charges;
//   - conditional and keyed (Authorization) requests never take it (store.ts);
//   - a coding no client has asked for yet is made once (`encode`, http/negotiation/codings.ts) and kept, then
//     answered;
//   - a client that would be refused (429) goes through the guards, which answer and count it;
//   - debug access logging or a draining server turn it off.
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { rateLimitHeaders } from '../../stores/limits/headers.ts';
import type { LimitState } from '../../stores/limits/policies.ts';
import type { StoredResponseCheck } from '../../stores/stored-response-check.ts';
import { codingFor, encode, type Coding } from '../negotiation/codings.ts';
import {
  answerKey,
  PER_REQUEST,
  variantOf,
  type AnswerStore,
  type Observer,
  type StoredAnswer,
  type Variant,
} from './store.ts';

/** Synchronous reads of the in-process cache (MemoryCache.getNow and its generation). */
export interface SyncCache {
  getNow(key: string): { freshUntil: number } | undefined;
  readonly generation: number;
}

/**
 * How long a hit may go on trusting an unchanged cache generation without looking its dependencies up: the lookups
 * also keep them recent in the cache's LRU order, so a hot answer's entries are not evicted under it.
 */
const RECHECK_MS = 1000;

export interface FastPathOptions {
  /** In process: synchronous cache reads (the guards then charge api-ip synchronously too). */
  cache?: SyncCache;
  /** Distributed: one Redis round trip per answer. */
  shared?: StoredResponseCheck;
  /** The guards the normal path runs: their limiter, partition rule and api-ip state. */
  guards: {
    chargeApiIpNow(address: string): LimitState | undefined;
    apiIpCharged(consumed: number, msLeft: number): LimitState;
    partitionOf(address: string): string;
  };
  /** The client address rule the guards use (http/guards/client-address.ts). */
  addressOf: (raw: IncomingMessage) => string | undefined;
  /** The metrics series of a hit on `route` by `method` (a 200 from the store). */
  observerOf: (route: string | undefined, method: 'GET' | 'HEAD') => Observer;
}

type Done = () => void;

/** The name `rateLimitHeaders` gives each per-request field, by the lower-case name Fastify writes it under. */
const FIELD_NAME = new Map(
  Object.keys(
    rateLimitHeaders([{ allowed: true, policy: 'api-ip', limit: 1, windowS: 1, remaining: 1, resetS: 1 }]),
  ).map((name) => [name.toLowerCase(), name]),
);
for (const name of PER_REQUEST) {
  if (name !== 'x-request-id' && !FIELD_NAME.has(name)) throw new Error(`rateLimitHeaders writes no ${name} field`);
}

/**
 * The RateLimit fields of api-ip states, as `rateLimitHeaders` writes them, by remaining points and seconds to the
 * reset: hits within the same second mostly share one state, so its strings are built once rather than per
 * answer (fewer allocations on the path that must allocate least). Bounded; cleared if the policy's figures change.
 */
class FieldMemo {
  readonly #fields = new Map<number, Record<string, string>>();
  #limit = -1;
  #windowS = -1;

  of(state: LimitState): Record<string, string> {
    if (state.limit !== this.#limit || state.windowS !== this.#windowS || this.#fields.size >= MEMO_MAX) {
      this.#fields.clear();
      this.#limit = state.limit;
      this.#windowS = state.windowS;
    }
    const key = state.remaining * 2 ** 22 + state.resetS;
    let fields = this.#fields.get(key);
    if (!fields) {
      fields = rateLimitHeaders([state]);
      this.#fields.set(key, fields);
    }
    return fields;
  }
}

const MEMO_MAX = 4096;

export class FastPath {
  readonly #store: AnswerStore;
  readonly #opts: FastPathOptions;
  readonly #fields = new FieldMemo();
  /** Requests answered here (tests and the benchmark check that the path was taken). */
  served = 0;
  enabled = true;

  constructor(store: AnswerStore, opts: FastPathOptions) {
    this.#store = store;
    this.#opts = opts;
  }

  /** The onRequest hook (callback style: an async hook costs a promise per request). */
  readonly hook: onRequestHookHandler = (req, reply, done) => {
    if (!this.enabled) return done();
    const key = answerKey(req);
    if (key === undefined) return done();
    const stored = this.#store.get(key);
    if (!stored) return done();
    // Taken once the request is known to be a hit: a miss is timed by the hook that follows it (exchanges.ts).
    const started = performance.now();
    const now = Date.now();
    if (now >= stored.freshUntil) {
      this.#store.delete(key);
      return done();
    }
    const address = this.#opts.addressOf(req.raw);
    if (address === undefined) return done();
    const h = req.headers;
    const coding = stored.codable ? codingFor(h['accept-encoding'], h['x-no-compression'] !== undefined) : undefined;
    const variant = coding === undefined ? stored.identity : stored.coded[coding];
    if (variant) return this.#serve(req, reply, done, key, stored, variant, address, now, started);
    this.#make(key, stored, coding!).then(
      (made) => this.#serve(req, reply, done, key, stored, made, address, Date.now(), started),
      () => done(),
    );
  };

  /** The coded variant of `stored`, made once, and counted in the store's budget once made. */
  #make(key: string, stored: StoredAnswer, coding: Coding): Promise<Variant> {
    return (stored.making[coding] ??= encode(stored.identity.body, coding).then(
      (body) => {
        const made = variantOf(stored.fields, coding, body);
        stored.coded[coding] = made;
        delete stored.making[coding];
        // Stored again so the budget counts the new bytes (unless it was dropped or replaced meanwhile).
        if (this.#store.peek(key) === stored) this.#store.set(key, stored);
        return made;
      },
      (err: unknown) => {
        delete stored.making[coding];
        throw err;
      },
    ));
  }

  #serve(
    req: FastifyRequest,
    reply: FastifyReply,
    done: Done,
    key: string,
    stored: StoredAnswer,
    variant: Variant,
    address: string,
    now: number,
    started: number,
  ): void {
    const { cache, shared, guards } = this.#opts;
    if (cache) {
      const checked = stored.checked;
      if (checked === undefined || checked.generation !== cache.generation || now - checked.at >= RECHECK_MS) {
        for (const [k, entry] of stored.deps) {
          if (cache.getNow(k) !== entry) {
            this.#store.delete(key);
            return done();
          }
        }
        // Read after the lookups, which may themselves have expired something.
        stored.checked = { generation: cache.generation, at: now };
      }
      const state = guards.chargeApiIpNow(address);
      if (!state) return done();
      return this.#answer(req, reply, stored, variant, state, started);
    }
    if (!shared) return done();
    shared.check(guards.partitionOf(address), stored.stamps).then(
      (got) => {
        if (got === 'changed') this.#store.delete(key);
        if (typeof got === 'string') return done();
        this.#answer(req, reply, stored, variant, guards.apiIpCharged(got.consumed, got.ttlMs), started);
        // A drain begun during the round trip: the connection goes as soon as this answer has left it.
        if (!this.enabled) setImmediate(() => req.server.server.closeIdleConnections());
      },
      // Redis unreachable: the normal path knows how to degrade.
      () => done(),
    );
  }

  #answer(
    req: FastifyRequest,
    reply: FastifyReply,
    stored: StoredAnswer,
    variant: Variant,
    state: LimitState,
    started: number,
  ): void {
    const fields = this.#fields.of(state);
    // The head is handed to writeHead at once, which copies it: its per-request values can be filled in place.
    const head = variant.head;
    for (const [at, name] of variant.slots) {
      head[at] = name === 'x-request-id' ? String(req.id) : fields[FIELD_NAME.get(name)!]!;
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, head);
    const method = req.method as 'GET' | 'HEAD';
    res.end(method === 'HEAD' ? undefined : variant.body);
    this.served++;
    // Counted in the stored answer's series (route, method, status and cache result are its own), for the time it
    // took to hand the answer to the socket.
    (stored.observers[method] ??= this.#opts.observerOf(stored.route, method)).add(
      (performance.now() - started) / 1000,
    );
  }
}
