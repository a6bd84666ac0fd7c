// The one outbound HTTP client of the service: providers' reads, webhook and WebSub deliveries, the media proxy, the
// media store and zip exports all go through here. Each exchange has a limit in time (one timer per attempt, cut to
// the read's deadline), a size cap counted as the body streams, no redirect followed unless the caller allows it,
// and, when asked, connections to public addresses only, checked when they are made. Idempotent reads are retried
// where that is safe (retry.ts).
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { literalAddress, isPublicAddress, notPublic, publicOnlyLookup } from './addresses.ts';
import { capped, readText } from './body.ts';
import { NetError, transportReason } from './errors.ts';
import { backoffMs, isRetryableStatus, pause, retryAfterSeconds, type Budget, type RetryPolicy } from './retry.ts';

export interface NetRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A request body (POST). */
  body?: string;
  /** Limit of one attempt: to the end of the body when it is read whole, to the answer's head for a stream. */
  timeoutMs: number;
  /** The overall budget: every attempt and every wait between attempts must fit in it. */
  deadline?: Budget;
  /** The caller's abort: re-thrown untouched, never reported as a failure of the exchange. */
  signal?: AbortSignal;
  /** Bodies above this many bytes fail as `too_large` (or are cut there, see `truncate`). */
  maxBytes: number;
  /** Text: past `maxBytes`, keep what came before and stop reading instead of failing. */
  truncate?: boolean;
  /** Redirects are followed only when this is given, and only to where it allows; otherwise a 3xx is the answer. */
  follow?: (to: URL) => boolean;
  /** Connect only to public addresses: names are resolved and checked when the connection is made. */
  publicOnly?: boolean;
  /** Undo gzip, deflate and br content codings. */
  decode?: boolean;
  /** GET only: extra attempts after connection failures and transient 5xx. */
  retry?: RetryPolicy;
}

export interface NetAnswer<B> {
  status: number;
  headers: Headers;
  body: B;
}

/**
 * Idle sockets are kept per origin and unref'd, so they never hold the process open; one idle for 4 s is dropped,
 * before a typical server's keep-alive timeout (5 s in Node) can close it under a request reusing it. The
 * public-only agents resolve names with the checking lookup, so a reused connection was checked when it was made;
 * they keep fewer sockets per host, since their hosts are whoever asked for a delivery.
 */
const AGENTS = {
  open: {
    'http:': new HttpAgent({ keepAlive: true, timeout: 4000 }),
    'https:': new HttpsAgent({ keepAlive: true, timeout: 4000 }),
  },
  public: {
    'http:': new HttpAgent({ keepAlive: true, timeout: 4000, maxSockets: 16, lookup: publicOnlyLookup }),
    'https:': new HttpsAgent({ keepAlive: true, timeout: 4000, maxSockets: 16, lookup: publicOnlyLookup }),
  },
};
const MAX_REDIRECTS = 20;

/** Headers that carry a session or an identity; they never leave the origin they were meant for. */
const CREDENTIAL_HEADERS = ['cookie', 'authorization', 'proxy-authorization', 'x-csrf-token', 'x-guest-token'];

/**
 * The headers for the next hop of a redirect: credentials are dropped when the hop changes origin (another
 * host, port or scheme, which covers https → http), as browsers do for cookies. The X sessions' auth_token
 * and ct0 would otherwise go wherever an upstream (or anyone who can make it redirect) points.
 */
export function headersForHop(from: URL, to: URL, headers: Record<string, string>): Record<string, string> {
  if (from.origin === to.origin) return headers;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (!CREDENTIAL_HEADERS.includes(k.toLowerCase())) out[k] = v;
  return out;
}

/** The whole body as text (decoded as it arrives), retried as `retry` says. */
export function fetchText(url: string | URL, req: NetRequest): Promise<NetAnswer<string>> {
  const { maxBytes, truncate = false } = req;
  return withRetries(req, () =>
    attempt(url, req, (res, body, head) => readText({ res, body, status: head.status, maxBytes, truncate })),
  );
}

/**
 * The answer with its body as a stream, capped at `maxBytes` (the stream fails with `too_large` past it). The
 * attempt's limit covers the answer's head; after it, the body fails with `timeout` once `idleMs` pass without a
 * chunk going through, whether the upstream or the reader is the one holding still. Destroying the body releases
 * the connection. Not retried: a stream is consumed as it comes.
 */
export async function openStream(
  url: string | URL,
  req: NetRequest & { idleMs: number },
): Promise<NetAnswer<Readable>> {
  return attempt(
    url,
    req,
    (res, body, head) => Promise.resolve(capped(res, body, head.status, req.maxBytes, req.idleMs)),
    true,
  );
}

async function withRetries<B>(req: NetRequest, once: () => Promise<NetAnswer<B>>): Promise<NetAnswer<B>> {
  const policy = (req.method ?? 'GET') === 'GET' ? req.retry : undefined;
  const retries = Math.max(0, policy?.retries ?? 0);
  for (let n = 0; ; n++) {
    const left = retries - n;
    let res: NetAnswer<B>;
    try {
      res = await once();
    } catch (err) {
      if (left > 0 && err instanceof NetError && err.kind === 'unreachable') {
        if (await pause(backoffMs(policy!, n), req.signal, req.deadline)) continue;
      }
      throw err;
    }
    if (left <= 0 || !isRetryableStatus(res.status)) return res;
    const waitS = res.status === 503 ? retryAfterSeconds(res.headers) : undefined;
    const waitMs = waitS !== undefined ? waitS * 1000 : backoffMs(policy!, n);
    if (!(await pause(waitMs, req.signal, req.deadline))) return res;
  }
}

