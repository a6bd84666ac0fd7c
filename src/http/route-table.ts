// Every public route, in one list: the server mounts these, and OpenAPI, /docs and MCP are generated from them.
import type { RouteDef } from './route-decl.ts';
import { postRoutes } from './routes/posts.ts';
import { profileRoutes } from './routes/profiles.ts';
import { userRoutes } from './routes/users.ts';
import { searchRoutes } from './routes/search.ts';
import { feedRoutes } from './routes/feeds.ts';
import { browseRoutes } from './routes/browse.ts';
import { oembedRoutes } from './routes/oembed.ts';
import { discoveryRoutes } from './routes/discovery.ts';
import { docsRoutes } from './routes/docs.ts';

// Order matters only for static-vs-parametric overlaps, which find-my-way resolves by specificity.
export const PUBLIC_ROUTES: RouteDef[] = [
  ...postRoutes, ...profileRoutes, ...userRoutes, ...searchRoutes, ...browseRoutes,
  ...feedRoutes,
  ...oembedRoutes,
  ...discoveryRoutes,
  ...docsRoutes,
];
