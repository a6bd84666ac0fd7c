// A session call that would only confirm another provider's unvouched "not found" (FxTwitter's bare 404 for a
// handle nobody has) is the cheapest way for anonymous clients to spend the operator's sessions: a made-up handle
// costs them nothing. Confirmations may therefore use only a share of each operation's pooled window, as X itself
// counts it (the rate-limit headers of every session): once less than the rest is left, the "not found" stands
// unconfirmed and the window is kept for reads of accounts that exist. X counts per account, so instances that
// share the sessions see each other's calls in those headers.
import type { OperationName } from './operations.ts';
import type { SessionPool } from './sessions.ts';

/** The share of each operation's pooled session window that confirmations may spend. */
export const CONFIRMATION_SHARE = 0.25;

export class Confirmations {
  /** Confirmations sent and not yet answered, per operation: their calls are not in X's headers yet. */
  private readonly inFlight = new Map<OperationName, number>();

  constructor(
    private readonly pool: SessionPool,
    private readonly share = CONFIRMATION_SHARE,
  ) {}

  /**
   * Takes one confirmation of `op`: a release function to call once it is answered, or undefined when the share
   * is spent. Before X has announced a window for `op`, one confirmation at a time goes out to learn it.
   */
  take(op: OperationName): (() => void) | undefined {
    const flying = this.inFlight.get(op) ?? 0;
    const w = this.pool.pooledWindow(op);
    const allowed = w ? w.remaining - flying - 1 >= w.limit * (1 - this.share) : flying === 0;
    if (!allowed) return undefined;
    this.inFlight.set(op, flying + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inFlight.set(op, (this.inFlight.get(op) ?? 1) - 1);
    };
  }
}
