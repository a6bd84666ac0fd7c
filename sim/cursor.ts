// Opaque page cursors. They carry the list they belong to (scope) so a cursor replayed against another
// list is rejected, like X's cursors are.
const PREFIX = 'DAAB';

export function encodeCursor(scope: string, offset: number): string {
  return PREFIX + Buffer.from(`${scope}|${offset}`, 'utf8').toString('base64url');
}

/** Offset for a cursor of `scope`; null when the cursor is malformed or from another list. */
export function decodeCursor(scope: string, cursor: string): number | null {
  if (!cursor.startsWith(PREFIX)) return null;
  const raw = Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8');
  const sep = raw.lastIndexOf('|');
  if (sep < 0 || raw.slice(0, sep) !== scope) return null;
  const offset = Number(raw.slice(sep + 1));
  return Number.isInteger(offset) && offset >= 0 ? offset : null;
}

export interface Paged<T> {
  items: T[];
  /** Null on the last page. */
  bottom: string | null;
  top: string;
}

/** Slices one page; `invalid` when the cursor does not belong to this list. */
export function paginate<T>(all: T[], count: number, cursor: string | null, scope: string): Paged<T> | 'invalid' {
  const offset = cursor === null ? 0 : decodeCursor(scope, cursor);
  if (offset === null) return 'invalid';
  const items = all.slice(offset, offset + count);
  const end = offset + items.length;
  return {
    items,
    bottom: end < all.length ? encodeCursor(scope, end) : null,
    top: encodeCursor(`${scope}:top`, offset),
  };
}
