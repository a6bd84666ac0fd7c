// The fast path of the response layer: a request the response store holds a current answer for is answered from
// it in the server's request listener, before Fastify builds its request, with the per-request fields filled in
// (X-Request-Id, and the RateLimit fields from the guards' own `rateLimitHeaders`) after api-ip is charged by the
// guards' own limiter to the guards' own client address, and counted in the metrics. Everything else, and every
// case the stored answer cannot vouch for, goes through the normal path (Fastify), which stores answers
// (recorder.ts):
//   - an answer is used only while every cache entry it depends on is still the same and still fresh. In process
//     that is checked and api-ip charged synchronously; with Redis both happen in one scripted round trip
//     (stores/stored-response-check.ts), so every instance sees every other's refreshes and charges;
//   - conditional requests, Authorization, X-No-Compression and compressed answers never take it (store.ts);
//   - a client that would be refused (429) goes through the guards, which answer and count it;
//   - debug access logging or a draining server turn it off.
// The profile of the normal path (bench/RESULTS.md) is spread thin over routing, hooks, validation, header
// building and the promise chain; this path does a map lookup, a limiter charge and one write of the stored
// header block (node-adapter.ts) and body.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Guards } from '../guards/guards.ts';
import { rateLimitHeaders } from '../../stores/limits/headers.ts';
import type { LimitState } from '../../stores/limits/policies.ts';
import type { StoredResponseCheck } from '../../stores/stored-response-check.ts';
import { nextRequestId } from '../observe/request-id.ts';
import { DATE_SLOT, RawHead, httpDate } from './node-adapter.ts';
import { PER_REQUEST } from './recorder.ts';
import { answerKey, type AnswerStore, type StoredAnswer } from './store.ts';

/** Synchronous reads of the in-process cache (MemoryCache.getNow). */
export interface SyncCache {
  getNow(key: string): { freshUntil: number } | undefined;
}

export interface FastPathOptions {
  /** In process: synchronous cache reads (the guards then charge api-ip synchronously too). */
  cache?: SyncCache;
  /** Distributed: one Redis round trip per answer. */
  shared?: StoredResponseCheck;
  /** The guards the normal path runs: their limiter, partition rule and api-ip state. */
  guards: Guards;
  /** The client address rule the guards use (http/client-address.ts). */
  addressOf: (raw: IncomingMessage) => string | undefined;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

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

  /**
   * Takes `req` when a stored answer may answer it: true when it answered or will answer (in distributed mode
   * after one round trip, handing the request to `fallback` if the answer turns out stale or the client is over
   * its allowance); false when the normal path must answer it now.
   */
  serve(req: IncomingMessage, res: ServerResponse, fallback: Listener): boolean {
    if (!this.enabled) return false;
    const key = answerKey(req);
    if (key === undefined) return false;
    const stored = this.#store.get(key);
    if (!stored) return false;
    const started = performance.now();
    if (Date.now() >= stored.freshUntil) {
      this.#store.delete(key);
      return false;
    }
    const address = this.#opts.addressOf(req);
    if (address === undefined) return false;
    const { cache, shared, guards } = this.#opts;
    if (cache) {
      for (const [k, entry] of stored.deps) {
        if (cache.getNow(k) !== entry) {
          this.#store.delete(key);
          return false;
        }
      }
      const state = guards.chargeApiIpNow(address);
      if (!state) return false;
      this.#answer(stored, state, res, started);
      return true;
    }
    if (!shared) return false;
    shared.check(guards.partitionOf(address), stored.stamps).then(
      (got) => {
        if (got === 'changed') this.#store.delete(key);
        if (typeof got === 'string') return fallback(req, res);
        this.#answer(stored, guards.apiIpCharged(got.consumed, got.ttlMs), res, started);
      },
      // Redis unreachable: the normal path knows how to degrade.
      () => fallback(req, res),
    );
    return true;
  }

  #answer(stored: StoredAnswer, state: LimitState, res: ServerResponse, started: number): void {
    const id = nextRequestId();
    const fields = this.#fields.of(state);
    if (!stored.head?.apply(res, slotValues(stored.head.slots, id, fields))) {
      const headers = this.#headers(stored, id, fields);
      res.writeHead(200, headers);
      // An answer taken from a closing exchange learns the keep-alive block from its first keep-alive use.
      stored.head ??= RawHead.split(
        res,
        stored.names,
        stored.names.map((n) => headers[n]!),
        PER_REQUEST,
      );
    }
    res.end(stored.body);
    this.served++;
    stored.series.add((performance.now() - started) / 1000);
  }

  #headers(stored: StoredAnswer, id: string, fields: Record<string, string>): OutgoingHttpHeaders {
    const out: OutgoingHttpHeaders = {};
    for (let i = 0; i < stored.names.length; i++) {
      const name = stored.names[i]!;
      out[name] = PER_REQUEST.has(name) ? perRequest(name, id, fields) : stored.values[i];
    }
    return out;
  }
}

const slotScratch: string[] = [];

/** The values of `slots` for one answer, in order (in a shared array: RawHead.apply reads it at once). */
function slotValues(slots: readonly string[], id: string, fields: Record<string, string>): string[] {
  slotScratch.length = slots.length;
  for (let i = 0; i < slots.length; i++) slotScratch[i] = perRequest(slots[i]!, id, fields);
  return slotScratch;
}

/** One per-request value: the request id, Date, or a RateLimit field as the guards write it. */
function perRequest(slot: string, id: string, fields: Record<string, string>): string {
  if (slot === 'x-request-id') return id;
  if (slot === DATE_SLOT) return httpDate(Date.now());
  return fields[FIELD_NAME.get(slot)!]!;
}
