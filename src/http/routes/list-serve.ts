// The shared request flow of every list route: position from cursor or page, fetch, seal the next cursor,
// present; a missing profile becomes a recovery document for Markdown and HTML readers.
import { fetchPage, type PagedResult } from '../../domain/lists.ts';
import type { Page } from '../../domain/models.ts';
import type { ListMeta } from '../../domain/reads.ts';
import type { Sourced } from '../../domain/sourced.ts';
import type { CursorScope } from '../../providers/cursors.ts';
import { isProblem } from '../../problems/problem.ts';
import { keyStateOf } from '../key-state.ts';
import { presentList, presentRecovery, type ListRead } from '../present/lists.ts';
import { unbudgetedUrl } from '../present/common.ts';
import type { BrowseResource, HandlerContext, Rendered } from '../route-decl.ts';
import { continueUrl, positionOf, type ListQuery } from './list-params.ts';
import type { PageCall } from '../../domain/lists.ts';

export interface ListPlan<T> {
  resource: BrowseResource;
  scope: CursorScope;
  /** Path of the route as requested, for the Continue → link. */
  path: string;
  title: string;
  /** Extra query parameters the Continue → link must keep (q, feed). */
  keep?: Record<string, string | undefined>;
  /** Search lookups are charged on every live call; account-backed feeds also against the account pool. */
  search?: 'plain' | 'account';
  /** For recovery documents on 404. */
  missing?: { kind: 'profile' | 'post'; what: string };
  load(call: PageCall): Promise<Sourced<Page<T>>>;
  /** True when this page already reaches the caller's since_id: no later page can hold anything newer. */
  caughtUp?(page: PagedResult<T>): boolean;
  /** `meta` is the envelope every list read carries, ready to spread into it. */
  build(page: PagedResult<T>, meta: ListMeta): Promise<ListRead> | ListRead;
}

export async function serveList<T>(ctx: HandlerContext<ListQuery>, plan: ListPlan<T>): Promise<Rendered> {
  const { config, cursors, guards } = ctx.services;
  const key = keyStateOf(ctx.req);
  const q = ctx.query;
  try {
    const policy = guards.policy(ctx.req, { nocache: q.nocache ?? false, search: plan.search });
    const pos = positionOf(q, cursors, plan.scope, policy);
    const page = await fetchPage(pos, plan.load);
    const nextCursor = page.next && !plan.caughtUp?.(page)
      ? cursors.encode(plan.scope, { provider: page.next.provider, upstream: page.next.upstream, page: page.page + 1 })
      : undefined;
    const keep = {
      ...plan.keep,
      limit: q.limit !== undefined ? String(q.limit) : undefined,
      full: q.full ? 'true' : undefined,
      since_id: q.since_id,
    };
    const read = await plan.build(page, {
      page: page.page,
      limit: pos.limit,
      nextCursor,
      continueUrl: nextCursor ? continueUrl(config.baseUrl, plan.path, keep, nextCursor) : undefined,
      source: page.source,
      warnings: page.warnings,
    });
    return presentList(read, ctx.representation, {
      baseUrl: config.baseUrl,
      full: q.full ?? false,
      cache: page.cache,
      cacheTtlS: config.cacheTtlS,
      keyStatus: key.status,
      keyed: key.status === 'valid',
      title: plan.title,
      budget: q.budget === undefined ? undefined : { chars: q.budget, fullUrl: unbudgetedUrl(config.baseUrl, ctx.req.url) },
    });
  } catch (err) {
    if (isProblem(err) && err.code === 'not_found' && plan.missing && ctx.representation !== 'json') {
      return presentRecovery(plan.missing.kind, plan.missing.what, ctx.representation, {
        baseUrl: config.baseUrl,
        keyStatus: key.status,
        resource: plan.resource,
      });
    }
    throw err;
  }
}
