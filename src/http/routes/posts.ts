// GET /api/v1/posts, the permalink /{handle}/status/{id}, and the deprecated /api/convert alias.
import { statusPath } from '../../domain/links.ts';
import { z } from 'zod';
import { readPost } from '../../domain/read-post.ts';
import { translateRead } from '../../domain/translate-read.ts';
import type { PostReadOptions, ThreadOption } from '../../domain/reads.ts';
import { Problem, withExtensions } from '../../problems/problem.ts';
import { HANDLE_RE, STATUS_ID_RE, code, statusHandle, statusId } from '../../contract/params/common.ts';
import { LANG_ALIAS } from '../../contract/params/lang.ts';
import {
  identShape,
  optionQuery,
  optionShape,
  postsQuery,
  type PostOptionQuery,
} from '../../contract/queries/posts.ts';
import { checkIdRange, parseStatusUrl, type StatusRef } from '../../contract/params/status-url.ts';
import { toProblem } from '../failures/problem-of.ts';
import { presentPost } from '../present/post.ts';
import { renderOnce } from '../present/memo.ts';
import {
  defineRoute,
  NO_PARAMS,
  type HandlerContext,
  type Rendered,
  type RouteDecl,
  type RouteDef,
} from '../../contract/route-decl.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import { unbudgetedUrl } from '../present/common.ts';
import { postJsonSchema } from '../../contract/json-schemas.ts';
import { frontMatterOf, NOTE_PARAMS } from '../../contract/params/note.ts';
import { proxyMediaLinks } from '../present/media-links.ts';
import { lookNext } from '../../render/markdown/recovery.ts';

/** `lang` translated the post reads before `translate` named it everywhere. */
const DEPRECATED_PARAMS = [LANG_ALIAS];

const EDIT_NOTE =
  'An edited post carries `edits.versions` in JSON (every version id, original first, latest last) and a Markdown ' +
  'line linking each version; reading an earlier version names the latest in Markdown, in `warnings` and in ' +
  '`Link: <…>; rel="latest-version"` (with `rel="predecessor-version"` for the version before). Edit data comes ' +
  'from the syndication and X providers; FxTwitter does not report edits.';

const POST_ERRORS: CatalogCode[] = [
  'invalid_format',
  'invalid_budget',
  'invalid_thread',
  'invalid_context',
  'invalid_replies',
  'invalid_userinfo',
  'invalid_flag',
  'invalid_note_template',
  'invalid_lang',
  'not_found',
  'upstream_error',
];
const IDENT_ERRORS: CatalogCode[] = [
  'missing_url',
  'invalid_url',
  'unsupported_host',
  'invalid_path',
  'invalid_params',
];

export const postsDecl = {
  operationId: 'readPost',
  path: '/api/v1/posts',
  surface: 'v1',
  summary: 'Read a post, thread or conversation',
  description:
    'Identify the post with `url` or with `handle` + `id`. Returns compact Markdown by default, expanded Markdown ' +
    'with `full=true`, Obsidian Markdown with `format=obsidian`, JSON with `format=json` or `Accept: application/json`, ' +
    'or a small HTML page with `Accept: text/html`. A bearer key is ignored here. ' +
    EDIT_NOTE,
  tags: ['posts'],
  params: NO_PARAMS,
  query: postsQuery,
  representations: ['markdown', 'obsidian', 'json', 'html'],
  json: postJsonSchema,
  keyAware: false,
  errors: [...IDENT_ERRORS, ...POST_ERRORS],
  mcpTool: 'read_post',
  mcpOmit: NOTE_PARAMS,
  deprecatedParams: DEPRECATED_PARAMS,
} satisfies RouteDecl;

