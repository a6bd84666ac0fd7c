// The one way the client talks to the service: fetch, the bearer key, retries of 429/503 that name a
// Retry-After, the rate-limit fields of the last answer, and abort signals honoured while waiting.
import { retryAfterSeconds, ThreadmarkError, ThreadmarkNetworkError } from './errors.ts';

export type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue>;

export interface RetryOptions {
  /** Retries after the first attempt (default 2). */
  retries?: number;
  /** Longest single wait in milliseconds (default 60000): a Retry-After beyond it is not waited for, it is thrown. */
  maxDelayMs?: number;
  /** First backoff step in milliseconds (default 500), doubled per retry; the wait is never shorter than Retry-After. */
  baseDelayMs?: number;
}

export interface ClientOptions {
  /** Where the service answers, e.g. https://threadmark.example (a path prefix is kept). */
  baseUrl: string;
  /** Bearer key (a higher allowance on keyed routes). */
  apiKey?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** How 429 and 503 answers carrying Retry-After are retried; false = never. */
  retry?: RetryOptions | false;
  /** Extra request headers (a User-Agent naming your program, where the platform lets you set one). */
  headers?: Record<string, string>;
}

/** The rate-limit fields of an answer (the IETF RateLimit fields and the legacy triple of the tightest policy). */
export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  /** Seconds until the tightest window resets. */
  reset?: number;
  /** The structured `RateLimit` field as sent: every policy's remaining quota. */
  rateLimit?: string;
  /** The structured `RateLimit-Policy` field as sent: every policy's quota and window. */
  policy?: string;
}

export interface SendOptions {
  query?: Query;
  accept?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export function pathWithQuery(path: string, query: Query = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

const RETRIED = new Set([429, 503]);

export class Http {
  readonly baseUrl: string;
  /** The rate-limit fields of the last answer; undefined when it carried none. */
  rateLimit: RateLimitInfo | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly retry: Required<RetryOptions> | undefined;

  constructor(private readonly options: ClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(`baseUrl must be an http(s) URL (got ${JSON.stringify(options.baseUrl)})`);
    }
    this.baseUrl = base.href.replace(/\/+$/, '');
    const f = options.fetch ?? globalThis.fetch;
    // Called unbound, browsers' fetch throws "Illegal invocation".
    this.fetchImpl = (input, init) => f(input, init);
    this.retry =
      options.retry === false
        ? undefined
        : { retries: 2, maxDelayMs: 60_000, baseDelayMs: 500, ...(options.retry ?? {}) };
  }

  /** The answer after any retries, whatever its status. Throws only when the service cannot be reached. */
  async raw(path: string, opts: SendOptions = {}): Promise<Response> {
    const url = this.baseUrl + pathWithQuery(path, opts.query);
    const headers: Record<string, string> = { ...this.options.headers, ...opts.headers };
    if (opts.accept) headers.accept = opts.accept;
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, { headers, signal: opts.signal });
      } catch (e) {
        if (opts.signal?.aborted || (e as { name?: string }).name === 'AbortError') throw e;
        throw new ThreadmarkNetworkError(this.baseUrl, e);
      }
      this.rateLimit = rateLimitOf(res.headers);
      const wait = this.waitBeforeRetry(res, attempt);
      if (wait === undefined) return res;
      await res.body?.cancel().catch(() => undefined);
      await sleep(wait, opts.signal);
    }
  }

  /** A 2xx answer; anything else throws its problem as a ThreadmarkError. */
  async ok(path: string, opts: SendOptions = {}): Promise<Response> {
    const res = await this.raw(path, opts);
    if (res.status >= 200 && res.status <= 299) return res;
    throw new ThreadmarkError(res.status, res.headers, await res.text());
  }

  /** Milliseconds to wait before the next attempt, or undefined to hand this answer back. */
  private waitBeforeRetry(res: Response, attempt: number): number | undefined {
    const r = this.retry;
    if (!r || !RETRIED.has(res.status) || attempt >= r.retries) return undefined;
    const after = retryAfterSeconds(res.headers.get('retry-after'));
    if (after === undefined) return undefined;
    const backoff = r.baseDelayMs * 2 ** attempt;
    // Jitter spreads the clients a shared limit turned away, so they do not all come back in the same instant.
    const wait = Math.max(after * 1000, backoff) + Math.random() * backoff * 0.5;
    if (after * 1000 > r.maxDelayMs) return undefined;
    return Math.min(wait, r.maxDelayMs);
  }
}

function rateLimitOf(h: Headers): RateLimitInfo | undefined {
  const num = (name: string) => {
    const v = h.get(name);
    return v !== null && /^\d+$/.test(v.trim()) ? Number(v) : undefined;
  };
  const info: RateLimitInfo = {
    limit: num('ratelimit-limit'),
    remaining: num('ratelimit-remaining'),
    reset: num('ratelimit-reset'),
    rateLimit: h.get('ratelimit') ?? undefined,
    policy: h.get('ratelimit-policy') ?? undefined,
  };
  return Object.values(info).some((v) => v !== undefined) ? info : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
