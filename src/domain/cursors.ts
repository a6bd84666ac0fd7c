// Our cursors as the domain sees them: a position (provider, upstream cursor, page, place inside the page) bound
// to the route, query and feed that issued it. Sealing is a port: the domain states what it needs (a token nobody
// can read, edit, forge or move to another scope) and the composition root hands it an implementation
// (secrets/cursor-sealer.ts). Providers only ever see their own raw upstream cursors; callers only sealed ones.
import { DomainError, type CursorRefusal } from './errors.ts';

export interface CursorScope {
  /** Route family: profile, followers, following, search. */
  route: string;
  /** Normalized query: lower-cased handle, or the search terms. */
  query: string;
  /** Search feed; empty for the other routes. */
  feed: string;
}

export interface CursorState {
  provider: string;
  upstream: string;
  /** Page number the cursor leads to. */
  page: number;
  /** A position inside that page (exports stop mid-page): items already delivered, and the last one's id. */
  skip?: number;
  last?: string;
}

export type OpenedCursor = { ok: true; state: CursorState } | { ok: false; why: CursorRefusal };

export interface CursorSealer {
  /** The same scope and state always seal to the same token, so a cached page keeps its bytes and ETag. */
  seal(scope: CursorScope, state: CursorState): string;
  open(scope: CursorScope, token: string): OpenedCursor;
}

/** The position a cursor seals, or the domain's refusal of it. */
export function openCursor(
  sealer: CursorSealer,
  scope: CursorScope,
  token: string,
  of: 'page' | 'export' = 'page',
): CursorState {
  const opened = sealer.open(scope, token);
  if (!opened.ok) throw new DomainError({ kind: 'bad_cursor', why: opened.why, of });
  return opened.state;
}