export const statusPermalinkDecl = {
  operationId: 'readPostPermalink',
  path: '/{handle}/status/{id}',
  surface: 'permalink',
  summary: 'Read a post (permalink mirroring the platform URL)',
  description:
    'Same as /api/v1/posts with handle and id taken from the path. Link-preview crawlers (chat apps, social ' +
    'networks, unfurlers; see /docs#link-previews) get the HTML page with Open Graph metadata even without an Accept header. ' +
    EDIT_NOTE,
  tags: ['permalinks'],
  params: z.object({ handle: statusHandle, id: statusId }),
  query: optionQuery,
  representations: ['markdown', 'obsidian', 'json', 'html'],
  json: postJsonSchema,
  keyAware: false,
  linkPreview: true,
  deprecatedParams: DEPRECATED_PARAMS,
  errors: ['invalid_params', ...POST_ERRORS],
} satisfies RouteDecl;

/** X's handle-less permalinks: the post is read by id alone and the answer names its real author. */
function handleLessDecl(path: string, operationId: string) {
  return {
    ...statusPermalinkDecl,
    operationId,
    path,
    summary: 'Read a post by id alone (permalink mirroring the platform URL)',
    description:
      `Same as /{handle}/status/{id} for X's handle-less permalink ${path.replace('{id}', '<id>')}. The response names ` +
      'the real author and carries `Link: <…/{handle}/status/{id}>; rel="canonical"`. ' +
      EDIT_NOTE,
    params: z.object({ id: statusId }),
  } satisfies RouteDecl;
}

export const iStatusDecl = handleLessDecl('/i/status/{id}', 'readPostById');
export const iWebStatusDecl = handleLessDecl('/i/web/status/{id}', 'readPostByWebId');

export const convertDecl = {
  operationId: 'legacyConvert',
  path: '/api/convert',
  surface: 'legacy',
  summary: 'Deprecated alias of /api/v1/posts',
  description:
    'Takes `url` (400 missing_url when absent) and every option of /api/v1/posts. `mode` is the legacy spelling of ' +
    'the representation (markdown, json or html); `format` wins over `mode`, and both win over Accept.',
  tags: ['legacy'],
  params: NO_PARAMS,
  query: z.object({
    url: identShape.url,
    ...optionShape,
    mode: z
      .enum(['markdown', 'json', 'html'], code('invalid_mode'))
      .optional()
      .describe('Legacy spelling of the representation: markdown, json or html.'),
  }),
  representations: ['markdown', 'obsidian', 'json', 'html'],
  json: postJsonSchema,
  keyAware: false,
  errors: ['missing_url', 'invalid_url', 'unsupported_host', 'invalid_path', 'invalid_mode', ...POST_ERRORS],
  deprecated: { successor: '/api/v1/posts' },
  deprecatedParams: DEPRECATED_PARAMS,
  formatParams: ['format', 'mode'],
} satisfies RouteDecl;

function identify(q: z.output<typeof postsDecl.query>): StatusRef {
  if (q.url !== undefined) return parseStatusUrl(q.url);
  if (q.handle === undefined && q.id === undefined) {
    throw new Problem('missing_url', 'Pass `url`, or `handle` and `id`, or use /{handle}/status/{id}.');
  }
  if (q.handle === undefined || q.id === undefined) {
    throw new Problem('invalid_params', '`handle` and `id` must be given together.');
  }
  if (!HANDLE_RE.test(q.handle)) throw new Problem('invalid_params', '`handle` must be 1-15 word characters.');
  if (!STATUS_ID_RE.test(q.id)) throw new Problem('invalid_params', '`id` must be numeric.');
  checkIdRange(q.id);
  return { handle: q.handle, id: q.id };
}

function parseThread(v: string | undefined): ThreadOption {
  if (v === undefined || v === 'full' || v === 'conversation') return v === 'conversation' ? 'conversation' : 'full';
  if (v === 'off') return 'off';
  return Number(v);
}

export function postOptions(q: PostOptionQuery): PostReadOptions {
  return {
    thread: parseThread(q.thread),
    context: q.context ?? 'full',
    replies: q.replies ?? 'top',
    userinfo: q.userinfo ?? 'off',
    full: q.full ?? false,
    nocache: q.nocache ?? false,
  };
}

