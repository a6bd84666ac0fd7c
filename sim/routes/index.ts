// Route modules the simulator mounts, matched by URL prefix. Add an upstream with one line here.
import { fxtwitterRoutes } from './fxtwitter.ts';
import { mediaRoutes } from './media.ts';
import { syndicationRoutes } from './syndication.ts';
import { xGraphqlRoutes } from './x-graphql.ts';
import { xWebRoutes } from './x-web.ts';
import type { RouteModule } from './types.ts';

export const routeModules: RouteModule[] = [
  fxtwitterRoutes,
  syndicationRoutes,
  xGraphqlRoutes,
  xWebRoutes,
  mediaRoutes,
];
