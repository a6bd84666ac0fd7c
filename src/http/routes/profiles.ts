// Profiles with their recent original posts, and the followers / following lists, on both surfaces.
import { z } from 'zod';
import { isOriginal } from '../../domain/lists.ts';
import { isProblem } from '../../problems/problem.ts';
import type { Author } from '../../domain/models.ts';
import { profileHandle } from '../params/common.ts';
import { defineRoute, type HandlerContext, type RouteDecl, type RouteDef } from '../route-decl.ts';
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

export function serveProfile(ctx: HandlerContext<ListQuery>, handle: string, path: string) {
  const { lists } = ctx.services;
  let author: Author | undefined;
  return serveList(ctx, {
    resource: 'profile',
    scope: { route: 'profile', query: handle.toLowerCase(), feed: '' },
    path,
    title: `@${handle} on X`,
    missing: { kind: 'profile', what: `@${handle}` },
    async load(call) {
      // The profile is read once, before the first page of posts.
      if (!author) author = (await lists.profile(handle, call.policy)).value;
      return lists.timeline(handle, call);
    },
    build(page, meta) {
      return {
        resource: 'profile',
        read: {
          profile: author!,
          posts: page.items.filter(isOriginal),
          ...meta,
        },
      };
    },
  });
}

export function serveConnections(ctx: HandlerContext<ListQuery>, kind: 'followers' | 'following', handle: string, path: string) {
  let checked = false;
  return serveList(ctx, {
    resource: kind,
    scope: { route: kind, query: handle.toLowerCase(), feed: '' },
    path,
    title: `${kind === 'followers' ? 'Followers of' : 'Accounts followed by'} @${handle}`,
    missing: { kind: 'profile', what: `@${handle}` },
    load: async (call) => {
      const { lists } = ctx.services;
      if (checked) return lists.connections(kind, handle, call);
      checked = true;
      // A missing, suspended or protected account has no public list: upstreams answer that with an error or an
      // empty page, so the profile (cached, read alongside the first page) decides what is a 404.
      const [profile, page] = await Promise.allSettled([lists.profile(handle, call.policy), lists.connections(kind, handle, call)]);
      if (profile.status === 'rejected' && isProblem(profile.reason) && profile.reason.code === 'not_found') throw profile.reason;
      if (page.status === 'rejected') throw page.reason;
      return page.value;
    },
    build: (page, meta) => ({
      resource: kind,
      read: {
        kind,
        handle,
        items: page.items,
        ...meta,
      },
    }),
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
