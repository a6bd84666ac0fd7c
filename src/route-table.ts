// Every public route, in one list: the server mounts these, and the surface (OpenAPI, /docs, llms.txt, ard.json,
// MCP tools) is generated from them.
import type { RouteDef } from './contract/route-decl.ts';
import { postRoutes } from './http/routes/posts.ts';
import { profileRoutes } from './http/routes/profiles.ts';
import { postListRouteDefs } from './http/routes/post-lists.ts';
import { quoteFeedRoutes } from './http/routes/quote-feeds.ts';
import { tabFeedRoutes } from './http/routes/tab-feeds.ts';
import { aboutRoutes } from './http/routes/about.ts';
import { exportRoutes } from './http/routes/export.ts';
import { userRoutes } from './http/routes/users.ts';
import { curatedListRoutes } from './http/routes/curated-lists.ts';
import { searchRoutes } from './http/routes/search.ts';
import { tagRoutes } from './http/routes/tags.ts';
import { trendRoutes } from './http/routes/trends.ts';
import { feedRoutes } from './http/routes/feeds.ts';
import { browseRoutes } from './http/routes/browse.ts';
import { oembedRoutes } from './http/routes/oembed.ts';
import { mediaRoutes } from './http/routes/media.ts';
import { surfaceRoutes } from './surface/index.ts';
import { toProblem } from './http/failures/problem-of.ts';

/** The content routes, then the documents that describe the whole table (themselves included). */
function assemble(): readonly RouteDef[] {
  // Order matters only for static-vs-parametric overlaps, which find-my-way resolves by specificity.
  const table: RouteDef[] = [
    ...postRoutes,
    ...profileRoutes,
    ...postListRouteDefs,
    ...aboutRoutes,
    ...exportRoutes,
    ...userRoutes,
    ...curatedListRoutes,
    ...searchRoutes,
    ...tagRoutes,
    ...trendRoutes,
    ...browseRoutes,
    ...feedRoutes,
    ...quoteFeedRoutes,
    ...tabFeedRoutes,
    ...oembedRoutes,
    ...mediaRoutes,
  ];
  table.push(...surfaceRoutes(table, toProblem));
  return table;
}

export const PUBLIC_ROUTES: readonly RouteDef[] = assemble();
