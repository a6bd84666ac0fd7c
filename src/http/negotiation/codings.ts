// Content codings of the public routes' bodies (RFC 9110 §8.4): which one a request gets, and the one function that
// makes the bytes. The normal path (conditional.ts) and the response store (responses/) both encode through
// `encode`, with the same settings, so an entity tag with a coding suffix (`"…-br"`) always names the same bytes
// whichever path wrote them, as a strong validator must. The settings are chosen for bytes that are stored and
// written many times: a read is encoded once per coding while it stays cached, so a smaller body is worth more
// than the encoder's speed (the compressor's per-request default is brotli quality 4).
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import Negotiator from 'negotiator';

/** Below this many bytes compression costs more than it saves (most problem documents stay under it). */
export const COMPRESS_THRESHOLD = 1024;

/** Text, JSON and XML flavours; never event streams. The compressor and the Vary decision share it. */
export const COMPRESSIBLE = /^(?:text\/(?!event-stream)|[^;]*[/+](?:json|xml)\s*(?:;|$))/i;

/** The codings this service writes, in its order of preference when a client weighs them alike. */
export const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** Whether a body of this type and size is sent encoded when the client accepts a coding. */
export function codingsApply(contentType: unknown, size: number): boolean {
  return typeof contentType === 'string' && size >= COMPRESS_THRESHOLD && COMPRESSIBLE.test(contentType);
}

const BROTLI = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 6,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
};
const GZIP = { level: 9 };
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * The bytes of `body` in `coding`. Asynchronous (zlib's thread pool), so a large body never holds the event loop;
 * zlib's output is a function of its input and settings, so every call for one body gives the same bytes.
 */
export function encode(body: string | Buffer, coding: Coding): Promise<Buffer> {
  return coding === 'br' ? brotli(body, BROTLI) : gzipped(body, GZIP);
}

/** negotiator's documented `encoding(available, { preferred })`, which @types/negotiator does not declare. */
interface EncodingNegotiator {
  encoding(available: readonly string[], opts: { preferred: readonly string[] }): string | undefined;
}

// Clients send a handful of distinct Accept-Encoding values; remembering the answers keeps parsing off the hot path.
const chosen = new Map<string, Coding | undefined>();
const MEMO_MAX = 256;

/**
 * The coding a request gets for a body codings apply to, or undefined for identity: the client's most preferred
 * of br and gzip (br on a tie), none without Accept-Encoding or with X-No-Compression. `*` and `x-gzip` count as
 * gzip, as the compressor for other bodies (@fastify/compress) reads them.
 */
export function codingFor(acceptEncoding: string | undefined, noCompression: boolean): Coding | undefined {
  if (acceptEncoding === undefined || noCompression) return undefined;
  let coding = chosen.get(acceptEncoding);
  if (coding === undefined && !chosen.has(acceptEncoding)) {
    const header = acceptEncoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip');
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as EncodingNegotiator;
    const best = negotiator.encoding(CODINGS, { preferred: CODINGS });
    coding = (CODINGS as readonly string[]).includes(best ?? '') ? (best as Coding) : undefined;
    if (chosen.size >= MEMO_MAX) chosen.clear();
    chosen.set(acceptEncoding, coding);
  }
  return coding;
}
