// X Lists: /i/lists/{id} (the list's latest posts) and /i/lists/{id}/members (its accounts), and their versioned
// counterparts. Account-backed: read with the deployment's logged-in sessions, charged to the account pool.
import { z } from 'zod';
import { readListMembers, readListPosts } from '../../domain/curated-lists.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import { listMembersJsonSchema, listPostsJsonSchema } from '../../contract/json-schemas.ts';
import { LIST_ID_RE, code } from '../../contract/params/common.ts';
import { defineRoute, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import { LIST_ERRORS, listQuery } from '../../contract/params/list.ts';
import { serveList } from './list-serve.ts';
import { postListQuery } from '../../contract/queries/lists.ts';
import { LIST_FILTER_NOTE } from '../../contract/params/feed-filters.ts';

export const listIdParam = z
  .string()
  .regex(LIST_ID_RE, code('invalid_list_id'))
  .describe('Numeric id of the X List, as in https://x.com/i/lists/{id}.');

export const listIdParams = z.object({ id: listIdParam });

/** What the list routes and feeds can answer besides the common errors. */
export const CURATED_LIST_ERRORS: CatalogCode[] = ['invalid_list_id', 'list_unavailable'];

export const ACCOUNT_BACKED_NOTE =
  ' X Lists are read with the logged-in sessions the deployment configures (503 list_unavailable with Retry-After ' +
  'otherwise); each live upstream page is charged to the account allowance (account-ip, or account-key for key ' +
  'holders), cached pages are free. A private or missing list, or an id beyond 2^63 − 1, is 404 not_found.';

type Kind = 'posts' | 'members';

const KINDS: Record<Kind, { v1: string; permalink: string; summary: string; description: string; tool: string }> = {
  posts: {
    v1: '/api/v1/lists/{id}',
    permalink: '/i/lists/{id}',
    summary: "An X List's latest posts",
    description:
      "The list (name, description, owner, member count) and the latest posts of its members, newest first, as X's " +
      'list timeline shows them (replies and reposts included). Paging: send back `nextCursor` as `cursor`.',
    tool: 'list_posts',
  },
  members: {
    v1: '/api/v1/lists/{id}/members',
    permalink: '/i/lists/{id}/members',
    summary: 'The accounts of an X List',
    description:
      'The list (name, description, owner, member count) and a page of the accounts it holds. Paging: send back ' +
      '`nextCursor` as `cursor`.',
    tool: 'list_members',
  },
};

function decl<Q extends z.ZodObject>(
  kind: Kind,
  surface: 'v1' | 'permalink',
  query: Q,
): RouteDecl<Q, typeof listIdParams> {
  const k = KINDS[kind];
  const v1 = surface === 'v1';
  const op = kind === 'posts' ? 'readList' : 'readListMembers';
  return {
    operationId: v1 ? op : `${op}Permalink`,
    path: v1 ? k.v1 : k.permalink,
    surface,
    summary: v1 ? k.summary : `${k.summary} (permalink mirroring the platform URL)`,
    description: k.description + ACCOUNT_BACKED_NOTE + (kind === 'posts' ? LIST_FILTER_NOTE : ''),
    tags: [v1 ? 'lists' : 'permalinks'],
    params: listIdParams,
    query,
    representations: ['markdown', 'json', 'html'],
    json: kind === 'posts' ? listPostsJsonSchema : listMembersJsonSchema,
    keyAware: true,
    errors: [
      ...CURATED_LIST_ERRORS,
      ...(kind === 'posts' ? (['invalid_filter', 'invalid_lang'] as const) : []),
      ...LIST_ERRORS,
    ],
    browseResource: kind === 'posts' ? 'list' : 'list-members',
    ...(v1 ? { mcpTool: k.tool } : {}),
  };
}

const SURFACES = ['v1', 'permalink'] as const;

export const curatedListRoutes: RouteDef[] = [
  ...SURFACES.map((surface) => {
    const d = decl('posts', surface, postListQuery);
    return defineRoute(d, (ctx) => {
      const { id } = ctx.params;
      return serveList(ctx, {
        resource: 'list',
        path: d.path.replace('{id}', id),
        title: `X List ${id}`,
        accountBacked: true,
        filter: ctx.query,
        translate: ctx.query.translate,
        async read(policy, page) {
          const { read, cache } = await readListPosts(ctx.services, { id, ...page }, policy);
          return { read: { resource: 'list', read }, cache };
        },
      });
    });
  }),
  ...SURFACES.map((surface) => {
    const d = decl('members', surface, listQuery);
    return defineRoute(d, (ctx) => {
      const { id } = ctx.params;
      return serveList(ctx, {
        resource: 'list-members',
        path: d.path.replace('{id}', id),
        title: `Members of X List ${id}`,
        accountBacked: true,
        async read(policy, page) {
          const { read, cache } = await readListMembers(ctx.services, { id, ...page }, policy);
          return { read: { resource: 'list-members', read }, cache };
        },
      });
    });
  }),
];
