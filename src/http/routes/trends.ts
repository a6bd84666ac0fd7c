import { readTrends, TRENDS_TTL_S } from '../../domain/trends.ts';
import { Problem } from '../../problems/problem.ts';
import { trendsJsonSchema } from '../../contract/json-schemas.ts';
import { unbudgetedUrl } from '../present/common.ts';
import { presentTrends } from '../present/trends.ts';
import { trendsQuery } from '../../contract/queries/trends.ts';
import { defineRoute, NO_PARAMS, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';

function decl(surface: 'v1' | 'permalink') {
  const v1 = surface === 'v1';
  return {
    operationId: v1 ? 'trends' : 'trendsPermalink',
    path: v1 ? '/api/v1/trends' : '/trends',
    surface,
    summary: v1 ? 'Current trends on X' : 'Current trends on X (permalink)',
    description:
      "X's trending topics as its Explore page lists them, read through FxTwitter's /2/trends (the logged-out list) " +
      "or, with the deployment's sessions, X's own trending timeline (GenericTimelineById, each call charged to " +
      'account-ip, or account-key for key holders), in its order, with the context X gives and the topics grouped ' +
      'under each; each hashtag or cashtag links to its page here, anything else to a search, and an AI-written ' +
      `story trend (\`url\`) to X's page of it. Kept ${TRENDS_TTL_S} s (or the cache lifetime, if shorter). ` +
      'Post counts are given where the upstream counts them (X does for most trends, FxTwitter not at all); a trend ' +
      'without one has no `posts`. Trends of a chosen place (`woeid`, `place`) are not offered by the upstreams: ' +
      '501 trends_place_unsupported. Without a provider that lists trends: 503 trends_unavailable with Retry-After.',
    tags: [v1 ? 'trends' : 'permalinks'],
    params: NO_PARAMS,
    query: trendsQuery,
    representations: ['markdown', 'json', 'html'],
    json: trendsJsonSchema,
    keyAware: false,
    errors: [
      'invalid_format',
      'invalid_flag',
      'invalid_budget',
      'trends_place_unsupported',
      'trends_unavailable',
      'upstream_error',
    ],
    ...(v1 ? { mcpTool: 'read_trends' } : {}),
  } satisfies RouteDecl;
}

export const trendRoutes: RouteDef[] = (['v1', 'permalink'] as const).map((surface) =>
  defineRoute(decl(surface), async (ctx) => {
    if (ctx.query.woeid !== undefined || ctx.query.place !== undefined) {
      throw new Problem(
        'trends_place_unsupported',
        "FxTwitter and X's trending timeline take no place (X's follows the session account's settings); X's trends by place need its paid v1.1 API.",
      );
    }
    const { config, version } = ctx.services;
    const policy = ctx.guards.policy({ nocache: ctx.query.nocache ?? false });
    const { read, cache } = await readTrends(ctx.services.trends, policy);
    return presentTrends(read, ctx.representation, {
      baseUrl: config.baseUrl,
      cache,
      ttlS: Math.min(TRENDS_TTL_S, config.cacheTtlS),
      version,
      ...(ctx.query.budget === undefined
        ? {}
        : { budget: { chars: ctx.query.budget, fullUrl: unbudgetedUrl(config.baseUrl, ctx.req.url) } }),
    });
  }),
);
