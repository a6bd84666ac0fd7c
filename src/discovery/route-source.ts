// The discovery documents describe PUBLIC_ROUTES, which itself lists the discovery routes. A static import would
// make the two modules a cycle that breaks whichever loads second, so the table is fetched when first needed.
import type { RouteDef } from '../http/route-decl.ts';

export async function publicRoutes(): Promise<RouteDef[]> {
  return (await import('../http/route-table.ts')).PUBLIC_ROUTES;
}

const built = new WeakMap<RouteDef[], Map<string, string>>();

/**
 * A document that depends only on the route table and `key` (which must name everything else it reads, such as
 * the base URL) is built once per process.
 */
export async function cachedDocument(key: string, build: (routes: RouteDef[]) => string): Promise<string> {
  const routes = await publicRoutes();
  let byKey = built.get(routes);
  if (!byKey) built.set(routes, (byKey = new Map()));
  let doc = byKey.get(key);
  if (doc === undefined) byKey.set(key, (doc = build(routes)));
  return doc;
}
