export interface CircuitOptions {
  /** Consecutive failures that open the circuit. */
  threshold: number;
  /** How long an open circuit skips the provider before one trial call is let through. */
  cooldownMs: number;
  now?: () => number;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/** What `acquire` granted: an ordinary call, or the single trial of a half-open circuit. */
export type Ticket = 'call' | 'trial';

/**
 * Per-provider breaker: after `threshold` consecutive failures the provider is skipped for `cooldownMs`,
 * so a dead upstream does not add its timeout to every request. After the cooldown exactly one call is
 * let through as a trial (half-open) while every other call keeps skipping; the trial's success closes
 * the circuit, its failure re-opens it for another cooldown.
 */
export class Circuit {
  private failures = 0;
  private openedAt: number | undefined;
  private trialInFlight = false;
  private readonly now: () => number;

  constructor(private readonly opts: CircuitOptions) {
    this.now = opts.now ?? Date.now;
  }

  /**
   * Asks to make a call now: 'call' when closed; 'trial' when the cooldown is over and no trial is running
   * (the holder must end it with `success`, `failure` or `release`); undefined = skip this provider.
   */
  acquire(): Ticket | undefined {
    if (this.openedAt === undefined) return 'call';
    if (this.coolingDown() || this.trialInFlight) return undefined;
    this.trialInFlight = true;
    return 'trial';
  }

  /** Any success is evidence of health: the circuit closes. */
  success(ticket: Ticket = 'call'): void {
    this.failures = 0;
    this.openedAt = undefined;
    if (ticket === 'trial') this.trialInFlight = false;
  }

  /** A failed trial re-opens at once; ordinary failures open the circuit at the threshold. */
  failure(ticket: Ticket = 'call'): void {
    this.failures += 1;
    if (ticket === 'trial') this.trialInFlight = false;
    if (ticket === 'trial' || this.failures >= this.opts.threshold) this.openedAt = this.now();
  }

  /** Ends a call that proved nothing either way (aborted, no session): a held trial is handed back. */
  release(ticket: Ticket): void {
    if (ticket === 'trial') this.trialInFlight = false;
  }

  /** closed: normal; open: skipped until the cooldown ends; half-open: cooldown over, one trial allowed or running. */
  get state(): CircuitState {
    if (this.openedAt === undefined) return 'closed';
    return this.coolingDown() ? 'open' : 'half-open';
  }

  /** Milliseconds until a trial may run (0 when closed or half-open). */
  get retryInMs(): number {
    if (this.openedAt === undefined) return 0;
    return Math.max(0, this.openedAt + this.opts.cooldownMs - this.now());
  }

  private coolingDown(): boolean {
    return this.openedAt !== undefined && this.now() - this.openedAt < this.opts.cooldownMs;
  }
}
