// A profile read by its numeric account id: links made before a rename keep working, and the answer names the
// handle the account has today (Link rel="canonical" to /{handle}).
import { z } from 'zod';
import { ACCOUNT_ID_RE, code } from '../../contract/params/common.ts';
import { defineRoute, type RouteDecl, type RouteDef } from '../../contract/route-decl.ts';
import { LIST_ERRORS } from '../../contract/params/list.ts';
import { serveProfile } from './profiles.ts';
import { profileQuery } from '../../contract/queries/profiles.ts';
import { profileJsonSchema } from '../../contract/json-schemas.ts';

const accountId = z
  .string()
  .regex(ACCOUNT_ID_RE, code('invalid_user_id'))
  .describe('Numeric account id (rest_id), 1-20 digits.');

const idParams = z.object({ id: accountId });

const DESCRIPTION =
  'The profile and its latest original posts (its self-threads whole), like /api/v1/profiles/{handle}, for the ' +
  'account with this numeric id ' +
  'whatever its handle is today; the response names the current handle (in the profile, and in ' +
  '`Link: <…/{handle}>; rel="canonical"`). Paging: send back `nextCursor` as `cursor`.';

function decl(surface: 'v1' | 'permalink'): RouteDecl<typeof profileQuery, typeof idParams> {
  return {
    operationId: surface === 'v1' ? 'readProfileById' : 'readProfileByIdPermalink',
    path: surface === 'v1' ? '/api/v1/users/{id}' : '/i/user/{id}',
    surface,
    summary:
      surface === 'v1'
        ? 'Profile by numeric account id'
        : 'Profile by numeric account id (permalink mirroring the platform URL)',
    description: DESCRIPTION,
    tags: [surface === 'v1' ? 'profiles' : 'permalinks'],
    params: idParams,
    query: profileQuery,
    representations: ['markdown', 'json', 'html'],
    json: profileJsonSchema,
    keyAware: true,
    errors: ['invalid_user_id', 'invalid_date', 'invalid_filter', 'invalid_lang', 'search_unavailable', ...LIST_ERRORS],
    browseResource: 'profile',
    ...(surface === 'permalink' ? { linkPreview: true } : {}),
  };
}

export const userRoutes: RouteDef[] = (['v1', 'permalink'] as const).map((surface) => {
  const d = decl(surface);
  return defineRoute(d, (ctx) =>
    serveProfile(ctx, { accountId: ctx.params.id }, d.path.replace('{id}', ctx.params.id)),
  );
});
