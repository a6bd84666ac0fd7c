// The one fixed window every limit counts in, whichever backend holds the counters: a partition's window opens
// with its first charge and lasts the policy's window; a charge is allowed while the points consumed in it stay
// within the quota; the state a response advertises (remaining, reset, the window's end) follows from the count
// alone. The in-process backend is window-table.ts, the shared one the Redis script of redis-window.ts; the
// limiter (limiter.ts) turns either's count into a LimitState here, so the guards and the response layer's
// fast path read the same state from both.
import type { LimitState, Policy } from './policies.ts';

/** A partition's count in its current window, as either backend reports it. */
export interface WindowState {
  allowed: boolean;
  consumed: number;
  /** Epoch ms at which the window ends. */
  endsAt: number;
}

/** The state of a partition that has no live window: nothing consumed, a whole window ahead. */
export function untouched(p: Policy): LimitState {
  return { allowed: true, policy: p.name, limit: p.quota, windowS: p.windowS, remaining: p.quota, resetS: p.windowS };
}

/** The state a count stands for at `now`: what the RateLimit fields and Retry-After are written from. */
export function windowState(p: Policy, count: WindowState, now = Date.now()): LimitState {
  return {
    allowed: count.allowed,
    policy: p.name,
    limit: p.quota,
    windowS: p.windowS,
    remaining: Math.max(0, p.quota - count.consumed),
    resetS: Math.min(p.windowS, Math.max(1, Math.ceil((count.endsAt - now) / 1000))),
    windowEndsAt: count.endsAt,
  };
}
