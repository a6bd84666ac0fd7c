import type { Deadline } from './deadline.ts';
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

/** Below this much time left, another attempt cannot produce an answer worth waiting for. */
const MIN_ATTEMPT_MS = 50;

async function attemptOnce(provider: string, url: string, opts: UpstreamRequest): Promise<UpstreamResponse> {
  const deadline = opts.deadline;
  if (deadline?.expired) {
    throw new ProviderError(provider, 'network', `${provider} was not asked: the request deadline had passed`, { timedOut: true });
  }
  const timeoutMs = Math.max(1, Math.min(opts.timeoutMs, deadline ? deadline.remainingMs() : Infinity));
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([timeout, ...[opts.signal, deadline?.signal].filter((s): s is AbortSignal => !!s)]);
  const maxBytes = opts.maxBytes ?? opts.policy?.maxBytes ?? DEFAULT_MAX_BYTES;
  try {
    const res = await fetch(url, {
      method: 'GET',
      headers: { accept: 'application/json', ...opts.headers },
      signal,
      redirect: 'follow',
    });
    const text = await readCapped(res, maxBytes, provider);
    return { status: res.status, headers: res.headers, text };
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason ?? err;
    if (err instanceof ProviderError) throw err;
    if (timeout.aborted || deadline?.signal.aborted) {
      const why = deadline?.signal.aborted || timeoutMs < opts.timeoutMs ? 'before the request deadline' : `within ${opts.timeoutMs} ms`;
      throw new ProviderError(provider, 'network', `${provider} did not answer ${why}`, { cause: err, timedOut: true });
    }
    throw new ProviderError(provider, 'network', `${provider} could not be reached: ${describe(err)}`, { cause: err });
  }
}

/** An oversize answer is the upstream misbehaving, not the network: reported as the provider's error. */
async function readCapped(res: Response, maxBytes: number, provider: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new ProviderError(provider, 'error', `${provider} answered with ${declared} bytes, above the ${maxBytes} byte limit`, { status: res.status });
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ProviderError(provider, 'error', `${provider} answer exceeded the ${maxBytes} byte limit`, { status: res.status });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Node's fetch hides the useful reason (ECONNREFUSED, ENOTFOUND...) in `cause`. */
function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
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
