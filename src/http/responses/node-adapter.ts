// The header block of a replayed cache hit, written without `writeHead`.
//
// `writeHead(status, headers)` validates every name and value and concatenates the block one field at a time:
// for the ~20 fields of a cached post that is the largest single cost of a replayed hit. A record's fields
// were validated once, when Fastify wrote them; only X-Request-Id, the RateLimit fields and Date change from one
// replay to the next. So the block Node built for the recorded exchange (`_header`, the string Node keeps until
// the first body write sends it) is kept split around those values, and a replay joins the pieces and hands the
// block to Node the same way `writeHead` would, then lets `end(body)` send it.
//
// This leans on two fields of Node's OutgoingMessage (`_header`, set by `_storeHeader`, and the inputs of the
// Connection/Keep-Alive decision it makes). Both are guarded: a record is split only when re-joining it with the
// recorded values gives back exactly what Node wrote, and a replay takes this path only when the response is in
// the state the recorded one was in (fresh, keep-alive, same keep-alive timeout); otherwise the caller uses
// `writeHead`. The byte-identity tests (test/http/hit-replay.test.ts) compare the two paths.
import type { ServerResponse } from 'node:http';

/** The values a replay fills in, in slot order. */
export type Slot = 'x-request-id' | 'ratelimit' | 'ratelimit-remaining' | 'ratelimit-reset' | 'date';

/** The fields of Node's OutgoingMessage/ServerResponse this path reads or sets. */
interface NodeResponse {
  _header: string | null;
  _headerSent: boolean;
  _keepAliveTimeout: number;
  _maxRequestsPerSocket?: number;
  _defaultKeepAlive: boolean;
  _removedConnection: boolean;
  _expect_continue: boolean;
  maxRequestsOnConnectionReached: boolean;
  shouldKeepAlive: boolean;
  sendDate: boolean;
  chunkedEncoding: boolean;
  useChunkedEncodingByDefault: boolean;
}

const internals = (res: ServerResponse) => res as unknown as NodeResponse;

/**
 * Whether Node would end this response's block with Date and the keep-alive lines (the only ending a block is
 * split for); their values also depend on the keep-alive timeout and request cap, compared separately.
 */
function keepsAlive(r: NodeResponse): boolean {
  return (
    r.sendDate &&
    r.shouldKeepAlive &&
    !r.maxRequestsOnConnectionReached &&
    !r._removedConnection &&
    !r._expect_continue &&
    r._defaultKeepAlive &&
    !r.chunkedEncoding &&
    r.useChunkedEncodingByDefault
  );
}

export class RawHead {
  /** Static text around the slots: parts.length === slots.length + 1. */
  readonly #parts: string[];
  readonly #slots: Slot[];
  readonly #keepAliveTimeout: number;
  readonly #maxRequests: number | undefined;

  private constructor(parts: string[], slots: Slot[], r: NodeResponse) {
    this.#parts = parts;
    this.#slots = slots;
    this.#keepAliveTimeout = r._keepAliveTimeout;
    this.#maxRequests = r._maxRequestsPerSocket;
  }

  get slots(): readonly Slot[] {
    return this.#slots;
  }

  /**
   * Splits the block Node stored for `res` (just after `writeHead(200, headers)` with these `names`/`values`),
   * or undefined when it does not have the expected shape: then the record is replayed through `writeHead`.
   * `variable` names the fields whose values change per replay (lower case, as in `names`).
   */
  static split(
    res: ServerResponse,
    names: readonly string[],
    values: ReadonlyArray<string | number | string[]>,
    variable: ReadonlySet<string>,
  ): RawHead | undefined {
    const r = internals(res);
    const block = r._header;
    if (typeof block !== 'string' || !keepsAlive(r) || r._headerSent) return undefined;
    const parts: string[] = [];
    const slots: Slot[] = [];
    let pos = block.indexOf('\r\n') + 2;
    if (pos < 2) return undefined;
    let text = block.slice(0, pos);
    const expect = (s: string) => {
      if (!block.startsWith(s, pos)) return false;
      pos += s.length;
      return true;
    };
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const value = values[i]!;
      if (variable.has(name)) {
        const line = `${name}: ${String(value)}\r\n`;
        if (!expect(line)) return undefined;
        parts.push(`${text}${name}: `);
        slots.push(name as Slot);
        text = '\r\n';
        continue;
      }
      for (const v of Array.isArray(value) ? value : [value]) {
        const line = `${name}: ${v}\r\n`;
        if (!expect(line)) return undefined;
        text += line;
      }
    }
    // Node's own lines follow the fields: Date (replaced per second), then Connection/Keep-Alive and the blank line.
    const date = /^Date: [^\r\n]*\r\n/.exec(block.slice(pos));
    if (!date) return undefined;
    parts.push(`${text}Date: `);
    slots.push('date');
    parts.push(`\r\n${block.slice(pos + date[0].length)}`);
    if (!parts.at(-1)!.endsWith('\r\n\r\n')) return undefined;
    return new RawHead(parts, slots, r);
  }

  /**
   * Stores the block for `res` with `values` (one per slot) in place of `writeHead`, when `res` is in the state
   * the recorded response was in. False when it is not: the caller then writes the head with `writeHead`.
   */
  apply(res: ServerResponse, values: readonly string[]): boolean {
    const r = internals(res);
    if (
      r._header !== null ||
      !keepsAlive(r) ||
      r._keepAliveTimeout !== this.#keepAliveTimeout ||
      r._maxRequestsPerSocket !== this.#maxRequests
    )
      return false;
    const parts = this.#parts;
    let block = parts[0]!;
    for (let i = 0; i < values.length; i++) block += values[i]! + parts[i + 1]!;
    res.statusCode = 200;
    r._header = block;
    r._headerSent = false;
    return true;
  }
}

let dateText = '';
let dateUntil = 0;

/** The Date field's value for `now`, as Node writes it (RFC 9110 IMF-fixdate), computed once a second. */
export function httpDate(now: number): string {
  if (now >= dateUntil) {
    dateText = new Date(now).toUTCString();
    dateUntil = now - (now % 1000) + 1000;
  }
  return dateText;
}
