// The recorder: in onResponse of every request, the normal path offers its answer to the response store. Stored is
// only what a fresh read would answer again: the headers Fastify wrote (`reply.getHeaders()`, after every onSend
// hook) and the body before any coding (`req.sentBody`, kept by the conditional-request hook, conditional.ts),
// with the coded body too when one went out:
//   - a 200 answered entirely from fresh cache entries (`req.dependsOn`), kept only while every one of them is
//     still the same and still fresh (a refresh or an eviction makes it stale at once);
//   - never an answer shaped by a passing upstream failure (`req.degraded`: a part that failed to load, a stale
//     copy, a walk cut short): the hit path would serve it past the failure, to clients a fresh read would
//     answer in full;
//   - charged to api-ip alone, not closing, without cookies, varying only on what the key and codings hold.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { storedTail } from '../../stores/cache/redis.ts';
import type { CacheEntry } from '../../stores/cache/types.ts';
import { codingsApply } from '../negotiation/codings.ts';
import { answerKey, varyIsKeyed, variantOf, type AnswerStore, type Dependencies, type StoredAnswer } from './store.ts';

/** Fields the store writes per variant (the coding and its length), never taken from the recorded exchange. */
const PER_VARIANT = new Set(['content-encoding', 'content-length']);

export class Recorder {
  readonly #store: AnswerStore;
  readonly #on: () => boolean;

  constructor(store: AnswerStore, on: () => boolean) {
    this.#store = store;
    this.#on = on;
  }

  /** onResponse: stores what went out when the answer may be stored. */
  onResponse(req: FastifyRequest, reply: FastifyReply): void {
    const sent = req.sentBody;
    if (reply.statusCode !== 200 || !sent || !req.dependsOn?.length || !this.#on()) return;
    if (req.degraded) return;
    const states = req.rateStates;
    if (states?.length !== 1 || states[0]!.policy !== 'api-ip' || !states[0]!.allowed) return;
    const h = reply.getHeaders();
    if (h['x-cache'] !== 'hit') return;
    // Closing or refused responses are never stored; neither is one without its RateLimit fields.
    if (h.connection !== undefined || h['retry-after'] !== undefined || h.ratelimit === undefined) return;
    if (h['set-cookie'] !== undefined || h['transfer-encoding'] !== undefined || !varyIsKeyed(h.vary)) return;
    // The coding on the wire must be the one the conditional-request hook applied (no other hook re-encoded it).
    if (h['content-encoding'] !== sent.coded?.coding) return;
    const key = answerKey(req);
    if (key === undefined || this.#store.has(key)) return;
    let freshUntil = Number.POSITIVE_INFINITY;
    const deps: Dependencies = [];
    for (const [k, entry, until] of req.dependsOn) {
      const e = entry as Partial<Record<'storedAt' | 'freshUntil' | 'staleUntil', unknown>>;
      if (typeof e.storedAt !== 'number' || typeof e.freshUntil !== 'number' || typeof e.staleUntil !== 'number')
        return;
      deps.push([k, entry, storedTail(e as CacheEntry)]);
      freshUntil = Math.min(freshUntil, until);
    }
    const fields: Array<[string, string]> = [];
    for (const [name, value] of Object.entries(h)) {
      if (PER_VARIANT.has(name) || value === undefined) continue;
      if (name === 'etag') fields.push([name, sent.etag]);
      else if (Array.isArray(value)) for (const v of value) fields.push([name, v]);
      else fields.push([name, String(value)]);
    }
    const identity = typeof sent.identity === 'string' ? Buffer.from(sent.identity) : sent.identity;
    const answer: StoredAnswer = {
      route: req.routeOptions.url,
      observers: {},
      fields,
      codable: codingsApply(h['content-type'], identity.length),
      identity: variantOf(fields, undefined, identity),
      coded: {},
      making: {},
      deps,
      stamps: deps.map(([k, , tail]): [string, string] => [k, tail]),
      freshUntil,
    };
    if (sent.coded) answer.coded[sent.coded.coding] = variantOf(fields, sent.coded.coding, sent.coded.body);
    this.#store.set(key, answer);
  }
}
