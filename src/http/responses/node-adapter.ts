// The one file of the server that relies on internals of Node and Fastify: everything else in http/ uses public
// APIs. Each use is here because its public counterpart costs a hot path far more than the 10 % the design allows
// (bench/RESULTS.md), or has no public counterpart, and each is pinned by test/unit/http/responses/
// node-adapter.test.ts, which fails the day the internal changes:
//   - RawHead: the header block of a stored answer, written without `writeHead`. `writeHead(status, headers)`
//     validates every name and value and concatenates the block one field at a time: for the ~20 fields of a
//     cached post that is the largest single cost of a fast-path answer. The fields were validated once, when
//     Fastify wrote them; only X-Request-Id, the RateLimit fields and Date change from one answer to the next. So
//     the block Node built for the recorded exchange (`_header`, the string Node keeps until the first body write
//     sends it) is kept split around those values, and an answer joins the pieces and hands the block to Node the
//     same way `writeHead` would, then lets `end(body)` send it. This reads `_header` and the inputs of Node's
//     Connection/Keep-Alive decision (`_keepAliveTimeout`, `_defaultKeepAlive`, …). Both are guarded: a block is
//     split only when re-joining it with the recorded values gives back exactly what Node wrote, and an answer
//     takes this path only when the response is in the state the recorded one was in (fresh, keep-alive, same
//     keep-alive timeout); otherwise the caller uses `writeHead`. The byte-identity tests
//     (test/http/responses/fast-path.test.ts) compare the two paths.
//   - captureWrite: what Fastify writes for one response, taken from its `writeHead(status, headers)` and
//     `end(body)` calls (Fastify writes a finished payload that way; the headers it passes are the whole block).
//   - putBefore: the fast path placed in front of the request listener Fastify registered on its server (Fastify
//     has no hook that runs before its own request object is built).
//   - queuedWriteBytes: how much of a socket's writes libuv still holds (`_handle.writeQueueSize`), the only sign
//     that a large write is moving, for the idle sweep (http/idle-sockets.ts), which replaces Node's per-socket
//     idle timer (re-armed on every read and write of every request); Node's own timer reads the same field.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** The field Node adds after the recorded ones, filled in per answer like the caller's variable fields. */
export const DATE_SLOT = 'date';

/** The fields of Node's OutgoingMessage/ServerResponse this path reads or sets. */
export interface NodeResponse {
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

export const internals = (res: ServerResponse) => res as unknown as NodeResponse;

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
  readonly #slots: string[];
  readonly #keepAliveTimeout: number;
  readonly #maxRequests: number | undefined;

  private constructor(parts: string[], slots: string[], r: NodeResponse) {
    this.#parts = parts;
    this.#slots = slots;
    this.#keepAliveTimeout = r._keepAliveTimeout;
    this.#maxRequests = r._maxRequestsPerSocket;
  }

  /** The lower-case names of the fields filled in per answer (the `variable` ones, then Date), in block order. */
  get slots(): readonly string[] {
    return this.#slots;
  }

  /**
   * Splits the block Node stored for `res` (just after `writeHead(200, headers)` with these `names`/`values`),
   * or undefined when it does not have the expected shape: then the answer is written with `writeHead`.
   * `variable` names the fields whose values change per answer (lower case, as in `names`).
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
    const slots: string[] = [];
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
        slots.push(name);
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
    slots.push(DATE_SLOT);
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

/** What Fastify wrote for one response. */
export interface Written {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The body passed to `end`. */
  chunk: unknown;
}

/**
 * Wraps this one response's writeHead and end to copy exactly what goes out, and calls `done` just before the
 * body is handed to Node (the block is then in `_header`, for RawHead.split). Both are put back at `end`.
 */
export function captureWrite(res: ServerResponse, done: (written: Written) => void): void {
  // Borrowed unbound on purpose: they are called with the response as `this` and put back afterwards.
  /* eslint-disable @typescript-eslint/unbound-method */
  const writeHead = res.writeHead;
  const end = res.end;
  /* eslint-enable @typescript-eslint/unbound-method */
  let head: { status: number; headers: OutgoingHttpHeaders } | undefined;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((a) => typeof a === 'object' && a !== null) as OutgoingHttpHeaders | undefined;
    head = { status, headers: { ...(headers ?? {}) } };
    return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
  };
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    res.writeHead = writeHead;
    res.end = end;
    if (head) done({ ...head, chunk });
    return (end as (...a: unknown[]) => ServerResponse).call(res, chunk, ...rest);
  }) as typeof res.end;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts `take` in front of the request listener Fastify registered, so routing, hooks and errors are untouched
 * for every request it does not take (false: Fastify answers now; `take` may also hand a request to `fastify`
 * later). False when the server does not have exactly one request listener: then nothing is installed.
 */
export function putBefore(
  app: FastifyInstance,
  take: (req: IncomingMessage, res: ServerResponse, fastify: Listener) => boolean,
): boolean {
  const server = app.server;
  const listeners = server.listeners('request') as Listener[];
  if (listeners.length !== 1) return false;
  const fastify = listeners[0]!;
  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!take(req, res, fastify)) fastify(req, res);
  });
  return true;
}

/**
 * Bytes of the socket's writes libuv still holds: lowered as each part of a write reaches the kernel, so it moves
 * while a large answer drains to a slow reader even though no write completes. 0 once the socket is closed.
 */
export function queuedWriteBytes(socket: Socket): number {
  const handle = (socket as unknown as { _handle?: { writeQueueSize?: unknown } | null })._handle;
  const size = handle?.writeQueueSize;
  return typeof size === 'number' ? size : 0;
}
