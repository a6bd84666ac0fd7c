// Every public route, in one list: the server mounts these, and the surface (OpenAPI, /docs, llms.txt, ard.json,
// MCP tools) is generated from them.
import type { RouteDef } from './route-decl.ts';
import { postRoutes } from './routes/posts.ts';
import { profileRoutes } from './routes/profiles.ts';
import { exportRoutes } from './routes/export.ts';
import { userRoutes } from './routes/users.ts';
import { curatedListRoutes } from './routes/curated-lists.ts';
import { searchRoutes } from './routes/search.ts';
import { feedRoutes } from './routes/feeds.ts';
import { browseRoutes } from './routes/browse.ts';
import { oembedRoutes } from './routes/oembed.ts';
import { surfaceRoutes } from '../surface/index.ts';

/** The content routes, then the documents that describe the whole table (themselves included). */
function assemble(): readonly RouteDef[] {
  // Order matters only for static-vs-parametric overlaps, which find-my-way resolves by specificity.
  const table: RouteDef[] = [
    ...postRoutes,
    ...profileRoutes,
    ...exportRoutes,
    ...userRoutes,
    ...curatedListRoutes,
    ...searchRoutes,
    ...browseRoutes,
    ...feedRoutes,
    ...oembedRoutes,
  ];
  table.push(...surfaceRoutes(table));
  return table;
}

export const PUBLIC_ROUTES: readonly RouteDef[] = assemble();
