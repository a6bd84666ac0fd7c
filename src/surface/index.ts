// The one home of everything generated from the route table: OpenAPI, /docs, llms.txt, ard.json, the API catalog
// and the MCP tool list. Nothing here imports the table; the server hands it over (src/route-table.ts).
import type { RouteDef } from '../contract/route-decl.ts';
import { discoveryRoutes } from './discovery-routes.ts';
import { docsRoutes } from './docs-routes.ts';
import { homeRoutes, type ProblemOf } from './home/routes.ts';
import type { RouteTable } from './documents.ts';

export type { RouteTable };

/**
 * The discovery and documentation routes describing `table` (which includes them once assembled). `problemOf` is
 * the edge's mapping of failures, for the home page's conversions, which show a failed read on the page.
 */
export function surfaceRoutes(table: RouteTable, problemOf: ProblemOf): RouteDef[] {
  return [...homeRoutes(table, problemOf), ...discoveryRoutes(table), ...docsRoutes(table)];
}
