// Documents generated from the route table (OpenAPI, /docs, llms.txt, ard.json): built once per table and key.
import type { RouteDef } from '../contract/route-decl.ts';

/** The public route table, as the server assembled it (src/route-table.ts hands it to surfaceRoutes). */
export type RouteTable = readonly RouteDef[];

const built = new WeakMap<RouteTable, Map<string, string>>();

/**
 * A document that depends only on the route table and `key` (which must name everything else it reads, such as
 * the base URL) is built once per process.
 */
export function cachedDocument(table: RouteTable, key: string, build: (routes: RouteTable) => string): string {
  let byKey = built.get(table);
  if (!byKey) built.set(table, (byKey = new Map<string, string>()));
  let doc = byKey.get(key);
  if (doc === undefined) byKey.set(key, (doc = build(table)));
  return doc;
}
