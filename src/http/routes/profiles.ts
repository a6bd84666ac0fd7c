// Profiles with their recent original posts, and the followers / following lists, on both surfaces.
import { z } from 'zod';
import { readConnections, type ConnectionKind } from '../../domain/connections.ts';
import { readProfile } from '../../domain/profile.ts';
import { profileHandle } from '../params/common.ts';
import { defineRoute, type HandlerContext, type Rendered, type RouteDecl, type RouteDef } from '../route-decl.ts';
import { LIST_ERRORS, listQuery, type ListQuery } from './list-params.ts';
import { serveList } from './list-serve.ts';

type Kind = 'profile' | 'followers' | 'following';

const TEXT: Record<Kind, { op: string; summary: string; description: string; mcp: string }> = {
  profile: {
    op: 'readProfile',
    summary: 'Profile and its latest original posts',
    description:
      'Bio, counts and the most recent original posts (replies and reposts are filtered out, so a page can be ' +
      'short or empty without being the end: page on while nextCursor is present).',
    mcp: 'read_profile',
  },
  followers: {
    op: 'listFollowers',
    summary: 'Accounts that follow the profile',
    description: 'A page of accounts following the profile, newest first as the platform orders them.',
    mcp: 'list_followers',
  },
  following: {
    op: 'listFollowing',
    summary: 'Accounts the profile follows',
    description: 'A page of accounts the profile follows.',
    mcp: 'list_following',
  },
};

const PAGING_NOTE =
  ' Paging: send back `nextCursor` as `cursor` (preferred); `page` (1-10) walks cursors from the first page and is slower.';

const handleParams = z.object({ handle: profileHandle });

function decl(kind: Kind, surface: 'v1' | 'permalink'): RouteDecl<typeof listQuery, typeof handleParams> {
  const suffix = kind === 'profile' ? '' : `/${kind}`;
  const t = TEXT[kind];
  return {
    operationId: surface === 'v1' ? t.op : `${t.op}Permalink`,
    path: surface === 'v1' ? `/api/v1/profiles/{handle}${suffix}` : `/{handle}${suffix}`,
    surface,
    summary: surface === 'v1' ? t.summary : `${t.summary} (permalink)`,
    description: t.description + PAGING_NOTE,
    tags: [surface === 'v1' ? 'profiles' : 'permalinks'],
    params: handleParams,
    query: listQuery,
    representations: ['markdown', 'json', 'html'],
    keyAware: true,
    errors: ['invalid_handle', ...LIST_ERRORS],
    browseResource: kind,
    ...(surface === 'v1' ? { mcpTool: t.mcp } : {}),
  };
}

export function serveProfile(ctx: HandlerContext<ListQuery, unknown>, handle: string, path: string): Promise<Rendered> {
  return serveList(ctx, {
    resource: 'profile',
    path,
    title: `@${handle} on X`,
    missing: { kind: 'profile', what: `@${handle}` },
    async read(policy, page) {
      const { read, cache } = await readProfile(ctx.services, { handle, ...page }, policy);
      return { read: { resource: 'profile', read }, cache };
    },
  });
}

export function serveConnections(ctx: HandlerContext<ListQuery, unknown>, kind: ConnectionKind, handle: string, path: string): Promise<Rendered> {
  return serveList(ctx, {
    resource: kind,
    path,
    title: `${kind === 'followers' ? 'Followers of' : 'Accounts followed by'} @${handle}`,
    missing: { kind: 'profile', what: `@${handle}` },
    async read(policy, page) {
      const { read, cache } = await readConnections(ctx.services, { kind, handle, ...page }, policy);
      return { read: { resource: kind, read }, cache };
    },
  });
}

function routes(kind: Kind): RouteDef[] {
  return (['v1', 'permalink'] as const).map((surface) => {
    const d = decl(kind, surface);
    return defineRoute(d, (ctx) => {
      const handle = ctx.params.handle;
      const path = d.path.replace('{handle}', handle);
      return kind === 'profile' ? serveProfile(ctx, handle, path) : serveConnections(ctx, kind, handle, path);
    });
  });
}

export const profileRoutes: RouteDef[] = [...routes('profile'), ...routes('followers'), ...routes('following')];
