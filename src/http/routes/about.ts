// Account facts on both surfaces: /{handle}/about and /api/v1/profiles/{handle}/about ("About this account": where
// it is based, how it connects, when it joined, verification and since when, username changes, affiliate badge).
import { z } from 'zod';
import { readAbout } from '../../domain/about.ts';
import { aboutJsonSchema } from '../../contract/json-schemas.ts';
import { profileHandle } from '../../contract/params/common.ts';
import { aboutQuery } from '../../contract/queries/about.ts';
import { defineRoute, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import { toProblem } from '../failures/problem-of.ts';
import { presentAbout } from '../present/about.ts';
import { presentRecovery } from '../present/lists.ts';

const handleParams = z.object({ handle: profileHandle });

const DESCRIPTION =
  'What X shows about the account beyond its bio: where it is based (and whether X trusts that), how it connects, ' +
  'when it joined, whether it is verified and since when, how many times its username changed and when last, and ' +
  'its affiliate badge. Each fact the upstreams did not give is stated as unknown (JSON: absent from `facts` and ' +
  'named in `unknown`), never guessed. From FxTwitter (its profile and /about answers; it names no affiliate badge), ' +
  "or X's AboutAccountQuery with the deployment's sessions (each call charged to account-ip, or account-key for key " +
  'holders); 503 read_unavailable with Retry-After when no configured provider serves it. An unknown, suspended or ' +
  'protected account is 404 not_found.';

function decl(surface: 'v1' | 'permalink'): RouteDecl<typeof aboutQuery, typeof handleParams> {
  const v1 = surface === 'v1';
  return {
    operationId: v1 ? 'readAbout' : 'readAboutPermalink',
    path: v1 ? '/api/v1/profiles/{handle}/about' : '/{handle}/about',
    surface,
    summary: v1 ? "Facts about an account (X's About this account)" : 'Facts about an account (permalink)',
    description: DESCRIPTION,
    tags: [v1 ? 'profiles' : 'permalinks'],
    params: handleParams,
    query: aboutQuery,
    representations: ['markdown', 'json', 'html'],
    json: aboutJsonSchema,
    keyAware: true,
    errors: [
      'invalid_handle',
      'invalid_format',
      'invalid_flag',
      'invalid_key',
      'not_found',
      'read_unavailable',
      'upstream_error',
    ],
    ...(v1 ? { mcpTool: 'read_about' } : {}),
  };
}

export const aboutRoutes: RouteDef[] = (['v1', 'permalink'] as const).map((surface) =>
  defineRoute(decl(surface), async (ctx) => {
    const { config, tabs } = ctx.services;
    const key = ctx.guards.key;
    const { handle } = ctx.params;
    try {
      const policy = ctx.guards.policy({ nocache: ctx.query.nocache ?? false });
      const { read, cache } = await readAbout(tabs, handle, policy);
      return presentAbout(read, ctx.representation, {
        baseUrl: config.baseUrl,
        full: ctx.query.full ?? false,
        cache,
        cacheTtlS: config.cacheTtlS,
        keyStatus: key.status,
        keyed: key.status === 'valid',
        budget: ctx.query.budget,
      });
    } catch (err) {
      if (ctx.representation !== 'json' && toProblem(err).code === 'not_found')
        return presentRecovery('profile', `@${handle}`, ctx.representation, {
          baseUrl: config.baseUrl,
          keyStatus: key.status,
          resource: 'profile',
        });
      throw err;
    }
  }),
);
