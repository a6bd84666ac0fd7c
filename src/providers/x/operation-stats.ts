// Per-operation counts of X's answers: served, failed (refused, rate limited, unusable) and stale (the signs
// of an out-of-date query id or feature set), so an operator sees which operation broke after a deploy.
import { OPERATION_NAMES, type OperationName } from './operations.ts';

export interface OperationCounts {
  success: number;
  failure: number;
  stale: number;
  /** ISO time of the last stale answer. */
  lastStaleAt?: string;
  /** How the last answer was counted. */
  last?: 'success' | 'failure' | 'stale';
}

export class OperationStats {
  private readonly counts = new Map<OperationName, OperationCounts>(
    OPERATION_NAMES.map((n) => [n, { success: 0, failure: 0, stale: 0 }]),
  );

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts one answer by the client's verdict on it ('ok', 'stale', or any kind of failure). */
  count(op: OperationName, verdict: string): void {
    const c = this.counts.get(op)!;
    c.last = verdict === 'ok' ? 'success' : verdict === 'stale' ? 'stale' : 'failure';
    c[c.last]++;
    if (verdict === 'stale') c.lastStaleAt = new Date(this.now()).toISOString();
  }

  get(op: OperationName): OperationCounts {
    return { ...this.counts.get(op)! };
  }
}
