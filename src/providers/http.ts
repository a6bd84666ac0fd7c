import { ProviderError } from './types.ts';

export interface UpstreamRequest {
  signal?: AbortSignal;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Bodies above this many bytes are cut off and reported as a network failure (default 5 MiB). */
  maxBytes?: number;
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  text: string;
}

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * One GET to an upstream. Every transport-level failure (DNS, refused, reset, timeout, oversize body)
 * becomes `ProviderError(provider, 'network')` so the chain can fall through; an abort requested by the
 * caller is re-thrown untouched, because the caller no longer wants any answer from any provider.
 */
export async function fetchUpstream(provider: string, url: string, opts: UpstreamRequest): Promise<UpstreamResponse> {
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
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
    if (timeout.aborted) {
      throw new ProviderError(provider, 'network', `${provider} did not answer within ${opts.timeoutMs} ms`, { cause: err });
    }
    throw new ProviderError(provider, 'network', `${provider} could not be reached: ${describe(err)}`, { cause: err });
  }
}

async function readCapped(res: Response, maxBytes: number, provider: string): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new ProviderError(provider, 'network', `${provider} answered with ${declared} bytes, above the ${maxBytes} byte limit`, { status: res.status });
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
      throw new ProviderError(provider, 'network', `${provider} answer exceeded the ${maxBytes} byte limit`, { status: res.status });
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
