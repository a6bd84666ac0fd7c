// The time budget of one read across every provider, attempt and retry wait. Per-call timeouts bound one
// HTTP exchange; the deadline bounds the whole chain so retries and fallbacks never add up to an
// unbounded wait. It is separate from the caller's abort signal: running out of time is a provider
// failure (`<provider>_network`), a caller abort is not a failure at all.

import { MIN_ATTEMPT_MS } from '../net/retry.ts';

/**
 * Budget of one read across every provider, retry and Retry-After wait. A read whose upstreams all stall
 * answers (stale copy, else the provider problem) a little after this: under 10 s, before most clients and
 * proxies give up (a 30 s proxy timeout would otherwise turn a stall into a 504 with no stale copy).
 */
export const DEFAULT_DEADLINE_MS = 9_000;
/**
 * Limit of one upstream call: a stalled first provider leaves the next one most of the deadline
 * (4 s + 4 s + what is left), while a healthy upstream answers in well under a second.
 */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 4_000;

export { MIN_ATTEMPT_MS };

export class Deadline {
  /** Epoch ms at which the read must give up. */
  readonly at: number;
  /** The same moment on the monotonic clock, whatever `now` is: when the signal fires. */
  readonly #endsAt: number;
  #signal: AbortSignal | undefined;

  constructor(
    budgetMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.at = now() + budgetMs;
    this.#endsAt = performance.now() + Math.max(1, budgetMs);
  }

  /**
   * Aborts when the deadline passes (reason: a TimeoutError DOMException). Made on first use: a read that answers
   * in time (nearly all of them) never needs one, and each costs a timer that outlives the read by the budget.
   */
  get signal(): AbortSignal {
    this.#signal ??= AbortSignal.timeout(Math.max(1, Math.ceil(this.#endsAt - performance.now())));
    return this.#signal;
  }

  /** Real milliseconds until the signal fires (what a per-attempt timer must not outlast). */
  realRemainingMs(): number {
    return Math.max(0, this.#endsAt - performance.now());
  }

  remainingMs(): number {
    return Math.max(0, this.at - this.now());
  }

  /** The budget has run out in real time: what the signal reports, asked for or not. */
  get passed(): boolean {
    return !!this.#signal?.aborted || this.realRemainingMs() === 0;
  }

  /** Too little time is left to start another provider or attempt (or none at all). */
  get spent(): boolean {
    return this.expired || this.realRemainingMs() < MIN_ATTEMPT_MS;
  }

  get expired(): boolean {
    return this.passed || this.remainingMs() === 0;
  }
}
