// The two routes of a feed about one post (its conversation, its quotes): the versioned one, whose `type` picks the
// format, and the permalink's RSS. They differ only in their text and in what they serve.
import { z } from 'zod';
import { statusHandle, statusId } from '../../contract/params/common.ts';
import { defineRoute, type RouteDef } from '../../contract/route-decl.ts';
import { checkIdRange } from '../../contract/params/status-url.ts';
import type { serveThreadFeed } from './feed-serve.ts';
import { options, postFeedDecl, withQuery, type PostFeedText } from './feed-common.ts';
import { permalinkPostFeedQuery, postFeedQuery } from '../../contract/queries/feeds.ts';

export function postFeedRoutes(
  text: PostFeedText,
  serve: typeof serveThreadFeed,
): { v1: RouteDef; permalink: RouteDef } {
  const v1 = defineRoute(postFeedDecl('v1', postFeedQuery, z.object({ id: statusId }), text), (ctx) => {
    const { id } = ctx.params;
    checkIdRange(id);
    const type = ctx.query.type ?? 'rss';
    const self = withQuery(`${ctx.services.config.baseUrl}${text.path.v1.replace('{id}', id)}`, { type });
    return serve(ctx, id, options(ctx.query, type, self));
  });
  const permalink = defineRoute(
    postFeedDecl('permalink', permalinkPostFeedQuery, z.object({ handle: statusHandle, id: statusId }), text),
    (ctx) => {
      const { handle, id } = ctx.params;
      checkIdRange(id);
      const self = `${ctx.services.config.baseUrl}${text.path.permalink.replace('{handle}', handle).replace('{id}', id)}`;
      return serve(ctx, id, options(ctx.query, 'rss', self));
    },
  );
  return { v1, permalink };
}
