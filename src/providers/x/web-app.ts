// What the X provider keeps from X's web app: the signing inputs for `x-client-transaction-id` (read when a
// signed operation first needs them) and, with THREADMARK_X_DISCOVER=true, the current query ids (read at
// start and again when an operation shows the signs of a stale id). Reads are single-flight, and a stale
// operation triggers at most one read per STALE_REFRESH_FLOOR_MS, so a missing id never hammers X.
import { SingleFlight } from '../../common/single-flight.ts';
import type { UpstreamPolicy } from '../http.ts';
import type { OperationName } from './operations.ts';
import type { OperationTable, TableLog } from './operation-table.ts';
import type { TransactionInputs } from './transaction-id.ts';
import { readWebBundle, type WebBundle } from './web-bundle.ts';

/** Least time between two bundle reads triggered by the same operation's stale answers. */
export const STALE_REFRESH_FLOOR_MS = 30_000;
/** Start-up discovery is tried this many more times, this far apart, when X's web app does not answer. */
export const START_RETRIES = 3;
export const START_RETRY_MS = 5_000;
/** After a read that yielded no signing inputs, signed calls go out unsigned this long before another try. */
export const SIGNING_RETRY_MS = 60_000;

export interface WebAppOptions {
  /** THREADMARK_X_WEB_URL */
  webUrl: string;
  /** THREADMARK_X_DISCOVER */
  discover: boolean;
  table: OperationTable;
  timeoutMs: number;
  policy?: UpstreamPolicy;
  log?: TableLog;
  now?: () => number;
}

export interface WebAppStatus {
  discover: boolean;
  webUrl: string;
  lastReadAt?: string;
  lastError?: string;
  signing: 'ready' | 'not_read' | 'unavailable';
}

export class XWebApp {
  /** One read of the web app at a time: callers during a read share it. */
  private readonly reads = new SingleFlight<'bundle', WebBundle | undefined>();
  private readonly staleAt = new Map<OperationName, number>();
  private lastReadAt?: number;
  private lastSigningAttemptAt?: number;
  private lastError?: string;
  private transaction?: TransactionInputs;
  private readonly now: () => number;
  private retryTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly opts: WebAppOptions) {
    this.now = opts.now ?? Date.now;
  }

  get discover(): boolean {
    return this.opts.discover;
  }

  /**
   * Start-up discovery. A failed read is logged and tried again a few times (START_RETRY_MS apart); until one
   * succeeds the shipped/override ids stay in force, and a stale answer triggers a read anyway.
   */
  start(): void {
    if (!this.opts.discover) return;
    const attempt = (left: number) => {
      void this.read('start').then((bundle) => {
        if (bundle || left <= 0 || this.closed) return;
        this.retryTimer = setTimeout(() => attempt(left - 1), START_RETRY_MS);
        this.retryTimer.unref();
      });
    };
    attempt(START_RETRIES);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
  }

  /**
   * `op` answered like a stale id: re-read the bundle (discovery on, not read for `op` lately) and return
   * whether the id in force for `op` changed, i.e. whether a retry can help.
   */
  async refreshFor(op: OperationName, usedQueryId: string): Promise<boolean> {
    if (!this.opts.discover) return false;
    const at = this.staleAt.get(op);
    if (at === undefined || this.now() - at >= STALE_REFRESH_FLOOR_MS) {
      this.staleAt.set(op, this.now());
      await this.read(`${op} looked stale`);
    }
    return this.opts.table.get(op).queryId !== usedQueryId;
  }

  /** Signing inputs, reading the bundle the first time (and after `resetSigning`). */
  async signingInputs(): Promise<TransactionInputs | undefined> {
    const last = this.lastSigningAttemptAt;
    if (!this.transaction && (last === undefined || this.now() - last >= SIGNING_RETRY_MS)) {
      this.lastSigningAttemptAt = this.now();
      await this.read('signing');
    }
    return this.transaction;
  }

  /**
   * X refused a signed call: the verification key or animations may have changed since the last read.
   * Returns whether fresh inputs are in hand (a retry can help).
   */
  async resetSigning(): Promise<boolean> {
    this.transaction = undefined;
    this.lastSigningAttemptAt = this.now();
    await this.read('signing refused');
    return this.transaction !== undefined;
  }

  status(): WebAppStatus {
    return {
      discover: this.opts.discover,
      webUrl: this.opts.webUrl,
      ...(this.lastReadAt ? { lastReadAt: new Date(this.lastReadAt).toISOString() } : {}),
      ...(this.lastError ? { lastError: this.lastError } : {}),
      signing: this.transaction ? 'ready' : this.lastReadAt || this.lastError ? 'unavailable' : 'not_read',
    };
  }

  private read(reason: string): Promise<WebBundle | undefined> {
    return this.reads.run('bundle', () => this.readOnce(reason));
  }

  private async readOnce(reason: string): Promise<WebBundle | undefined> {
    const { log, webUrl } = this.opts;
    try {
      const bundle = await readWebBundle(webUrl, { timeoutMs: this.opts.timeoutMs, policy: this.opts.policy });
      this.lastReadAt = this.now();
      this.lastError = undefined;
      if (bundle.transaction) this.transaction = bundle.transaction;
      else log?.warn({ webUrl, reason: bundle.transactionError }, 'x web bundle: no request-signing inputs');
      if (this.opts.discover) {
        const before = new Map(this.opts.table.rows().map((r) => [r.name, r.operation.queryId]));
        const changed = this.opts.table.applyDiscovered(bundle.queryIds);
        const ids = Object.fromEntries(
          changed.map((n) => [n, `${before.get(n)} -> ${this.opts.table.get(n).queryId}`]),
        );
        log?.info(
          { reason, changed: ids },
          changed.length ? 'x operations discovered: new query ids in force' : 'x operations discovered: no change',
        );
      }
      return bundle;
    } catch (err) {
      this.lastError = (err as Error).message;
      log?.warn({ webUrl, reason }, `x web bundle could not be read: ${this.lastError}`);
      return undefined;
    }
  }
}
