// The shared request flow of every list route: the read policy, the use case, the Continue → link, present; a
// missing profile becomes a recovery document for requests that name Markdown or HTML.
import type { Listed, PageInput } from '../../domain/lists.ts';
import type { ReadPolicy } from '../../domain/sourced.ts';
import { toProblem } from '../failures/problem-of.ts';
import { namesDocument } from '../negotiation/negotiate.ts';
import { withExtensions } from '../../problems/problem.ts';
import { lookNext } from '../../render/markdown/recovery.ts';
import { presentList, presentRecovery, type ListRead } from '../present/lists.ts';
import { unbudgetedUrl } from '../present/common.ts';
import type { BrowseResource, HandlerContext, Rendered } from '../../contract/route-decl.ts';
import { continueUrl, pageInput, type ListQuery } from '../../contract/params/list.ts';
import { applyFilter, isNoFilter, type FeedFilter } from '../../domain/feed-filters.ts';
import { filterOf, filterParams, type FilterQuery } from '../../contract/params/feed-filters.ts';
import { translatePosts, type PostTranslations } from '../../domain/translate-read.ts';
import type { Post } from '../../domain/models.ts';

export interface ListPlan {
  resource: BrowseResource;
  /** Path of the route as requested, for the Continue → link. */
  path: string;
  title: string;
  /** Extra query parameters the Continue → link must keep (q, feed). */
  keep?: Record<string, string | undefined>;
  /** Search lookups are charged on every live call; account-backed feeds also against the account pool. */
  search?: 'plain' | 'account';
  /** Reads only logged-in sessions can make (X Lists): each live upstream page is charged to the account pool. */
  accountBacked?: boolean;
  /** For recovery documents on 404. */
  missing?: { kind: 'profile' | 'post'; what: string };
  /** Runs the use case. */
  read(policy: ReadPolicy, page: PageInput): Promise<Listed<ListRead>>;
  /** Headers the 200 carries besides the list's own, from what was read (a profile read by id names its handle). */
  headers?(list: ListRead): Record<string, string>;
  /** The caller's since_id (profile and search), kept in the Continue → link. */
  sinceId?: string;
  /** The caller's post filters (profile, search, list posts): applied to each page read, kept in Continue →. */
  filter?: FilterQuery;
  /** The language to translate the page's posts into (canonical tag), kept in Continue →. */
  translate?: string;
}

/**
 * A page's posts less those the filters leave out. The page is read whole (and cached whole), so a filtered page
 * may hold fewer posts than `limit`, or none, and still have a next page.
 */
function filtered(list: ListRead, f: FeedFilter): void {
  if (
    list.resource === 'profile' ||
    list.resource === 'list' ||
    list.resource === 'quotes' ||
    list.resource === 'media' ||
    list.resource === 'articles'
  )
    list.read.posts = applyFilter(f, list.read.posts);
  else if (list.resource === 'search') {
    const posts = new Set(
      applyFilter(
        f,
        list.read.items.flatMap((i) => (i.kind === 'post' ? [i.post] : [])),
      ),
    );
    list.read.items = list.read.items.filter((i) => i.kind !== 'post' || posts.has(i.post));
  }
}

/** The posts a page shows, for the translation step, and the page with them replaced. */
function listPosts(list: ListRead): Post[] {
  if (list.resource === 'search') return list.read.items.flatMap((i) => (i.kind === 'post' ? [i.post] : []));
  return 'posts' in list.read ? list.read.posts : [];
}

/** The page's posts with their translations beside the original text, and the warnings of those it lacks. */
function translated(list: ListRead, t: PostTranslations): void {
  if (list.resource === 'search')
    list.read.items = list.read.items.map((i) => (i.kind === 'post' ? { ...i, post: t.apply(i.post) } : i));
  else if ('posts' in list.read) list.read.posts = list.read.posts.map(t.apply);
  if (t.warnings.length > 0) list.read.warnings = [...list.read.warnings, ...t.warnings];
}

export async function serveList(ctx: HandlerContext<ListQuery, unknown>, plan: ListPlan): Promise<Rendered> {
  const { config } = ctx.services;
  const key = ctx.guards.key;
  const q = ctx.query;
  // A term both included and excluded is refused before anything is read.
  const filter = plan.filter ? filterOf(plan.filter) : undefined;
  try {
    const lang = plan.translate;
    const policy = {
      ...ctx.guards.policy({
        nocache: q.nocache ?? false,
        search: plan.search,
        accountBacked: plan.accountBacked,
      }),
      ...(lang ? { translate: lang } : {}),
    };
    const { read: list, cache } = await plan.read(policy, pageInput(q));
    if (filter && !isNoFilter(filter)) filtered(list, filter);
    if (lang) {
      const t = await translatePosts(listPosts(list), lang, ctx.services.translations, policy);
      translated(list, t);
      // A page shaped by a translation that failed just now is not stored as an answer.
      if (!t.settled) ctx.guards.degraded();
    }
    const keep = {
      ...plan.keep,
      ...(plan.filter ? filterParams(plan.filter) : {}),
      limit: q.limit !== undefined ? String(q.limit) : undefined,
      full: q.full ? 'true' : undefined,
      since_id: plan.sinceId,
      translate: lang,
    };
    const next = list.read.nextCursor;
    // The read model is this request's own: the link to the next page is the presenter's to add.
    list.read.continueUrl = next ? continueUrl(config.baseUrl, plan.path, keep, next) : undefined;
    const out = presentList(list, ctx.representation, {
      baseUrl: config.baseUrl,
      full: q.full ?? false,
      cache,
      cacheTtlS: config.cacheTtlS,
      keyStatus: key.status,
      keyed: key.status === 'valid',
      title: plan.title,
      budget:
        q.budget === undefined ? undefined : { chars: q.budget, fullUrl: unbudgetedUrl(config.baseUrl, ctx.req.url) },
    });
    const extra = plan.headers?.(list);
    return extra ? { ...out, headers: { ...out.headers, ...extra } } : out;
  } catch (err) {
    if (
      plan.missing &&
      // HTML without naming it is a link-preview crawler's answer: its page is the recovery document too.
      (ctx.representation === 'html' ||
        (ctx.representation === 'markdown' &&
          namesDocument((ctx.req.query as { format?: unknown } | undefined)?.format, ctx.req.headers))) &&
      toProblem(err).code === 'not_found'
    ) {
      return presentRecovery(plan.missing.kind, plan.missing.what, ctx.representation, {
        baseUrl: config.baseUrl,
        keyStatus: key.status,
        resource: plan.resource,
      });
    }
    const problem = toProblem(err);
    if (plan.missing && problem.code === 'not_found') {
      const next = lookNext(plan.missing.kind, plan.missing.what, config.baseUrl);
      if (next.length > 0) throw withExtensions(problem, { see_also: next });
    }
    throw err;
  }
}
