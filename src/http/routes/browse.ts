// GET /api/browse: the deprecated alias of the list routes, selected by `resource`.
import { z } from 'zod';
import { Problem } from '../../problems/problem.ts';
import { HANDLE_RE, code } from '../../contract/params/common.ts';
import { defineRoute, NO_PARAMS, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import { LIST_ERRORS } from '../../contract/params/list.ts';
import { serveConnections, serveProfile } from './profiles.ts';
import { serveSearch } from './search.ts';
import { searchShape } from '../../contract/queries/search.ts';

const RESOURCES = ['profile', 'followers', 'following', 'search'] as const;
type Resource = (typeof RESOURCES)[number];

const SUCCESSORS: Record<Resource, string> = {
  profile: '/api/v1/profiles/{handle}',
  followers: '/api/v1/profiles/{handle}/followers',
  following: '/api/v1/profiles/{handle}/following',
  search: '/api/v1/search',
};

function isResource(v: unknown): v is Resource {
  return typeof v === 'string' && (RESOURCES as readonly string[]).includes(v);
}

export const browseDecl = {
  operationId: 'legacyBrowse',
  path: '/api/browse',
  surface: 'legacy',
  summary: 'Deprecated alias of the list routes',
  description:
    '`resource` selects the successor: profile, followers or following (with `handle`), or search (with `q` and ' +
    "optional `feed`). Every other parameter is the successor's. Unsupported or missing resource: 400 invalid_resource.",
  tags: ['legacy'],
  params: NO_PARAMS,
  query: z.object({
    resource: z.string(code('invalid_resource')).optional().describe('profile, followers, following or search.'),
    handle: z
      .string(code('invalid_handle'))
      .optional()
      .describe('Account handle for profile, followers and following.'),
    ...searchShape,
  }),
  representations: ['markdown', 'json', 'html'],
  keyAware: true,
  errors: [
    'invalid_resource',
    'invalid_handle',
    'missing_query',
    'invalid_query',
    'invalid_feed',
    'invalid_filter',
    'search_unavailable',
    ...LIST_ERRORS,
  ],
  deprecated: {
    successorParameter: 'resource',
    successors: SUCCESSORS,
    resolve(query) {
      const r = query.resource;
      if (!isResource(r)) return undefined;
      const h = query.handle;
      return typeof h === 'string' && HANDLE_RE.test(h) ? SUCCESSORS[r].replace('{handle}', h) : SUCCESSORS[r];
    },
  },
} satisfies RouteDecl;

export const browseRoutes: RouteDef[] = [
  defineRoute(browseDecl, (ctx) => {
    const { resource, handle } = ctx.query;
    if (!isResource(resource)) {
      throw new Problem('invalid_resource', 'Pass `resource` = profile, followers, following or search.');
    }
    // Continue → links lead to the successor route, which accepts the same cursor.
    if (resource === 'search') return serveSearch(ctx, SUCCESSORS.search);
    if (handle === undefined || !HANDLE_RE.test(handle)) {
      throw new Problem('invalid_handle', 'Pass `handle`: 1-15 letters, digits or underscores, no leading @.');
    }
    const path = SUCCESSORS[resource].replace('{handle}', handle);
    return resource === 'profile' ? serveProfile(ctx, { handle }, path) : serveConnections(ctx, resource, handle, path);
  }),
];
