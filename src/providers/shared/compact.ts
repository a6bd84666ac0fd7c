/** Drops keys whose value is undefined, so domain objects only carry what the upstream gave. */
export function compact<T extends object>(o: T): T {
  // A copy of the defined fields rather than `delete` on the original: deleting a field turns a V8 object into a
  // slow dictionary, and every later read of a parsed post (rendering, the cache's size check) would pay for it.
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as T;
}
