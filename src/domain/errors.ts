// What a use case refuses, typed: the edge (http/failures/problem-of.ts) decides the code, status, headers and
// wording of the answer, as it does for the sources' failures (domain/failures.ts). The domain never names a status.
import type { LinkRefusal } from './pasted-link.ts';

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
  /** An id the platform cannot have issued. */
  | { kind: 'impossible_id'; of: 'post' | 'account' | 'list'; id: string }
  /** A pasted link this service does not read: another host, a broken link, a path that names nothing readable. */
  | { kind: 'refused_link'; refusal: LinkRefusal };

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
