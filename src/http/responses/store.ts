// The response store: one entry per representation the normal path gave (keyed by everything in the request that
// shapes it except the coding: method, URL, Accept, the crawler decision), holding its status line's fixed fields,
// its identity bytes, the bytes of each coding a client has asked for (made once, by `encode` in
// http/negotiation/codings.ts, the function the normal path encodes with), its validators, and the cache entries it depends on. It is the
// `answer` slot of the response cache (stores/cache/responses.ts), which already holds what the normal path derives
// from cached data (assembled reads, rendered bodies, serialized feeds): one byte budget, counting every coded
// variant, and one set of metrics for everything remembered above the data cache.
import type { FastifyRequest } from 'fastify';
import { PREVIEW_HEADER, previewDecision } from '../../contract/link-preview.ts';
import type { ResponseSlot } from '../../stores/cache/responses.ts';
import type { Coding } from '../negotiation/codings.ts';
import { withCoding } from '../negotiation/entity-tags.ts';

/** The slot of the response cache answers are stored in. */
export const ANSWER_SLOT = 'answer';

/** Cache key, the entry object the answer was built from, and the bytes that entry ends with in Redis. */
export type Dependencies = Array<[string, object, string]>;

/**
 * Fields whose value is per request: filled in on every answer, in the position Fastify wrote them. An answer is
 * stored only for requests charged to api-ip alone, so RateLimit-Policy and RateLimit-Limit are the same on every
 * one of them and are kept as recorded.
 */
export const PER_REQUEST: ReadonlySet<string> = new Set([
  'x-request-id',
  'ratelimit',
  'ratelimit-remaining',
  'ratelimit-reset',
]);

/** One representation's bytes and the header block `writeHead` takes for it. */
export interface Variant {
  body: Buffer;
  /** Names and values, flat (`[name, value, name, value, …]`); the per-request values are filled in per answer. */
  head: string[];
  /** Positions in `head` of the per-request values, with their field names. */
  slots: Array<[number, string]>;
  /** Bytes of the head's names and values (for the budget). */
  headBytes: number;
}

/** Where the metrics count an exchange (observe.ts). */
export interface Observer {
  add(durationS: number): void;
}

/** One stored answer: always a 200 charged to api-ip alone. */
export interface StoredAnswer {
  /** The route pattern that answered it (the metrics' route label). */
  route: string | undefined;
  /** The metrics series its hits are counted in, by method, found on the first hit of each. */
  observers: { GET?: Observer; HEAD?: Observer };
  /** The fields Fastify wrote for the identity body, in its order, but Content-Encoding and Content-Length. */
  fields: ReadonlyArray<readonly [string, string]>;
  /** Whether codings apply to it (a compressible type over the threshold): then it varies on Accept-Encoding. */
  codable: boolean;
  identity: Variant;
  coded: Partial<Record<Coding, Variant>>;
  /** Codings being made (each once, whoever asks first). */
  making: Partial<Record<Coding, Promise<Variant>>>;
  deps: Dependencies;
  /** Cache key and stored tail of each dependency, as the shared check (stores/stored-response-check.ts) takes them. */
  stamps: Array<[string, string]>;
  freshUntil: number;
  /** In process: the cache generation its dependencies were last found unchanged at, and when. */
  checked?: { generation: number; at: number };
}

export type AnswerStore = ResponseSlot<StoredAnswer>;

/** The bytes an answer holds, every variant counted, as the response cache's budget counts them. */
export function answerSize(a: StoredAnswer): number {
  let size = 256 + a.identity.body.length + a.identity.headBytes;
  for (const v of Object.values(a.coded)) size += v.body.length + v.headBytes;
  return size;
}

/**
 * The variant of `a` for `coding` (undefined: identity) with `body`: the identity fields with the coded tag, then
 * Content-Encoding and Content-Length, as the normal path writes a coded body.
 */
export function variantOf(fields: StoredAnswer['fields'], coding: Coding | undefined, body: Buffer): Variant {
  const head: string[] = [];
  const slots: Array<[number, string]> = [];
  let headBytes = 0;
  const add = (name: string, value: string) => {
    if (PER_REQUEST.has(name)) slots.push([head.length + 1, name]);
    head.push(name, value);
    headBytes += name.length + value.length + 4;
  };
  for (const [name, value] of fields) add(name, name === 'etag' ? withCoding(value, coding) : value);
  if (coding !== undefined) add('content-encoding', coding);
  add('content-length', String(body.length));
  return { body, head, slots, headBytes };
}

/** Request headers the key accounts for (User-Agent and X-Link-Preview through the crawler decision). */
const KEYED_VARY = new Set(['accept', 'accept-encoding', 'user-agent', PREVIEW_HEADER]);

/**
 * Whether every header a response varies on is one the key accounts for (Accept-Encoding through the stored
 * codings). A response varying on anything else (or `*`) is never stored, so a new Vary dimension cannot be
 * answered to the wrong caller.
 */
export function varyIsKeyed(vary: string | number | string[] | undefined): boolean {
  if (vary === undefined) return true;
  const names = (Array.isArray(vary) ? vary.join(',') : String(vary)).split(',');
  return names.every((n) => {
    const name = n.trim().toLowerCase();
    return name === '' || KEYED_VARY.has(name);
  });
}

/**
 * The key of the answer a request may be given from the store, or undefined when none may: only GET and HEAD,
 * and neither conditional nor keyed requests.
 */
export function answerKey(req: FastifyRequest): string | undefined {
  const m = req.method;
  if (m !== 'GET' && m !== 'HEAD') return undefined;
  const h = req.headers;
  if (h.authorization !== undefined || h['if-none-match'] !== undefined || h['if-modified-since'] !== undefined)
    return undefined;
  // Permalinks answer link-preview crawlers with HTML where others get Markdown, so whether the caller is one,
  // and how that was decided (register.ts), is part of what shapes the answer.
  const crawler = previewDecision(h);
  // The URL the client sent: a prefix read (http/routing/prefix-read.ts) is rerouted, and answers with its own Link.
  return `${m} ${req.originalUrl}\n${h.accept ?? ''}\n${crawler}`;
}
