// The time budget of one read across every provider, attempt and retry wait. Per-call timeouts bound one
// HTTP exchange; the deadline bounds the whole chain so retries and fallbacks never add up to an
// unbounded wait. It is separate from the caller's abort signal: running out of time is a provider
// failure (`<provider>_network`), a caller abort is not a failure at all.

export class Deadline {
  /** Epoch ms at which the read must give up. */
  readonly at: number;
  /** Aborts when the deadline passes (reason: a TimeoutError DOMException). */
  readonly signal: AbortSignal;

  constructor(
    budgetMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.at = now() + budgetMs;
    this.signal = AbortSignal.timeout(Math.max(1, budgetMs));
  }

  remainingMs(): number {
    return Math.max(0, this.at - this.now());
  }

  get expired(): boolean {
    return this.signal.aborted || this.remainingMs() === 0;
  }
}
