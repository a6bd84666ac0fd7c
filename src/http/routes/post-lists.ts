// The lists hanging off a post or a profile tab, on both surfaces: the posts quoting a post
// (/{handle}/status/{id}/quotes), the accounts that reposted it (/{handle}/status/{id}/reposts) and a profile's
// media and Articles tabs (/{handle}/media, /{handle}/articles). Paged like every list; the post or profile is read alongside the first page and
// decides what is a 404.
import { z } from 'zod';
import { readProfileTab, readQuotes, readReposts, type ProfileTab, type TabSources } from '../../domain/post-lists.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import { profileTabJsonSchema, quotesJsonSchema, repostsJsonSchema } from '../../contract/json-schemas.ts';
import { profileHandle, statusHandle, statusId } from '../../contract/params/common.ts';
import { checkIdRange } from '../../contract/params/status-url.ts';
import { LIST_FILTER_NOTE } from '../../contract/params/feed-filters.ts';
import { defineRoute, type HandlerContext, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import type { Services } from '../../contract/services.ts';
import { LIST_ERRORS, listQuery } from '../../contract/params/list.ts';
import { serveList } from './list-serve.ts';
import { postListQuery } from '../../contract/queries/lists.ts';

type Kind = 'quotes' | 'reposts' | ProfileTab;

const PROVIDERS_NOTE =
  ' Read from FxTwitter, or from X with the logged-in sessions the deployment configures (each X call charged to ' +
  'account-ip, or account-key for key holders; cached pages are free); 503 read_unavailable with Retry-After when ' +
  'no configured provider can serve it.';

const PAGING =
  ' Paging: send back `nextCursor` as `cursor` (preferred); `page` (1-10) walks cursors from the first page.';

const TEXT: Record<Kind, { op: string; summary: string; description: string; tool: string }> = {
  quotes: {
    op: 'listQuotes',
    summary: 'Posts quoting a post',
    description:
      "The post (who wrote it, a line of its text) and a page of the posts quoting it, newest first, each without the quoted post it repeats. X's fallback is its search for the quoted post id (`quoted_tweet_id:`). A deleted, protected or impossible post is 404 not_found.",
    tool: 'list_quotes',
  },
  reposts: {
    op: 'listReposts',
    summary: 'Accounts that reposted a post',
    description:
      'The post and a page of the accounts that reposted it, as the platform orders them (most recent first). A deleted, protected or impossible post is 404 not_found.',
    tool: 'list_reposts',
  },
  media: {
    op: 'listMedia',
    summary: "A profile's media tab",
    description:
      "The profile and a page of its own posts with photos or videos, newest first (X's media tab; reposts are not in it). An unknown, suspended or protected account is 404 not_found.",
    tool: 'list_media',
  },
  articles: {
    op: 'listArticles',
    summary: "A profile's Articles tab",
    description:
      "The profile and a page of its X Articles, newest first, each rendered whole (title, cover, headings, lists, code, images, embedded posts) as on its own post page. X's fallback is its Articles tab (UserArticlesTweets), which lists each Article without its body: each body is then read through the post (TweetDetail), one more X call per Article. Its feed is /{handle}/articles/rss (/api/v1/profiles/{handle}/articles/feed). An unknown, suspended or protected account is 404 not_found.",
    tool: 'list_articles',
  },
};

const postParams = z.object({ handle: statusHandle, id: statusId });
const v1PostParams = z.object({ id: statusId });
const handleParams = z.object({ handle: profileHandle });

const ERRORS: Record<Kind, CatalogCode[]> = {
  quotes: ['invalid_params', 'invalid_filter', 'invalid_lang', 'read_unavailable', ...LIST_ERRORS],
  reposts: ['invalid_params', 'read_unavailable', ...LIST_ERRORS],
  media: ['invalid_handle', 'invalid_filter', 'invalid_lang', 'read_unavailable', ...LIST_ERRORS],
  articles: ['invalid_handle', 'invalid_filter', 'invalid_lang', 'read_unavailable', ...LIST_ERRORS],
};

function decl<Q extends z.ZodObject, P extends z.ZodObject>(
  kind: Kind,
  surface: 'v1' | 'permalink',
  params: P,
  query: Q,
): RouteDecl<Q, P> {
  const t = TEXT[kind];
  const v1 = surface === 'v1';
  const tab = kind === 'media' || kind === 'articles';
  const path = tab
    ? v1
      ? `/api/v1/profiles/{handle}/${kind}`
      : `/{handle}/${kind}`
    : v1
      ? `/api/v1/posts/{id}/${kind}`
      : `/{handle}/status/{id}/${kind}`;
  return {
    operationId: v1 ? t.op : `${t.op}Permalink`,
    path,
    surface,
    summary: v1 ? t.summary : `${t.summary} (permalink)`,
    description: t.description + PAGING + PROVIDERS_NOTE + (kind === 'reposts' ? '' : LIST_FILTER_NOTE),
    tags: [v1 ? (tab ? 'profiles' : 'posts') : 'permalinks'],
    params,
    query,
    representations: ['markdown', 'json', 'html'],
    json: kind === 'quotes' ? quotesJsonSchema : kind === 'reposts' ? repostsJsonSchema : profileTabJsonSchema,
    keyAware: true,
    errors: ERRORS[kind],
    browseResource: kind,
    ...(v1 ? { mcpTool: t.tool } : {}),
  };
}

/** The sources of these reads, from the services a handler has. */
export function tabSources(s: Pick<Services, 'tabs' | 'cursors' | 'posts' | 'lists'>): TabSources {
  return {
    tabs: s.tabs,
    cursors: s.cursors,
    post: (id, policy) => s.posts.post(id, policy),
    profile: (handle, policy) => s.lists.profile(handle, policy),
  };
}

type PostListQuery = z.output<typeof postListQuery>;

function servePostList(
  ctx: HandlerContext<PostListQuery, unknown>,
  kind: 'quotes' | 'reposts',
  id: string,
  path: string,
) {
  // An id the platform cannot have issued (0, a leading zero, beyond 2^63 − 1) is 404 before anything is read.
  checkIdRange(id);
  const src = tabSources(ctx.services);
  return serveList(ctx, {
    resource: kind,
    path,
    title: kind === 'quotes' ? `Quotes of post ${id}` : `Reposts of post ${id}`,
    missing: { kind: 'post', what: `post ${id}` },
    ...(kind === 'quotes' ? { filter: ctx.query, translate: ctx.query.translate } : {}),
    async read(policy, page) {
      if (kind === 'quotes') {
        const { read, cache } = await readQuotes(src, { id, ...page }, policy);
        return { read: { resource: 'quotes', read }, cache };
      }
      const { read, cache } = await readReposts(src, { id, ...page }, policy);
      return { read: { resource: 'reposts', read }, cache };
    },
  });
}

function serveTab(ctx: HandlerContext<PostListQuery, unknown>, tab: ProfileTab, handle: string, path: string) {
  const src = tabSources(ctx.services);
  return serveList(ctx, {
    resource: tab,
    path,
    title: `${tab === 'media' ? 'Media' : 'Articles'} of @${handle}`,
    missing: { kind: 'profile', what: `@${handle}` },
    filter: ctx.query,
    translate: ctx.query.translate,
    async read(policy, page) {
      const { read, cache } = await readProfileTab(src, { handle, tab, ...page }, policy);
      return { read: { resource: tab, read }, cache };
    },
  });
}

function postListRoutes(kind: 'quotes' | 'reposts'): RouteDef[] {
  const query = kind === 'quotes' ? postListQuery : listQuery;
  const v1 = decl(kind, 'v1', v1PostParams, query);
  const permalink = decl(kind, 'permalink', postParams, query);
  return [
    defineRoute(v1, (ctx) => servePostList(ctx, kind, ctx.params.id, `/api/v1/posts/${ctx.params.id}/${kind}`)),
    defineRoute(permalink, (ctx) =>
      servePostList(ctx, kind, ctx.params.id, `/${ctx.params.handle}/status/${ctx.params.id}/${kind}`),
    ),
  ];
}

export const postListRouteDefs: RouteDef[] = [
  ...postListRoutes('quotes'),
  ...postListRoutes('reposts'),
  ...(['media', 'articles'] as const).flatMap((tab) =>
    (['v1', 'permalink'] as const).map((surface) =>
      defineRoute(decl(tab, surface, handleParams, postListQuery), (ctx) =>
        serveTab(
          ctx,
          tab,
          ctx.params.handle,
          surface === 'v1' ? `/api/v1/profiles/${ctx.params.handle}/${tab}` : `/${ctx.params.handle}/${tab}`,
        ),
      ),
    ),
  ),
];
