// The recorder: in onSend of every request, the normal path offers its answer to the response store. Stored is
// only what a fresh read would answer again, exactly as Fastify then writes it on the wire (after every other
// hook, compression included):
//   - a 200 answered entirely from fresh cache entries (`req.dependsOn`), kept only while every one of them is
//     still the same and still fresh (a refresh or an eviction makes it stale at once);
//   - never an answer shaped by a passing upstream failure (`req.degraded`: a part that failed to load, a stale
//     copy, a walk cut short): the fast path would serve it past the failure, to clients a fresh read would
//     answer in full;
//   - charged to api-ip alone, uncompressed, not closing, without cookies, varying only on what the key holds.
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Metrics } from '../../ops/metrics.ts';
import { storedTail } from '../../stores/cache/redis.ts';
import type { CacheEntry } from '../../stores/cache/types.ts';
import { RawHead, captureWrite, type Written } from './node-adapter.ts';
import { answerKey, varyIsKeyed, type AnswerStore, type Dependencies } from './store.ts';

/**
 * Headers whose value is per request: filled in on every answer, in the position Fastify wrote them. An answer
 * is stored only for requests charged to api-ip alone, so RateLimit-Policy and RateLimit-Limit are the same on
 * every one of them and are kept as recorded.
 */
export const PER_REQUEST: ReadonlySet<string> = new Set([
  'x-request-id',
  'ratelimit',
  'ratelimit-remaining',
  'ratelimit-reset',
]);

interface Pending {
  key: string;
  method: string;
  route: string;
  deps: Dependencies;
  freshUntil: number;
}

export class Recorder {
  readonly #store: AnswerStore;
  readonly #metrics: Metrics;
  readonly #on: () => boolean;

  constructor(store: AnswerStore, metrics: Metrics, on: () => boolean) {
    this.#store = store;
    this.#metrics = metrics;
    this.#on = on;
  }

  /** onSend: records what goes out when the answer may be stored. */
  onSend(req: FastifyRequest, reply: FastifyReply): void {
    if (reply.statusCode !== 200 || !req.dependsOn?.length || !this.#on()) return;
    if (req.degraded) return;
    const states = req.rateStates;
    if (states?.length !== 1 || states[0]!.policy !== 'api-ip' || !states[0]!.allowed) return;
    if (reply.getHeader('x-cache') !== 'hit') return;
    const key = answerKey(req.raw);
    if (key === undefined || this.#store.has(key)) return;
    const route = req.routeOptions.url;
    if (route === undefined) return;
    let freshUntil = Number.POSITIVE_INFINITY;
    const deps: Dependencies = [];
    for (const [k, entry, until] of req.dependsOn) {
      const e = entry as Partial<Record<'storedAt' | 'freshUntil' | 'staleUntil', unknown>>;
      if (typeof e.storedAt !== 'number' || typeof e.freshUntil !== 'number' || typeof e.staleUntil !== 'number')
        return;
      deps.push([k, entry, storedTail(e as CacheEntry)]);
      freshUntil = Math.min(freshUntil, until);
    }
    const pending: Pending = { key, method: req.raw.method!, route, deps, freshUntil };
    const res = reply.raw;
    captureWrite(res, (written) => this.#keep(pending, written, res));
  }

  #keep(p: Pending, written: Written, res: ServerResponse): void {
    if (written.status !== 200) return;
    const chunk = written.chunk;
    const body = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : undefined;
    if (!body) return;
    const h: OutgoingHttpHeaders = written.headers;
    // Encoded, closing or refused responses are never stored; neither is one without its RateLimit fields.
    if (h['content-encoding'] !== undefined || h.connection !== undefined || h['retry-after'] !== undefined) return;
    if (h['set-cookie'] !== undefined || h['transfer-encoding'] !== undefined || h.ratelimit === undefined) return;
    if (!varyIsKeyed(h.vary)) return;
    const names = Object.keys(h);
    const values = names.map((n) => (PER_REQUEST.has(n) ? '' : h[n]!));
    if (values.some((v) => v === undefined)) return;
    this.#store.set(p.key, {
      names,
      values,
      body,
      head: RawHead.split(
        res,
        names,
        names.map((n) => h[n]!),
        PER_REQUEST,
      ),
      deps: p.deps,
      stamps: p.deps.map(([k, , tail]): [string, string] => [k, tail]),
      freshUntil: p.freshUntil,
      series: this.#metrics.series(p.route, p.method, 200, 'hit'),
    });
  }
}
