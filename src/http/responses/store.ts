// The response store: the answers the normal path gave (status line, fixed headers, body, and the cache entries
// each depends on), keyed by everything in the request that shapes the answer. It is the `answer` slot of the
// response cache (stores/cache/responses.ts), which already holds what the normal path derives from cached data
// (assembled reads, rendered bodies, serialized feeds): one byte budget and one set of metrics for everything
// remembered above the data cache, and the layer folder keeps only what is particular to answers.
import type { IncomingMessage } from 'node:http';
import { PREVIEW_HEADER, previewDecision } from '../../contract/link-preview.ts';
import type { ExchangeSeries } from '../../ops/metrics.ts';
import type { ResponseSlot } from '../../stores/cache/responses.ts';
import type { RawHead } from './node-adapter.ts';

/** The slot of the response cache answers are stored in. */
export const ANSWER_SLOT = 'answer';

/** Cache key, the entry object the answer was built from, and the bytes that entry ends with in Redis. */
export type Dependencies = Array<[string, object, string]>;

/** One stored answer: always a 200, uncompressed, charged to api-ip alone. */
export interface StoredAnswer {
  /** Header names in the order Fastify wrote them, and their values ('' for per-request ones). */
  names: string[];
  values: Array<string | number | string[]>;
  body: Buffer;
  /** The header block Node wrote, split around the per-request values (undefined: written with writeHead). */
  head: RawHead | undefined;
  deps: Dependencies;
  /** Cache key and stored tail of each dependency, as the shared check (stores/stored-response-check.ts) takes them. */
  stamps: Array<[string, string]>;
  freshUntil: number;
  /** Where its exchanges are counted (route, method, 200, hit). */
  series: ExchangeSeries;
}

export type AnswerStore = ResponseSlot<StoredAnswer>;

/** The bytes an answer holds, as the response cache's budget counts them. */
export function answerSize(a: StoredAnswer): number {
  return a.body.length + a.names.length * 64 + 256;
}

/** Request headers the key accounts for (User-Agent and X-Link-Preview through the crawler decision). */
const KEYED_VARY = new Set(['accept', 'accept-encoding', 'user-agent', PREVIEW_HEADER]);

/**
 * Whether every header a response varies on is one the key accounts for. A response varying on anything else
 * (or `*`) is never stored, so a new Vary dimension cannot be answered to the wrong caller.
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
 * and neither conditional, keyed nor X-No-Compression requests.
 */
export function answerKey(req: IncomingMessage): string | undefined {
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
