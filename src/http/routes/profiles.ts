// Profiles with their recent original posts, and the followers / following lists, on both surfaces.
import { isHandle } from '../../domain/handles.ts';
import { z } from 'zod';
import { LIST_FILTER_NOTE } from '../../contract/params/feed-filters.ts';
import { readConnections, type ConnectionKind } from '../../domain/connections.ts';
import { readProfile, type ProfileRef } from '../../domain/profile.ts';
import { profileHandle } from '../../contract/params/common.ts';
import { connectionsJsonSchema, profileJsonSchema } from '../../contract/json-schemas.ts';
import { isoWindow, windowOf, windowOperators } from '../../contract/params/dates.ts';
import {
  defineRoute,
  type HandlerContext,
  type Rendered,
  type RouteDecl,
  type RouteDef,
} from '../../contract/route-decl.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import { LIST_ERRORS, listQuery, type ListQuery } from '../../contract/params/list.ts';
import { serveList } from './list-serve.ts';
import { profileQuery, type ProfileQuery } from '../../contract/queries/profiles.ts';
import type { TimelineOptions, WindowInput } from '../../domain/lists.ts';

type Kind = 'profile' | 'followers' | 'following';

const TEXT: Record<Kind, { op: string; summary: string; description: string; mcp: string }> = {
  profile: {
    op: 'readProfile',
    summary: 'Profile and its latest original posts',
    description:
      "Bio, counts and the most recent original posts. A self-thread is the account's own writing, so the original " +
      "posts include its continuations (the account's replies to itself). Replies to other people and reposts are " +
      'filtered out unless `with_replies` / `with_reposts` ask for them, labelled, so a page can be short or empty ' +
      'without being the end: page on while nextCursor is present.',
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

const LINK_PREVIEW_NOTE =
  ' Link-preview crawlers (see /docs#link-previews) get the HTML page with Open Graph metadata even without an Accept header.';

const WINDOW_NOTE =
  ' `since` and `until` read one window of time (since ≤ time < until) straight away, without paging through ' +
  'everything newer: the posts come from X search (`from:<handle>` with the window), so each account read live is a ' +
  'live search lookup charged like one (search-ip / search-key, one point per upstream read) and answers 503 ' +
  'search_unavailable when search cannot be served. Only posts inside the window are answered, whatever the ' +
  'upstream returns.';

const handleParams = z.object({ handle: profileHandle });

function decl<Q extends z.ZodObject>(
  kind: Kind,
  surface: 'v1' | 'permalink',
  query: Q,
): RouteDecl<Q, typeof handleParams> {
  const suffix = kind === 'profile' ? '' : `/${kind}`;
  const t = TEXT[kind];
  const profile = kind === 'profile';
  const extraErrors: CatalogCode[] = profile
    ? ['invalid_date', 'invalid_since_id', 'invalid_filter', 'invalid_lang', 'search_unavailable']
    : [];
  return {
    operationId: surface === 'v1' ? t.op : `${t.op}Permalink`,
    path: surface === 'v1' ? `/api/v1/profiles/{handle}${suffix}` : `/{handle}${suffix}`,
    surface,
    summary: surface === 'v1' ? t.summary : `${t.summary} (permalink)`,
    description:
      t.description +
      PAGING_NOTE +
      (profile ? WINDOW_NOTE + LIST_FILTER_NOTE : '') +
      (surface === 'permalink' && profile ? LINK_PREVIEW_NOTE : ''),
    tags: [surface === 'v1' ? 'profiles' : 'permalinks'],
    params: handleParams,
    query,
    representations: ['markdown', 'json', 'html'],
    json: profile ? profileJsonSchema : connectionsJsonSchema,
    keyAware: true,
    errors: ['invalid_handle', ...extraErrors, ...LIST_ERRORS],
    browseResource: kind,
    ...(surface === 'v1' ? { mcpTool: t.mcp } : {}),
    ...(surface === 'permalink' && profile ? { linkPreview: true } : {}),
  };
}

/** The validated date window of a request, as the use cases take it. */
export function windowInput(since: string | undefined, until: string | undefined): WindowInput | undefined {
  const window = windowOf(since, until);
  return window ? { iso: isoWindow(window), operators: windowOperators(window) } : undefined;
}

export function serveProfile(
  ctx: HandlerContext<ProfileQuery, unknown>,
  ref: ProfileRef,
  path: string,
): Promise<Rendered> {
  const byId = 'accountId' in ref;
  const what = byId ? `account ${ref.accountId}` : `@${ref.handle}`;
  const { since, until, since_id: sinceId } = ctx.query;
  const window = windowInput(since, until);
  const includes: TimelineOptions = {
    replies: ctx.query.with_replies ?? false,
    reposts: ctx.query.with_reposts ?? false,
  };
  return serveList(ctx, {
    resource: 'profile',
    path,
    title: `${what} on X`,
    missing: { kind: 'profile', what },
    keep: {
      since,
      until,
      with_replies: includes.replies ? 'true' : undefined,
      with_reposts: includes.reposts ? 'true' : undefined,
    },
    sinceId,
    filter: ctx.query,
    translate: ctx.query.translate,
    ...(window ? { search: 'plain' as const } : {}),
    async read(policy, page) {
      const { read, cache } = await readProfile(ctx.services, { ref, window, sinceId, includes, ...page }, policy);
      return { read: { resource: 'profile', read }, cache };
    },
    // Read by account id: tell the handle the account has today.
    headers: (list): Record<string, string> =>
      byId && list.resource === 'profile' && isHandle(list.read.profile.handle)
        ? { link: `<${ctx.services.config.baseUrl}/${list.read.profile.handle}>; rel="canonical"` }
        : {},
  });
}

export function serveConnections(
  ctx: HandlerContext<ListQuery, unknown>,
  kind: ConnectionKind,
  handle: string,
  path: string,
): Promise<Rendered> {
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

const SURFACES = ['v1', 'permalink'] as const;

export const profileRoutes: RouteDef[] = [
  ...SURFACES.map((surface) => {
    const d = decl('profile', surface, profileQuery);
    return defineRoute(d, (ctx) =>
      serveProfile(ctx, { handle: ctx.params.handle }, d.path.replace('{handle}', ctx.params.handle)),
    );
  }),
  ...(['followers', 'following'] as const).flatMap((kind) =>
    SURFACES.map((surface) => {
      const d = decl(kind, surface, listQuery);
      return defineRoute(d, (ctx) =>
        serveConnections(ctx, kind, ctx.params.handle, d.path.replace('{handle}', ctx.params.handle)),
      );
    }),
  ),
];
