// The candidates measured against src/providers/http.ts by bench/upstream-client.ts: one upstream attempt with the
// same contract (redirects followed with credentials dropped across origins, content codings undone, the body
// capped, a timeout and the caller's abort), written on Node's built-in fetch (undici inside Node) and on the
// undici package's own request API. Retries and backoff sit above the attempt and are shared, so they are left out.
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { headersForHop } from '../../src/net/client.ts';
import type { UpstreamResponse } from '../../src/providers/http.ts';
import { ProviderError } from '../../src/providers/types.ts';

export interface Attempt {
  timeoutMs: number;
  headers?: Record<string, string>;
  maxBytes?: number;
  signal?: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const HEADERS: Record<string, string> = {
  accept: 'application/json',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

/** Timeout and caller abort folded into one signal, and the error mapping both candidates share. */
async function guarded<T>(provider: string, a: Attempt, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ac.abort(new DOMException('The operation timed out.', 'TimeoutError'));
  }, a.timeoutMs);
  const onAbort = () => ac.abort(a.signal!.reason);
  a.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await run(ac.signal);
  } catch (err) {
    if (a.signal?.aborted) throw a.signal.reason ?? err;
    if (err instanceof ProviderError) throw err;
    if (timedOut) throw new ProviderError(provider, 'network', `${provider} did not answer within ${a.timeoutMs} ms`);
    throw new ProviderError(provider, 'network', `${provider} could not be reached`, { cause: err });
  } finally {
    clearTimeout(timer);
    a.signal?.removeEventListener('abort', onAbort);
  }
}

function tooBig(provider: string, maxBytes: number, status: number): ProviderError {
  return new ProviderError(provider, 'error', `${provider} answer exceeded the ${maxBytes} byte limit`, { status });
}

/** Reads a decoded body up to `maxBytes`. */
async function capped(body: AsyncIterable<Uint8Array>, maxBytes: number, provider: string, status: number) {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooBig(provider, maxBytes, status);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Node's built-in fetch: decoding is fetch's own; redirects are followed by hand to drop credentials. */
export function viaFetch(provider: string, url: string, a: Attempt): Promise<UpstreamResponse> {
  const maxBytes = a.maxBytes ?? DEFAULT_MAX_BYTES;
  return guarded(provider, a, async (signal) => {
    let at = new URL(url);
    let headers = { ...HEADERS, ...a.headers };
    for (let hop = 0; ; hop++) {
      const res = await fetch(at, { headers, redirect: 'manual', signal });
      const location = res.headers.get('location');
      if (location !== null && REDIRECTS.has(res.status)) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS) throw new Error('redirect count exceeded');
        const next = new URL(location, at);
        headers = headersForHop(at, next, headers);
        at = next;
        continue;
      }
      if (Number(res.headers.get('content-length') ?? NaN) > maxBytes) {
        await res.body?.cancel();
        throw tooBig(provider, maxBytes, res.status);
      }
      const text = res.body ? await capped(res.body, maxBytes, provider, res.status) : '';
      return { status: res.status, headers: res.headers, text };
    }
  });
}

interface UndiciModule {
  request(
    url: URL,
    opts: { method: 'GET'; headers: Record<string, string>; signal: AbortSignal },
  ): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: Readable }>;
}

/** The undici package's request API, when the package is installed (it is not a dependency of the service). */
export async function loadUndici(): Promise<UndiciModule | undefined> {
  try {
    // Named through a variable: the package is optional here, and its absence must not fail the typecheck.
    const name: string = 'undici';
    return (await import(name)) as UndiciModule;
  } catch {
    return undefined;
  }
}

export function viaUndici(undici: UndiciModule, provider: string, url: string, a: Attempt): Promise<UpstreamResponse> {
  const maxBytes = a.maxBytes ?? DEFAULT_MAX_BYTES;
  return guarded(provider, a, async (signal) => {
    let at = new URL(url);
    let headers = { ...HEADERS, ...a.headers };
    for (let hop = 0; ; hop++) {
      const res = await undici.request(at, { method: 'GET', headers, signal });
      const out = new Headers();
      for (const [k, v] of Object.entries(res.headers)) {
        if (Array.isArray(v)) for (const one of v) out.append(k, one);
        else if (v !== undefined) out.append(k, v);
      }
      const location = out.get('location');
      if (location !== null && REDIRECTS.has(res.statusCode)) {
        res.body.resume();
        if (hop >= MAX_REDIRECTS) throw new Error('redirect count exceeded');
        const next = new URL(location, at);
        headers = headersForHop(at, next, headers);
        at = next;
        continue;
      }
      if (Number(out.get('content-length') ?? NaN) > maxBytes) {
        res.body.on('error', () => {}).destroy();
        throw tooBig(provider, maxBytes, res.statusCode);
      }
      const coding = out.get('content-encoding')?.trim().toLowerCase();
      const decoder =
        coding === 'gzip'
          ? createGunzip()
          : coding === 'deflate'
            ? createInflate()
            : coding === 'br'
              ? createBrotliDecompress()
              : undefined;
      const body = decoder ? res.body.pipe(decoder) : res.body;
      return { status: res.statusCode, headers: out, text: await capped(body, maxBytes, provider, res.statusCode) };
    }
  });
}
