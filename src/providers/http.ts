import { fetchText } from '../net/client.ts';
import { NetError, transportReason } from '../net/errors.ts';
import { isRetryableStatus, retryAfterSeconds, backoffMs, type RetryPolicy } from '../net/retry.ts';
import type { Deadline } from './deadline.ts';
import { ProviderError } from './types.ts';

export { backoffMs, isRetryableStatus, retryAfterSeconds };

/** How hard one upstream read tries: retries after transient failures and the body size it accepts. */
export interface UpstreamPolicy extends RetryPolicy {
  /** Bodies above this many bytes are refused as that provider's error (default 5 MiB). */
  maxBytes?: number;
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
 * One idempotent GET to an upstream through the service's outbound client (net/), retried within the read's deadline:
 * - a refused/reset connection or a retryable 5xx is retried after a jittered, doubling backoff;
 * - a 503 with Retry-After is retried after exactly that delay, but only when the delay fits in what is
 *   left of the deadline; otherwise the 503 is handed back at once so the chain can fall through;
 * - a timed-out attempt is not retried: the upstream is slow, and the chain's next provider is a better
 *   use of the remaining budget than waiting on the same one again;
 * - redirects are followed (credentials dropped across origins) unless `redirectAllowed` refuses one.
 * Transport failures become `ProviderError(provider, 'network')`, an oversize body or a refused redirect `'error'`.
 * The final response (whatever its status) is returned for the provider to interpret.
 */
export async function fetchUpstream(provider: string, url: string, opts: UpstreamRequest): Promise<UpstreamResponse> {
  const headers = opts.policy?.userAgent
    ? { ...FETCH_HEADERS, 'user-agent': opts.policy.userAgent, ...opts.headers }
    : opts.headers
      ? { ...FETCH_HEADERS, ...opts.headers }
      : FETCH_HEADERS;
  try {
    const res = await fetchText(url, {
      headers,
      timeoutMs: opts.timeoutMs,
      ...(opts.deadline ? { deadline: opts.deadline } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      maxBytes: opts.maxBytes ?? opts.policy?.maxBytes ?? DEFAULT_MAX_BYTES,
      follow: opts.redirectAllowed ?? followAny,
      decode: true,
      ...(opts.policy ? { retry: opts.policy } : {}),
    });
    return { status: res.status, headers: res.headers, text: res.body };
  } catch (err) {
    throw err instanceof NetError ? providerFailure(provider, err, opts.timeoutMs) : err;
  }
}

const followAny = () => true;

/** A failure of the outbound client in the provider's words: network trouble, or the upstream misbehaving. */
function providerFailure(provider: string, err: NetError, timeoutMs: number): ProviderError {
  const { status } = err.opts;
  switch (err.kind) {
    case 'not_asked':
      return new ProviderError(provider, 'network', `${provider} was not asked: the request deadline had passed`, {
        timedOut: true,
        notAsked: true,
      });
    case 'timeout': {
      const why = err.opts.byDeadline ? 'before the request deadline' : `within ${timeoutMs} ms`;
      return new ProviderError(provider, 'network', `${provider} did not answer ${why}`, {
        cause: err.opts.cause,
        timedOut: true,
      });
    }
    case 'too_large':
      return new ProviderError(
        provider,
        'error',
        err.opts.declared !== undefined
          ? `${provider} answered with ${err.opts.declared} bytes, above the ${err.opts.limit} byte limit`
          : `${provider} answer exceeded the ${err.opts.limit} byte limit`,
        status !== undefined ? { status } : {},
      );
    case 'redirect_refused':
      return new ProviderError(
        provider,
        'error',
        `${provider} redirected to ${err.opts.to?.origin}, which this read may not follow`,
      );
    default:
      return new ProviderError(
        provider,
        'network',
        `${provider} could not be reached: ${transportReason(err.opts.cause ?? err)}`,
        {
          cause: err.opts.cause ?? err,
        },
      );
  }
}

/** The request headers Node's fetch() sends, so upstreams see the request a fetch() client makes; providers' own headers win. */
const FETCH_HEADERS: Record<string, string> = {
  accept: 'application/json',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

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
