// What a use case refuses, typed: the edge (http/failures/domain-problem.ts) decides the code, status, headers and wording
// of the answer, as app/chain-problem.ts does for the provider chain's failures. The domain never names a status.

/**
 * Why a cursor does not open: not a token this service issues at all, one that fails authentication (edited,
 * forged, or sealed by another deployment), or a genuine one presented on another route, query or feed.
 */
export type CursorRefusal = 'not_issued' | 'forged' | 'elsewhere';

export type DomainFailure =
  /** A search without terms. */
  | { kind: 'missing_query' }
  /** Search terms longer than `max` characters (`withWindow`: counted together with the date window's operators). */
  | { kind: 'query_too_long'; max: number; withWindow: boolean }
  /** A cursor that does not open here; `of` is what the cursor positions: a page of a list, or an export. */
  | { kind: 'bad_cursor'; why: CursorRefusal; of: 'page' | 'export' }
  /** A list id the platform cannot have issued. */
  | { kind: 'impossible_list_id'; id: string };

export class DomainError extends Error {
  readonly failure: DomainFailure;

  constructor(failure: DomainFailure) {
    super(`domain refused the read: ${failure.kind}`);
    this.name = 'DomainError';
    this.failure = failure;
  }
}

export function isDomainError(e: unknown): e is DomainError {
  return e instanceof DomainError;
}

/**
 * The sources reject with errors that carry a `code` (the sources layer answers with catalog problems); a use case
 * reads only that code, to tell a missing account or list apart from a failed read. Never a status or a header.
 */
export function sourceFailureCode(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || !('code' in e)) return undefined;
  return typeof e.code === 'string' ? e.code : undefined;
}
