// Profiles with their recent original posts, and the followers / following lists, on both surfaces.
import { z } from 'zod';
import { timelineFilter, type TimelineOptions } from '../../domain/lists.ts';
import { isProblem } from '../../problems/problem.ts';
import type { Author } from '../../domain/models.ts';
import { flag, profileHandle, sinceIdParam } from '../params/common.ts';
import { newerThan, reachesSince } from '../../domain/since.ts';
import type { HandlerContext, Rendered, RouteDecl, RouteDef } from '../route-decl.ts';
import { LIST_ERRORS, listShape, type ListQuery } from './list-params.ts';
import { serveList } from './list-serve.ts';
import { connectionsJsonSchema, profileJsonSchema } from '../../render/json-schemas.ts';
import { isoWindow, sinceParam, untilParam, windowOf, windowOperators } from '../params/dates.ts';

type Kind = 'profile' | 'followers' | 'following';

const TEXT: Record<Kind, { op: string; summary: string; description: string; mcp: string }> = {
  profile: {
    op: 'readProfile',
    summary: 'Profile and its latest original posts',
    description:
      'Bio, counts and the most recent original posts (replies and reposts are filtered out unless `with_replies` / ' +
      '`with_reposts` ask for them, labelled, so a page can be short or empty without being the end: page on while ' +
      'nextCursor is present).',
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

function decl(kind: Kind, surface: 'v1' | 'permalink'): RouteDecl {
  const suffix = kind === 'profile' ? '' : `/${kind}`;
  const t = TEXT[kind];
  return {
    operationId: surface === 'v1' ? t.op : `${t.op}Permalink`,
    path: surface === 'v1' ? `/api/v1/profiles/{handle}${suffix}` : `/{handle}${suffix}`,
    surface,
    summary: surface === 'v1' ? t.summary : `${t.summary} (permalink)`,
    description: t.description + PAGING_NOTE + (kind === 'profile' ? WINDOW_NOTE : '') + (surface === 'permalink' && kind === 'profile' ? LINK_PREVIEW_NOTE : ''),
    tags: [surface === 'v1' ? 'profiles' : 'permalinks'],
    params: z.object({ handle: profileHandle }),
    query: z.object(kind === 'profile' ? profileShape : listShape),
    representations: ['markdown', 'json', 'html'],
    json: kind === 'profile' ? profileJsonSchema : connectionsJsonSchema,
    keyAware: true,
    errors: ['invalid_handle', ...(kind === 'profile' ? ['invalid_date', 'invalid_since_id', 'search_unavailable'] : []), ...LIST_ERRORS],
    browseResource: kind,
    ...(surface === 'v1' ? { mcpTool: t.mcp } : {}),
    ...(surface === 'permalink' && kind === 'profile' ? { linkPreview: true } : {}),
  };
}

/** A profile named by its handle, or by its numeric account id (whatever the handle is today). */
export type ProfileRef = { handle: string } | { accountId: string };

/** Query parameters of the profile routes: the list ones and a date window. */
export const profileShape = {
  since: sinceParam,
  until: untilParam,
  since_id: sinceIdParam,
  with_replies: flag.describe('Also show the account\'s replies (labelled "Replying to @…"). Default false.'),
  with_reposts: flag.describe('Also show the account\'s reposts (labelled "↻ Reposted by"). Default false; not available inside a date window.'),
  ...listShape,
};
export type ProfileQuery = ListQuery & { since?: string; until?: string; since_id?: string; with_replies?: boolean; with_reposts?: boolean };

const WINDOW_NOTE =
  ' `since` and `until` read one window of time (since ≤ time < until) straight away, without paging through ' +
  'everything newer: the posts come from X search (`from:<handle>` with the window), so such a read is a live search ' +
  'lookup charged like one (search-ip / search-key) and answers 503 search_unavailable when search cannot be served.';

export async function serveProfile(ctx: HandlerContext<ProfileQuery>, ref: ProfileRef, path: string): Promise<Rendered> {
  const { lists } = ctx.services;
  const byId = 'accountId' in ref;
  const what = byId ? `account ${ref.accountId}` : `@${ref.handle}`;
  const { since, until, since_id: sinceId } = ctx.query;
  const window = windowOf(since, until);
  const ops = windowOperators(window);
  const includes: TimelineOptions = { replies: ctx.query.with_replies ?? false, reposts: ctx.query.with_reposts ?? false };
  const flags = `${includes.replies ? 'r' : ''}${includes.reposts ? 'p' : ''}`;
  let author: Author | undefined;
  const out = await serveList(ctx, {
    resource: 'profile',
    scope: byId
      ? { route: 'profile-id', query: `${ref.accountId}|${ops}`, feed: flags }
      : { route: 'profile', query: `${ref.handle.toLowerCase()}${ops ? `|${ops}` : ''}`, feed: flags },
    path,
    title: `${what} on X`,
    missing: { kind: 'profile', what },
    keep: { since, until, with_replies: includes.replies ? 'true' : undefined, with_reposts: includes.reposts ? 'true' : undefined },
    ...(window ? { search: 'plain' as const } : {}),
    async load(call) {
      // The profile is read once, before the first page of posts.
      author ??= (await (byId ? lists.profileById(ref.accountId, call.policy) : lists.profile(ref.handle, call.policy))).value;
      if (!window) return lists.timeline(author.handle, call);
      // A window jumps straight to its time through X search instead of paging the timeline down to it.
      const got = await lists.search(`from:${author.handle} ${ops}`, 'latest', call);
      return { ...got, value: { ...got.value, items: got.value.items.flatMap((i) => (i.kind === 'post' ? [i.post] : [])) } };
    },
    caughtUp: (page) => sinceId !== undefined && reachesSince(page.items, sinceId, (p) => p.id),
    build(page, meta) {
      // X search (`from:`) returns no reposts, so a window cannot show them: say so rather than drop them silently.
      const warnings = window && includes.reposts ? [...meta.warnings, 'reposts are not available inside a date window'] : meta.warnings;
      const posts = page.items.filter(timelineFilter(includes));
      return {
        resource: 'profile',
        read: {
          profile: author!,
          posts: sinceId === undefined ? posts : newerThan(posts, sinceId, (p) => p.id),
          ...(window ? { window: isoWindow(window) } : {}),
          ...(includes.replies || includes.reposts ? { includes } : {}),
          ...meta,
          warnings,
        },
      };
    },
  });
  // Read by account id: tell the handle the account has today.
  if (!byId || !author || out.status === 404) return out;
  const rel = `<${ctx.services.config.baseUrl}/${encodeURIComponent(author.handle)}>; rel="canonical"`;
  return { ...out, headers: { ...out.headers, link: rel } };
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

type Ctx = HandlerContext<ListQuery, { handle: string }>;

function routes(kind: Kind): RouteDef[] {
  return (['v1', 'permalink'] as const).map((surface) => {
    const d = decl(kind, surface);
    return {
      decl: d,
      handle: (ctx: Ctx) => {
        const handle = ctx.params.handle;
        const path = d.path.replace('{handle}', handle);
        return kind === 'profile' ? serveProfile(ctx, { handle }, path) : serveConnections(ctx, kind, handle, path);
      },
    };
  });
}

export const profileRoutes: RouteDef[] = [...routes('profile'), ...routes('followers'), ...routes('following')];
