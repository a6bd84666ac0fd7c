export interface CircuitOptions {
  /** Consecutive failures that open the circuit. */
  threshold: number;
  /** How long an open circuit skips the provider before one trial call is let through. */
  cooldownMs: number;
  now?: () => number;
}

/**
 * Per-provider breaker: after `threshold` consecutive failures the provider is skipped for `cooldownMs`,
 * so a dead upstream does not add its timeout to every request. After the cooldown one call is tried
 * again (half-open); a success closes the circuit, a failure re-opens it for another cooldown.
 */
export class Circuit {
  private failures = 0;
  private openedAt: number | undefined;
  private readonly now: () => number;

  constructor(private readonly opts: CircuitOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** True when a call may go through now. */
  allows(): boolean {
    if (this.openedAt === undefined) return true;
    return this.now() - this.openedAt >= this.opts.cooldownMs;
  }

  success(): void {
    this.failures = 0;
    this.openedAt = undefined;
  }

  failure(): void {
    this.failures += 1;
    if (this.failures >= this.opts.threshold) this.openedAt = this.now();
  }

  /** closed: normal; open: skipped until the cooldown ends; half-open: cooldown over, next call is a trial. */
  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openedAt === undefined) return 'closed';
    return this.allows() ? 'half-open' : 'open';
  }

  get open(): boolean {
    return !this.allows();
  }
}
