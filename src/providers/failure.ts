// What a run of the provider chain ends with when no provider answered. The chain only reports what the providers
// said; the caller (src/sources) turns it into a catalog problem, since the status depends on the read (a failed
// search is a 503, a failed post read a 502; list reads have their own "no session" code).
import type { Capability, FailureKind } from './types.ts';

/** One provider's failure within a read. */
export interface Failure {
  provider: string;
  kind: FailureKind;
  message: string;
  /** The upstream's HTTP status, when it answered. */
  status?: number;
  /** When the provider said to come back (e.g. every session parked). */
  retryAfterS?: number;
  /** Set when the provider was not asked because its breaker is open: seconds until its next trial. */
  skippedForS?: number;
}

export type ChainFailure =
  /** A provider stated that the content is deleted, protected or missing; the chain stopped there. */
  | { kind: 'gone'; provider: string; message: string }
  /** Every provider asked said "not found" in a way it also uses for its own failures, and nobody contradicted it. */
  | { kind: 'unconfirmed'; failures: Failure[] }
  /**
   * No provider can serve the capability (or not the one `only` names). `parked` is the provider that has it back
   * soonest, when one lacks it only for now (every session parked until a known reset).
   */
  | { kind: 'no_provider'; capability: Capability; only?: string; parked?: { provider: string; waitS: number } }
  /**
   * Every provider asked failed (or, when none could be asked, every breaker was open: those providers are in
   * `failures` with `skippedForS`). `skipped` names providers passed over by their breaker while others were
   * asked; `untried` those not asked because the read's deadline had passed.
   */
  | { kind: 'failed'; failures: Failure[]; skipped: string[]; untried: string[] };

/** A run's result: the first answer and who gave it, or why there is none. */
export type ChainOutcome<T> = { ok: true; value: T; source: string } | { ok: false; failure: ChainFailure };
