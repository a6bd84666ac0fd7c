// When an idempotent request is asked again: after a refused or reset connection or a transient 5xx, within the
// read's deadline, never after a timeout (the next provider is a better use of what is left than the same one).

/** Below this much time left, another attempt cannot produce an answer worth waiting for. */
export const MIN_ATTEMPT_MS = 50;

/** A time budget across attempts and the waits between them (the providers' Deadline is one). */
export interface Budget {
  readonly expired: boolean;
  /** The budget has run out in real time. */
  readonly passed: boolean;
  remainingMs(): number;
  /** Real milliseconds until `signal` fires (what a per-attempt timer must not outlast). */
  realRemainingMs(): number;
  readonly signal: AbortSignal;
}

export interface RetryPolicy {
  /** Extra attempts after a connection failure or a retryable 5xx (0 = try once). */
  retries: number;
  /** First backoff step; each retry doubles it, with jitter between half and the full step. */
  backoffMs: number;
  /** Jitter source, replaceable in tests. */
  random?: () => number;
}

/**
 * Statuses worth asking again: transient server trouble. 501 and 505 will not change on a retry; no
 * upstream we read uses a 5xx to say "this content does not exist" (they use 404/401 or a tombstone).
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 && status !== 501 && status !== 505;
}

/** Wait before retry number `attempt + 1`: a random point in the upper half of `backoffMs * 2^attempt`. */
export function backoffMs(policy: RetryPolicy, attempt: number): number {
  const step = policy.backoffMs * 2 ** attempt;
  return Math.round(step / 2 + (policy.random ?? Math.random)() * (step / 2));
}

/** Retry-After in seconds (delta or HTTP date), when the answer carries one. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Waits `ms` before another attempt; false (without waiting) when the wait plus a minimal attempt would
 * overrun the deadline. A caller abort during the wait is re-thrown; the deadline ending ends the wait.
 */
export async function pause(
  ms: number,
  signal: AbortSignal | undefined,
  deadline: Budget | undefined,
): Promise<boolean> {
  const remaining = deadline ? deadline.remainingMs() : Infinity;
  if (ms + MIN_ATTEMPT_MS > remaining) return false;
  const signals = [signal, deadline?.signal].filter((s): s is AbortSignal => !!s);
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of signals) s.addEventListener('abort', done, { once: true });
  });
  if (signal?.aborted) throw signal.reason;
  return !deadline?.expired;
}
