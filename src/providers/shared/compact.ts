/** Drops keys whose value is undefined, so domain objects only carry what the upstream gave. */
export function compact<T extends object>(o: T): T {
  for (const [k, v] of Object.entries(o)) if (v === undefined) delete (o as Record<string, unknown>)[k];
  return o;
}