type Head = { status: number; headers: Headers };

/** One attempt: the request (and its redirects, where allowed) under one timer, then `read` of the answer. */
async function attempt<B>(
  target: string | URL,
  req: NetRequest,
  read: (res: IncomingMessage, body: Readable, head: Head) => Promise<B>,
  headOnly = false,
): Promise<NetAnswer<B>> {
  const deadline = req.deadline;
  if (deadline?.expired) throw new NetError('not_asked', 'not asked: the request deadline had passed');
  const timeoutMs = Math.max(
    1,
    Math.min(req.timeoutMs, deadline ? Math.min(deadline.remainingMs(), deadline.realRemainingMs()) : Infinity),
  );
  // One timer per attempt, cleared when the attempt ends. It fires no later than the deadline, so the deadline's own
  // signal is not needed here; AbortSignal.timeout and AbortSignal.any would leave two timers and weakly held
  // signals behind every upstream call for seconds.
  const exchange = new Exchange();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    exchange.stop(new DOMException('The operation timed out.', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  const caller = req.signal;
  const onCallerAbort = () => exchange.stop(caller!.reason);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const res = await sendFollowing(new URL(target), req, exchange);
    const head = { status: res.statusCode ?? 0, headers: headersOf(res) };
    const body = req.decode ? decoded(res, head.headers.get('content-encoding')) : res;
    if (headOnly) {
      // The stream outlives this attempt: a later abort of the caller still ends it.
      const out = await read(res, body, head);
      if (caller && !caller.aborted) {
        const stop = () => (out as Readable).destroy(caller.reason as Error);
        caller.addEventListener('abort', stop, { once: true });
        (out as Readable).once('close', () => caller.removeEventListener('abort', stop));
      }
      return { ...head, body: out };
    }
    return { ...head, body: await read(res, body, head) };
  } catch (err) {
    if (caller?.aborted) throw caller.reason ?? err;
    if (err instanceof NetError) throw err;
    if (timedOut || deadline?.passed) {
      const byDeadline = !!deadline?.passed || timeoutMs < req.timeoutMs;
      throw new NetError(
        'timeout',
        byDeadline ? 'no answer before the request deadline' : `no answer within ${req.timeoutMs} ms`,
        {
          cause: err,
          byDeadline,
        },
      );
    }
    throw new NetError('unreachable', `could not be reached: ${transportReason(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onCallerAbort);
  }
}

function headersOf(res: IncomingMessage): Headers {
  const out = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  return out;
}

/** The request, following redirects only where `req.follow` allows them. */
async function sendFollowing(url: URL, req: NetRequest, exchange: Exchange): Promise<IncomingMessage> {
  let headers = req.headers ?? {};
  for (let hop = 0; ; hop++) {
    const res = await send(url, req, headers, exchange);
    const location = res.headers.location;
    if (!req.follow || location === undefined || ![301, 302, 303, 307, 308].includes(res.statusCode ?? 0)) return res;
    res.resume();
    if (hop >= MAX_REDIRECTS) throw new Error('redirect count exceeded');
    const next = new URL(location, url);
    if (!req.follow(next)) throw new NetError('redirect_refused', `redirected to ${next.origin}`, { to: next });
    headers = headersForHop(url, next, headers);
    url = next;
  }
}

function send(
  url: URL,
  req: NetRequest,
  headers: Record<string, string>,
  exchange: Exchange,
): Promise<IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  if (exchange.stopped) return Promise.reject(exchange.stopped);
  const literal = literalAddress(url);
  // The lookup is not asked about a literal address: it is checked here instead.
  if (req.publicOnly && literal !== undefined && !isPublicAddress(literal)) return Promise.reject(notPublic(literal));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = AGENTS[req.publicOnly ? 'public' : 'open'][url.protocol];
  const method = req.method ?? 'GET';
  const body = req.body;
  const sent = body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers };
  return new Promise((resolve, reject) => {
    const r = request(url, { method, headers: sent, agent }, resolve);
    r.on('error', reject);
    exchange.track(r);
    r.end(body);
  });
}

/**
 * The request in flight of one attempt, destroyed when the attempt is stopped (timeout or caller abort). Cheaper
 * than an AbortController handed to http.request: Node 20 builds an event target per controller and a listener per
 * request, on every upstream call.
 */
class Exchange {
  #req: ClientRequest | undefined;
  #stopped: Error | undefined;

  /** Ends the exchange with an AbortError caused by `reason`; later requests of the attempt fail at once. */
  stop(reason: unknown): void {
    if (this.#stopped) return;
    this.#stopped = Object.assign(new Error('This operation was aborted', { cause: reason }), {
      name: 'AbortError',
      code: 'ABORT_ERR',
    });
    this.#req?.destroy(this.#stopped);
  }

  /** The error to fail with when the attempt was stopped before a request could be sent. */
  get stopped(): Error | undefined {
    return this.#stopped;
  }

  track(req: ClientRequest): void {
    this.#req = req;
  }
}

/** The body with its content codings undone. */
function decoded(res: IncomingMessage, coding: string | null): Readable {
  const c = coding?.trim().toLowerCase();
  const decoder =
    c === 'gzip' || c === 'x-gzip'
      ? createGunzip()
      : c === 'deflate'
        ? createInflate()
        : c === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}
