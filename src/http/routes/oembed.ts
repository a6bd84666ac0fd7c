// GET /api/v1/oembed and its permalink /oembed: oEmbed 1.0 JSON for this service's own post and profile permalinks.
import type { CacheStatus } from '../../domain/sourced.ts';
import { readPost } from '../../domain/read-post.ts';
import { Problem } from '../../problems/problem.ts';
import { parseOembedTarget, postOembed, profileOembed, type OembedOptions } from '../present/oembed.ts';
import { publicCacheControl } from '../present/common.ts';
import { oembedJsonSchema } from '../../contract/json-schemas.ts';
import {
  defineRoute,
  NO_PARAMS,
  type HandlerContext,
  type Rendered,
  type RouteDecl,
  type RouteDef,
} from '../../contract/route-decl.ts';
import { oembedQuery, type OembedQuery } from '../../contract/queries/oembed.ts';

function decl(surface: 'v1' | 'permalink'): RouteDecl<typeof oembedQuery, typeof NO_PARAMS> {
  return {
    operationId: surface === 'v1' ? 'oembed' : 'oembedPermalink',
    path: surface === 'v1' ? '/api/v1/oembed' : '/oembed',
    surface,
    summary: surface === 'v1' ? 'oEmbed for a permalink of this service' : 'oEmbed (permalink)',
    description:
      "oEmbed 1.0 (`type` rich) for this service's own post permalinks {base}/{handle}/status/{id} (and the " +
      'handle-less {base}/i/status/{id} and {base}/i/web/status/{id}) and profile permalinks {base}/{handle} (and ' +
      '{base}/i/user/{id}). Any other URL, including x.com links, is 404 not_found; a value that is not a URL ' +
      'is 400 invalid_url. `maxwidth` and `maxheight` are honoured. JSON only.',
    tags: [surface === 'v1' ? 'oembed' : 'permalinks'],
    params: NO_PARAMS,
    query: oembedQuery,
    representations: [],
    keyAware: false,
    errors: ['missing_url', 'invalid_url', 'invalid_format', 'invalid_dimension', 'not_found', 'upstream_error'],
    json: oembedJsonSchema,
    fixed: { mediaType: 'application/json' },
  };
}

async function serveOembed(ctx: HandlerContext<OembedQuery, unknown>): Promise<Rendered> {
  const { config } = ctx.services;
  const q = ctx.query;
  if (q.url === undefined || q.url.trim() === '') {
    throw new Problem(
      'missing_url',
      'Pass the permalink to embed in `url`, e.g. ?url=' + `${config.baseUrl}/{handle}/status/{id}.`,
    );
  }
  const target = parseOembedTarget(q.url.trim(), config.baseUrl);
  const opts: OembedOptions = {
    baseUrl: config.baseUrl,
    maxwidth: q.maxwidth,
    maxheight: q.maxheight,
    cacheAge: config.cacheTtlS,
  };
  const policy = ctx.guards.policy({ nocache: false });
  let body;
  let source: string;
  let cache: CacheStatus;
  if (target.kind === 'post') {
    const got = await readPost(
      ctx.services.posts,
      target.id,
      { thread: 'off', context: 'thread', replies: 'off', userinfo: 'off', full: false, nocache: false },
      policy,
    );
    body = postOembed(got.read.requested, opts);
    source = got.read.source;
    cache = got.cache;
  } else {
    const got = await ('accountId' in target
      ? ctx.services.lists.profileById(target.accountId, policy)
      : ctx.services.lists.profile(target.handle, policy));
    body = profileOembed(got.value, opts);
    source = got.source;
    cache = got.cache;
  }
  return {
    body: JSON.stringify(body),
    contentType: 'application/json; charset=utf-8',
    headers: {
      'cache-control': publicCacheControl(config.cacheTtlS, cache),
      vary: 'Accept',
      'x-source': source,
      'x-cache': cache,
    },
  };
}

export const oembedRoutes: RouteDef[] = (['v1', 'permalink'] as const).map((surface) =>
  defineRoute(decl(surface), serveOembed),
);
