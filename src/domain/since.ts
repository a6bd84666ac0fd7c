// Incremental reads: only posts newer than a known id. Status ids are snowflakes, so a larger id is a later
// post; they are compared as digit strings (no float rounding above 2^53).

function canonical(id: string): string {
  return id.replace(/^0+(?=\d)/, '');
}

/** a > b for numeric id strings. */
export function idAfter(a: string, b: string): boolean {
  const x = canonical(a);
  const y = canonical(b);
  return x.length !== y.length ? x.length > y.length : x > y;
}

/** The posts newer than `since`, newest first (by id, which is creation order). */
export function newerThan<T>(items: T[], since: string, idOf: (item: T) => string): T[] {
  return items
    .filter((i) => idAfter(idOf(i), since))
    .sort((a, b) => (idAfter(idOf(a), idOf(b)) ? -1 : idAfter(idOf(b), idOf(a)) ? 1 : 0));
}

/**
 * In a newest-first list, a page that already reaches `since` (holds an item at or before it) is the last one
 * worth reading: every later page is older still.
 */
export function reachesSince<T>(items: T[], since: string, idOf: (item: T) => string): boolean {
  return items.some((i) => !idAfter(idOf(i), since));
}