async function servePost(ctx: HandlerContext<PostOptionQuery, unknown>, ref: StatusRef): Promise<Rendered> {
  const opts = postOptions(ctx.query);
  const { config, version } = ctx.services;
  const policy = ctx.guards.policy({ nocache: opts.nocache });
  const got = await readPost(ctx.services.posts, ref.id, opts, policy).catch((err: unknown) => {
    // A missing post's problem says where to look next: its author's profile, accounts named like the handle.
    const next = ref.handle === undefined ? [] : lookNext('post', ref.handle, config.baseUrl);
    const problem = toProblem(err);
    throw problem.code === 'not_found' && next.length > 0 ? withExtensions(problem, { see_also: next }) : err;
  });
  const lang = ctx.query.translate ?? ctx.query.lang;
  const translated = lang ? await translateRead(got.read, lang, ctx.services.translations, policy) : undefined;
  const { cache, partial } = got;
  const read = translated?.read ?? got.read;
  const settled = got.settled && (translated?.settled ?? true);
  const chars = ctx.query.budget;
  const budget = chars === undefined ? undefined : { chars, fullUrl: unbudgetedUrl(config.baseUrl, ctx.req.url) };
  // The note's front matter shapes the Obsidian representation only.
  const note = ctx.representation === 'obsidian' ? frontMatterOf(ctx.query, () => new Date().toISOString()) : {};
  const render = () =>
    presentPost(read, opts, ctx.representation, {
      baseUrl: config.baseUrl,
      cache,
      cacheTtlS: config.cacheTtlS,
      version,
      budget,
      note,
      links: (text) => proxyMediaLinks(text, ctx.services.media, config.baseUrl),
    });
  // Stale and bypassed reads carry their own warnings and are not worth remembering; hits and misses of one
  // entry render identically, except for X-Cache. Budgeted renders link to their own request URL: not shared.
  // A URL without the author's handle, or with someone else's, still reads the post: point at the right one.
  const author = read.requested.author.handle;
  const canonical = (out: Rendered): Rendered => {
    if (ref.handle !== undefined && ref.handle.toLowerCase() === author.toLowerCase()) return out;
    const rel = `<${config.baseUrl}${statusPath(author, ref.id)}>; rel="canonical"`;
    return { ...out, headers: { ...out.headers, link: out.headers.link ? `${out.headers.link}, ${rel}` : rel } };
  };
  // Budgeted reads depend on the request's own URL (the link to the unbudgeted read): never remembered; nor is a
  // read shaped by a passing failure (an ancestor unreadable just now). A provider's partial answer is rendered
  // once like any other but never stored as an answer: the fast path would serve it past the upstream's recovery.
  if (!settled || partial) ctx.guards.degraded();
  // A note stamped with the time it was rendered is never remembered, nor a translated read (a new object per
  // request; its translations are cached one by one): both are rendered afresh.
  if ((cache !== 'hit' && cache !== 'miss') || budget || !settled || note.fetched || lang) return canonical(render());
  // Every rendering input besides the read: the representation and the typed options (nocache and the cache
  // status never change a body, X-Cache is set below).
  const out = renderOnce(
    ctx.services.renders,
    read.requested,
    { representation: ctx.representation, ...opts, nocache: false, note },
    render,
  );
  return canonical(out.headers['x-cache'] === cache ? out : { ...out, headers: { ...out.headers, 'x-cache': cache } });
}

export const postRoutes: RouteDef[] = [
  defineRoute(postsDecl, (ctx) => servePost(ctx, identify(ctx.query))),
  defineRoute(statusPermalinkDecl, (ctx) => {
    checkIdRange(ctx.params.id);
    return servePost(ctx, ctx.params);
  }),
  ...[iStatusDecl, iWebStatusDecl].map((decl) =>
    defineRoute(decl, (ctx) => {
      checkIdRange(ctx.params.id);
      return servePost(ctx, { id: ctx.params.id });
    }),
  ),
  defineRoute(convertDecl, (ctx) => {
    if (ctx.query.url === undefined) throw new Problem('missing_url', 'Pass the status URL in `url`.');
    return servePost(ctx, parseStatusUrl(ctx.query.url));
  }),
];
