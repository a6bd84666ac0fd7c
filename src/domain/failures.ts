// Why a read has no answer, typed. The provider chain reports what its providers said (`ChainFailure`); the
// sources reject with a `SourceError` (the content is not there, or no provider answered and how this read answers
// that); a charge the caller's allowance refuses rejects with `AllowanceRefused`. None of them names a status, a
// header or the words a client reads: one module at the edge (http/failures/problem-of.ts) maps every failure to its
// problem document.
import type { Capability } from './capabilities.ts';
import { DomainError } from './errors.ts';

/**
 * How a provider call failed. `not_found` is a positive statement that the content is missing,
 * deleted or protected; the others make the chain fall through to the next provider.
 * `unavailable` = the provider cannot serve this right now (no usable session); `retryAfterS` says when.
 * `unconfirmed` = the provider says "not found" in a way it also uses for its own failures (FxTwitter's bare
 * 404): another provider may confirm or contradict it.
 */
export type FailureKind = 'error' | 'empty' | 'network' | 'not_found' | 'unavailable' | 'unconfirmed';

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

/** How a read answers when the chain has no answer for it (the sources say which read this is). */
export interface FailureAnswer {
  /** Search: 503 with Retry-After instead of 502, and `search_unavailable` when nothing can serve it. */
  search?: boolean;
  /** Reads other than search (X Lists, quotes, reposts, tabs, trends): the 503 when no provider can serve them. */
  unavailable?: 'list_unavailable' | 'read_unavailable' | 'trends_unavailable';
  /** What to do about a `not_found` when the catalog's (a post or profile) is not about this read. */
  notFound?: string;
}

export type SourceFailure =
  /**
   * Missing, deleted, suspended, protected or not public, as `source` said it; `confirmed: false` when no provider
   * could confirm it (a stale copy may still stand in, an ancestor walk retries); `cached` when the answer is a
   * remembered "not found" rather than an upstream's.
   */
  | { kind: 'not_found'; detail: string; source?: string; confirmed?: false; resolution?: string; cached?: true }
  /** No provider answered: the chain's report, and how this read answers it. */
  | { kind: 'no_answer'; failure: Extract<ChainFailure, { kind: 'no_provider' | 'failed' }>; answer: FailureAnswer }
  /** No configured provider lists trends at all (not a passing failure: said before anything is read). */
  | { kind: 'no_trends_provider' };

export class SourceError extends Error {
  readonly failure: SourceFailure;

  constructor(failure: SourceFailure) {
    super(`the source has no answer: ${failure.kind}`);
    this.name = 'SourceError';
    this.failure = failure;
  }
}

/** The caller's allowance refused a charge made for a read (ReadPolicy.beforeLive, chargeSession). */
export class AllowanceRefused extends Error {
  constructor(
    /** The allowance (policy) used up. */
    readonly allowance: string,
    /** Seconds until it has points again. */
    readonly resetS: number,
  ) {
    super(`the ${allowance} allowance is used up`);
    this.name = 'AllowanceRefused';
  }
}

/**
 * A provider's message as the words a client reads: the provider is named by a member of the problem (`source`,
 * `failures`), so the sentence never opens with its internal name (`syndication: post 1 not found` reads
 * `Post 1 not found`; `fxtwitter returned no post` reads `The upstream returned no post`).
 */
export function plainDetail(provider: string, message: string): string {
  const m = new RegExp(`^${provider.replace(/[^a-z0-9]/gi, '\\$&')}(:\\s+|\\s+)(.+)$`, 's').exec(message);
  if (!m) return message;
  const rest = m[2]!;
  // `x UserTweets: …`: the operation's name opens the sentence; a verb (`returned no post`) gets a subject.
  if (m[1]!.startsWith(':') || /^[^\s:]+(?: [^\s:]+)?: /.test(rest))
    return rest.charAt(0).toUpperCase() + rest.slice(1);
  return `The upstream ${rest}`;
}

/** The content is not there: a source's "not found" (confirmed or not), or an id the platform cannot have issued. */
export function isNotFound(e: unknown): boolean {
  if (e instanceof SourceError) return e.failure.kind === 'not_found';
  return e instanceof DomainError && e.failure.kind === 'impossible_id';
}

/** A "not found" no provider doubted: a settled fact, where an unconfirmed one may read fine next time. */
export function isSettledNotFound(e: unknown): boolean {
  return (
    isNotFound(e) && !(e instanceof SourceError && e.failure.kind === 'not_found' && e.failure.confirmed === false)
  );
}

/**
 * The catalog code a source's failure answers with. The edge's problem document carries it (http/failures/
 * problem-of.ts adds the status, headers and words) and so does the warning of a stale copy served in its place
 * (stores/cache/read-through.ts), so the two always agree.
 * - One failed provider gives `<provider>_<kind>` (`unavailable`, `not_found` and `unconfirmed` read as
 *   `<provider>_error`: the catalog has no code for them in that family); several give `all_providers_failed`.
 * - A read that names its own code for "nothing can serve it now" (search, X Lists, tabs, trends) answers with it
 *   when no provider can serve it or every one lacked a usable session.
 * - No capable provider otherwise: `upstream_error`, or `<provider>_error` while the provider that has the
 *   capability has every session parked.
 */
export type SourceFailureCode =
  | 'not_found'
  | 'trends_unavailable'
  | 'search_unavailable'
  | NonNullable<FailureAnswer['unavailable']>
  | 'upstream_error'
  | `${string}_${'error' | 'empty' | 'network'}`
  | 'all_providers_failed';

export function failureCode(failure: SourceFailure): SourceFailureCode {
  if (failure.kind === 'not_found') return 'not_found';
  if (failure.kind === 'no_trends_provider') return 'trends_unavailable';
  const { failure: chain, answer } = failure;
  const unavailable: SourceFailureCode | undefined = answer.search ? 'search_unavailable' : answer.unavailable;
  if (chain.kind === 'no_provider') {
    if (unavailable) return unavailable;
    return chain.parked ? `${chain.parked.provider}_error` : 'upstream_error';
  }
  if (unavailable && chain.failures.every((f) => f.kind === 'unavailable')) return unavailable;
  const [only, ...more] = chain.failures;
  if (!only || more.length > 0) return 'all_providers_failed';
  const kind =
    only.kind === 'unavailable' || only.kind === 'not_found' || only.kind === 'unconfirmed' ? 'error' : only.kind;
  return `${only.provider}_${kind}`;
}
