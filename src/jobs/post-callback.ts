// One push to a callback: a POST with a bounded body and time, no redirects followed, no credentials of ours, and
// the connection only to public addresses, checked when it is made (net/addresses.ts). The answer's body is read up to a small bound and
// dropped: only the status matters.
import { fetchText } from '../net/client.ts';

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

/** One exchange with a callback: never retried (a push is not idempotent), never redirected, public addresses only. */
async function send(
  url: URL,
  method: 'GET' | 'POST',
  body: string | undefined,
  headers: Record<string, string>,
  opts: PushOptions,
): Promise<{ status: number; text: string }> {
  const res = await fetchText(url, {
    method,
    headers: { 'user-agent': opts.userAgent, ...headers },
    ...(body !== undefined ? { body } : {}),
    timeoutMs: opts.timeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
    truncate: true,
    publicOnly: !opts.allowPrivate,
  });
  return { status: res.status, text: res.body };
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
