import { StringDecoder } from 'node:string_decoder';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { MIN_ATTEMPT_MS, type Deadline } from './deadline.ts';
import { ProviderError } from './types.ts';

/** How hard one upstream read tries: retries after transient failures and the body size it accepts. */
export interface UpstreamPolicy {
  /** Extra attempts after a connection failure or a retryable 5xx (0 = try once). */
  retries: number;
  /** First backoff step; each retry doubles it, with jitter between half and the full step. */
  backoffMs: number;
  /** Bodies above this many bytes are refused as that provider's error (default 5 MiB). */
  maxBytes?: number;
  /** Jitter source, replaceable in tests. */
  random?: () => number;
  /** Who is asking: a descriptive User-Agent (a provider's own headers still win). */
  userAgent?: string;
}

export interface UpstreamRequest {
  /** The caller's abort: re-thrown untouched, never reported as a provider failure. */
  signal?: AbortSignal;
  /** The read's overall budget: every attempt and every wait between attempts must fit in it. */
  deadline?: Deadline;
  /** Limit for one attempt (shortened to what is left of the deadline). */
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Overrides `policy.maxBytes`. */
  maxBytes?: number;
  /** Without a policy the request is tried once. */
  policy?: UpstreamPolicy;
  /** Redirect hops this refuses are not followed: the read fails as the provider's error. */
  redirectAllowed?: (to: URL) => boolean;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  text: string;
}

export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Statuses worth asking again: transient server trouble. 501 and 505 will not change on a retry; no
 * upstream we read uses a 5xx to say "this content does not exist" (they use 404/401 or a tombstone).
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status !== 501 && status !== 505;
}

/**
 * One idempotent GET to an upstream, retried within the read's deadline:
 * - a refused/reset connection or a retryable 5xx is retried after a jittered, doubling backoff;
 * - a 503 with Retry-After is retried after exactly that delay, but only when the delay fits in what is
 *   left of the deadline; otherwise the 503 is handed back at once so the chain can fall through;
 * - a timed-out attempt is not retried: the upstream is slow, and the chain's next provider is a better
 *   use of the remaining budget than waiting on the same one again.
 * Transport failures become `ProviderError(provider, 'network')`, an oversize body `'error'`. The final
 * response (whatever its status) is returned for the provider to interpret.
 */
export async function fetchUpstream(provider: string, url: string, opts: UpstreamRequest): Promise<UpstreamResponse> {
  const retries = Math.max(0, opts.policy?.retries ?? 0);
  for (let attempt = 0; ; attempt++) {
    const left = retries - attempt;
    let res: UpstreamResponse;
    try {
      res = await attemptOnce(provider, url, opts);
    } catch (err) {
      if (left > 0 && err instanceof ProviderError && err.kind === 'network' && !err.opts.timedOut) {
        if (await pause(backoffMs(opts.policy!, attempt), opts)) continue;
      }
      throw err;
    }
    if (left <= 0 || !isRetryableStatus(res.status)) return res;
    const waitS = res.status === 503 ? retryAfterSeconds(res.headers) : undefined;
    const waitMs = waitS !== undefined ? waitS * 1000 : backoffMs(opts.policy!, attempt);
    if (!(await pause(waitMs, opts))) return res;
  }
}

/** Wait before retry number `attempt + 1`: a random point in the upper half of `backoffMs * 2^attempt`. */
export function backoffMs(policy: UpstreamPolicy, attempt: number): number {
  const step = policy.backoffMs * 2 ** attempt;
  return Math.round(step / 2 + (policy.random ?? Math.random)() * (step / 2));
}

/**
 * Waits `ms` before another attempt; false (without waiting) when the wait plus a minimal attempt would
 * overrun the deadline. A caller abort during the wait is re-thrown; the deadline ending ends the wait.
 */
async function pause(ms: number, opts: UpstreamRequest): Promise<boolean> {
  const remaining = opts.deadline ? opts.deadline.remainingMs() : Infinity;
  if (ms + MIN_ATTEMPT_MS > remaining) return false;
  const signals = [opts.signal, opts.deadline?.signal].filter((s): s is AbortSignal => !!s);
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of signals) s.addEventListener('abort', done, { once: true });
  });
  if (opts.signal?.aborted) throw opts.signal.reason;
  return !opts.deadline?.expired;
}

async function attemptOnce(provider: string, url: string, opts: UpstreamRequest): Promise<UpstreamResponse> {
  const deadline = opts.deadline;
  if (deadline?.expired) {
    throw new ProviderError(provider, 'network', `${provider} was not asked: the request deadline had passed`, {
      timedOut: true,
      notAsked: true,
    });
  }
  const timeoutMs = Math.max(
    1,
    Math.min(opts.timeoutMs, deadline ? Math.min(deadline.remainingMs(), deadline.realRemainingMs()) : Infinity),
  );
  // One timer per attempt, cleared when the attempt ends. It fires no later than the deadline, so the deadline's own
  // signal is not needed here; AbortSignal.timeout and AbortSignal.any would leave two timers and weakly held
  // signals behind every upstream call for seconds.
  const attempt = new Exchange();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.stop(new DOMException('The operation timed out.', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  const caller = opts.signal;
  const onCallerAbort = () => attempt.stop(caller!.reason);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  const maxBytes = opts.maxBytes ?? opts.policy?.maxBytes ?? DEFAULT_MAX_BYTES;
  try {
    const headers = opts.policy?.userAgent
      ? { ...FETCH_HEADERS, 'user-agent': opts.policy.userAgent, ...opts.headers }
      : opts.headers
        ? { ...FETCH_HEADERS, ...opts.headers }
        : FETCH_HEADERS;
    return await getFollowing(new URL(url), headers, attempt, maxBytes, provider, opts.redirectAllowed);
  } catch (err) {
    if (caller?.aborted) throw caller.reason ?? err;
    if (err instanceof ProviderError) throw err;
    if (timedOut || deadline?.passed) {
      const why =
        deadline?.passed || timeoutMs < opts.timeoutMs ? 'before the request deadline' : `within ${opts.timeoutMs} ms`;
      throw new ProviderError(provider, 'network', `${provider} did not answer ${why}`, { cause: err, timedOut: true });
    }
    throw new ProviderError(provider, 'network', `${provider} could not be reached: ${describe(err)}`, { cause: err });
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onCallerAbort);
  }
}

/**
 * node:http rather than fetch(): on a miss the upstream call is most of the service's own time, and fetch's
 * stream machinery costs about half a millisecond more per call than a plain request on a kept-alive socket.
 * Idle sockets are kept per origin and unref'd, so they never hold the process open; one idle for 4 s is
 * dropped, before a typical server's keep-alive timeout (5 s in Node) can close it under a request reusing it.
 */
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true, timeout: 4000 }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: 4000 }),
};
const MAX_REDIRECTS = 20;

