// One push to a callback: a POST with a bounded body and time, no redirects followed, no credentials of ours, and
// the connection only to public addresses (callback-guard.ts). The answer's body is read up to a small bound and
// dropped: only the status matters.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { CallbackRefused, isPublicAddress, publicOnlyLookup } from './callback-guard.ts';

export interface PushOutcome {
  /** The callback's HTTP status, when it answered. */
  status?: number;
  error?: string;
  ok: boolean;
}

export interface PushOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  userAgent: string;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Kept-alive connections, so a source with many followers on one receiver does not open a socket per delivery; the
 * agents resolve names with the public-only lookup, so a reused connection was also checked when it was made.
 */
const agents = new Map<boolean, { http: HttpAgent; https: HttpsAgent }>();
function agentsFor(allowPrivate: boolean): { http: HttpAgent; https: HttpsAgent } {
  let a = agents.get(allowPrivate);
  if (!a) {
    const lookup = publicOnlyLookup(allowPrivate);
    const opts = { keepAlive: true, maxSockets: 16, ...(lookup ? { lookup } : {}) };
    a = { http: new HttpAgent(opts), https: new HttpsAgent(opts) };
    agents.set(allowPrivate, a);
  }
  return a;
}

function send(
  url: URL,
  method: 'GET' | 'POST',
  body: string | undefined,
  headers: Record<string, string>,
  opts: PushOptions,
): Promise<{ status: number; text: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowPrivate && isIP(host) && !isPublicAddress(host))
    return Promise.reject(new CallbackRefused(`${host} is not a public address`));
  const https = url.protocol === 'https:';
  const request = https ? httpsRequest : httpRequest;
  const agent = https ? agentsFor(opts.allowPrivate).https : agentsFor(opts.allowPrivate).http;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers: {
          'user-agent': opts.userAgent,
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
        timeout: opts.timeoutMs,
        signal: AbortSignal.timeout(opts.timeoutMs),
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(c);
          else res.destroy();
        });
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES),
          }),
        );
        res.on('error', () => undefined);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** POSTs `body`; 2xx is success, anything else (a redirect included) a failure with its reason. */
export async function pushTo(
  callback: string,
  body: string,
  headers: Record<string, string>,
  opts: PushOptions,
): Promise<PushOutcome> {
  try {
    const res = await send(new URL(callback), 'POST', body, headers, opts);
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    const redirect = res.status >= 300 && res.status < 400 ? ' (redirects are not followed)' : '';
    return { ok: false, status: res.status, error: `HTTP ${res.status}${redirect}` };
  } catch (err) {
    return { ok: false, error: (err as Error).message || String(err) };
  }
}

/** GET for WebSub's verification of intent: the answer's status and body (the echoed challenge). */
export async function getFrom(
  url: URL,
  opts: PushOptions,
): Promise<{ status: number; text: string } | { error: string }> {
  try {
    return await send(url, 'GET', undefined, {}, opts);
  } catch (err) {
    return { error: (err as Error).message || String(err) };
  }
}