/** The request headers Node's fetch() sends, so upstreams see the request a fetch() client makes; providers' own headers win. */
const FETCH_HEADERS: Record<string, string> = {
  accept: 'application/json',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

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

  /** The error to fail with when the attempt was stopped before `req` could be sent. */
  get stopped(): Error | undefined {
    return this.#stopped;
  }

  track(req: ClientRequest): void {
    this.#req = req;
  }
}

/** One GET, following redirects as fetch's `redirect: 'follow'` does, with the body decoded and capped. */
async function getFollowing(
  url: URL,
  headers: Record<string, string>,
  attempt: Exchange,
  maxBytes: number,
  provider: string,
  redirectAllowed?: (to: URL) => boolean,
): Promise<UpstreamResponse> {
  for (let hop = 0; ; hop++) {
    const res = await send(url, headers, attempt);
    const location = res.headers.location;
    if (location !== undefined && [301, 302, 303, 307, 308].includes(res.statusCode ?? 0)) {
      res.resume();
      if (hop >= MAX_REDIRECTS) throw new Error('redirect count exceeded');
      const next = new URL(location, url);
      if (redirectAllowed && !redirectAllowed(next))
        throw new ProviderError(
          provider,
          'error',
          `${provider} redirected to ${next.origin}, which this read may not follow`,
        );
      headers = headersForHop(url, next, headers);
      url = next;
      continue;
    }
    const out = new Headers();
    for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    const status = res.statusCode ?? 0;
    return { status, headers: out, text: await readCapped(res, out, status, maxBytes, provider) };
  }
}

function send(url: URL, headers: Record<string, string>, attempt: Exchange): Promise<IncomingMessage> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  if (attempt.stopped) return Promise.reject(attempt.stopped);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers, agent: AGENTS[url.protocol as 'http:' | 'https:'] }, resolve);
    req.on('error', reject);
    attempt.track(req);
    req.end();
  });
}

/** An oversize answer is the upstream misbehaving, not the network: reported as the provider's error. */
async function readCapped(
  res: IncomingMessage,
  headers: Headers,
  status: number,
  maxBytes: number,
  provider: string,
): Promise<string> {
  const declared = Number(headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw new ProviderError(
      provider,
      'error',
      `${provider} answered with ${declared} bytes, above the ${maxBytes} byte limit`,
      { status },
    );
  }
  const body = decoded(res, headers.get('content-encoding'));
  // Plain stream events rather than an async iterator: the iterator costs a promise and a microtask hop per chunk
  // and a stream-finished watcher per body, on every miss.
  return new Promise<string>((resolve, reject) => {
    // Decoded chunk by chunk as it arrives: decoding a body of several MiB in one go at its end held the event
    // loop long enough to delay every other request (the hostile web app test); the pieces are joined lazily (a
    // rope) and flattened when first read.
    const text = new StringDecoder('utf8');
    let got = '';
    let size = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      // Leaving early (the cap, an abort) must not leave the socket half-read in the pool.
      if (!res.complete) res.destroy();
      if (body !== res) body.destroy();
      reject(err);
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        fail(
          new ProviderError(provider, 'error', `${provider} answer exceeded the ${maxBytes} byte limit`, { status }),
        );
        return;
      }
      got += text.write(chunk);
    });
    body.once('end', () => {
      if (!res.complete) return fail(new Error('the upstream closed the connection before the end of the body'));
      settled = true;
      resolve(got + text.end());
    });
    body.on('error', fail);
    // Closed with neither an end nor an error: what the stream iterator reports as a premature close.
    body.once('close', () => fail(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
  });
}

/** The body as fetch hands it over: content codings undone. */
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

/** The useful reason of a transport failure (ECONNREFUSED, ENOTFOUND...), wherever it sits. */
function describe(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string; message?: string } };
  if (typeof e?.code === 'string' && e.code !== 'ABORT_ERR') return e.code;
  if (e?.cause?.code) return e.cause.code;
  if (e?.cause?.message) return e.cause.message;
  return err instanceof Error ? err.message : String(err);
}

export function parseJson(provider: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ProviderError(provider, 'error', `${provider} answered with malformed JSON`, { cause: err });
  }
}

export function isJsonContentType(headers: Headers): boolean {
  const type = headers.get('content-type') ?? '';
  return /\bjson\b/i.test(type);
}

/** Retry-After in seconds (delta or HTTP date), when the upstream sent one. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
