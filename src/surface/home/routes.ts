// GET / (the home page, the API index or a short guide, by Accept) and its two assets. A conversion asked by the
// form without JavaScript (`/?url=…`) is read by the permalink route the link names, through that route's own
// handler, so it is validated, cached and charged exactly as a read of the permalink is.
import { z } from 'zod';
import Negotiator from 'negotiator';
import { defineRoute, type HandlerContext, type Rendered, type RouteDef } from '../../contract/route-decl.ts';
import type { Representation } from '../../contract/representation.ts';
import { InputRefusal } from '../../contract/refusal.ts';
import { DomainError } from '../../domain/errors.ts';
import { isRefusal, parseLink, permalinkOf, type LinkRefusal, type LinkTarget } from '../../domain/pasted-link.ts';
import { HANDLE_RE } from '../../domain/handles.ts';
import type { Problem } from '../../problems/problem.ts';
import { buildApiDocument } from '../api-document.ts';
import { buildLlmsTxt } from '../llms.ts';
import { apiCatalogLink, discoveryDecl, documentRoute } from '../discovery-routes.ts';
import type { RouteTable } from '../documents.ts';
import { DISCOVERY_PATHS } from '../paths.ts';
import { HOME_ASSETS } from './assets.ts';
import { HOME_CSP, HOME_FORMATS, HOME_THREADS, renderHomePage, type HomeForm, type HomeResult } from './page.ts';
import { matchPermalink } from './match.ts';

const homeQuery = z.object({
  url: z.string().max(2048).optional().describe('An X link or a handle to convert (the form of the HTML page).'),
  // The catalog code is each schema's message (contract/route-decl.ts validationRefusal), as on the read routes.
  format: z
    .enum(HOME_FORMATS, { error: 'invalid_format' })
    .optional()
    .describe('compact (default), expanded, obsidian or json.'),
  thread: z
    .enum(HOME_THREADS, { error: 'invalid_thread' })
    .optional()
    .describe('For posts: full (default), off or conversation.'),
});
type HomeQuery = z.output<typeof homeQuery>;

const HOME_DESCRIPTION =
  'For people, with a browser Accept (text/html): a page to paste any X link or handle and get Markdown (the form ' +
  'works without JavaScript: `url`, `format` and `thread` answer the page with the result, read through the ' +
  "link's permalink route). `Accept: application/json` answers the service index of /api; text/markdown or " +
  'text/plain (and no Accept) a short Markdown guide. Any X link put after the host (`/https://x.com/…`) is read ' +
  'as its permalink: see /docs#prefix-reads.';

/** With equal preference (or no Accept, or * / *) the guide in Markdown wins, as on every read route. */
const HOME_OFFERS = ['text/markdown', 'text/plain', 'application/json', 'text/html'];

function homeMediaType(accept: string | undefined): string | undefined {
  if (accept === undefined || accept.trim() === '') return 'text/markdown';
  return new Negotiator({ headers: { accept } }).mediaType(HOME_OFFERS);
}

/** The short guide: llms.txt's opening lines, and where the rest is. */
function markdownGuide(table: RouteTable, baseUrl: string): string {
  const llms = buildLlmsTxt(table, baseUrl).split('\n');
  const head = llms.slice(
    0,
    llms.findIndex((l) => l.startsWith('## ')),
  );
  return [
    ...head,
    '## Start here',
    '',
    `- Swap the host of any X link: ${baseUrl}/jack/status/20, or prefix the whole link: ${baseUrl}/https://x.com/jack/status/20`,
    `- Full guide for agents: ${baseUrl}${DISCOVERY_PATHS.llms}`,
    `- Documentation: ${baseUrl}${DISCOVERY_PATHS.docs}`,
    `- MCP: ${baseUrl}${DISCOVERY_PATHS.mcp} (or \`threadmark mcp\` over stdio)`,
    `- OpenAPI: ${baseUrl}${DISCOVERY_PATHS.openapi}`,
    '',
  ].join('\n');
}

/** The edge's mapping of any failure to the problem document it answers with (http/failures/problem-of.ts). */
export type ProblemOf = (failure: unknown) => Problem;

/** What the form's field names: a bare handle (`@jack`, `jack`) or a pasted link. */
function targetOf(raw: string): LinkTarget | LinkRefusal {
  const handle = raw.trim().replace(/^@/, '');
  if (HANDLE_RE.test(handle)) return { kind: 'profile', handle };
  return parseLink(raw, 'mirrors');
}

interface Conversion {
  result: HomeResult;
  status: number;
  headers: Record<string, string>;
}

const failed = (p: Problem, permalink?: string): Conversion => ({
  result: { ok: false, title: p.title, detail: p.detail, ...(permalink ? { permalink } : {}) },
  status: p.status,
  headers: { ...p.headers, 'cache-control': 'no-store' },
});

async function convert(
  ctx: HandlerContext<HomeQuery, unknown>,
  table: RouteTable,
  problemOf: ProblemOf,
  raw: string,
): Promise<Conversion> {
  const target = targetOf(raw);
  if (isRefusal(target)) {
    const refused = problemOf(new DomainError({ kind: 'refused_link', refusal: target }));
    // The form also takes a handle: text that is no link at all is told so.
    const detail =
      refused.code === 'bad_request' ? `${refused.detail} Or type a handle, such as @jack.` : refused.detail;
    return { ...failed(refused), result: { ok: false, title: 'Not a link this service reads', detail } };
  }
  const format = ctx.query.format ?? 'compact';
  const options = new URLSearchParams();
  if (format === 'expanded') options.set('full', 'true');
  if (format === 'obsidian' || format === 'json') options.set('format', format);
  const thread = ctx.query.thread ?? 'full';
  if (target.kind === 'post' && thread !== 'full') options.set('thread', thread);
  const permalink = permalinkOf(target, options);
  const match = matchPermalink(table, permalink);
  if (!match || match.def.decl.representations.length === 0) {
    const p = problemOf(new InputRefusal('bad_request', 'Feeds are read at their own address (follow the link).'));
    return { ...failed(p, permalink), status: 200, headers: { 'cache-control': 'public, max-age=300' } };
  }
  const representation: Representation = format === 'json' ? 'json' : format === 'obsidian' ? 'obsidian' : 'markdown';
  // The permalink route's own handler validates these exactly as it validates a request to the permalink.
  ctx.req.params = match.params;
  ctx.req.query = match.query;
  try {
    const out = await match.def.handle(ctx.req, { representation, services: ctx.services, guards: ctx.guards });
    const text = out.body || (out.bytes ? out.bytes.toString('utf8') : '');
    const headers: Record<string, string> = {};
    for (const name of ['cache-control', 'x-cache', 'x-warnings']) {
      const v = out.headers[name];
      if (v !== undefined) headers[name] = v;
    }
    return {
      result: { ok: true, text, permalink, mediaType: out.contentType.split(';')[0] ?? 'text' },
      status: out.status ?? 200,
      headers,
    };
  } catch (err) {
    // What the permalink would answer as a problem is shown on the page; a fault of ours is the error handler's.
    const p = problemOf(err);
    if (p.code === 'internal_error') throw err;
    return failed(p, permalink);
  }
}

function form(q: HomeQuery): HomeForm {
  return { ...(q.url !== undefined ? { url: q.url } : {}), format: q.format ?? 'compact', thread: q.thread ?? 'full' };
}

export function homeRoutes(table: RouteTable, problemOf: ProblemOf): RouteDef[] {
  const home = defineRoute(
    {
      operationId: 'home',
      path: '/',
      surface: 'discovery',
      summary: 'Home: a page for people, the index for programs',
      description: HOME_DESCRIPTION,
      tags: ['discovery'],
      params: z.object({}),
      query: homeQuery,
      // Negotiated here (text/plain is one more offer than the read routes make); `format` is the conversion's.
      representations: [],
      fixed: { mediaType: 'text/html', alternatives: ['application/json', 'text/markdown', 'text/plain'] },
      keyAware: true,
      errors: ['unsupported_host', 'invalid_params'],
    },
    async (ctx): Promise<Rendered> => {
      const { config, version, providerHealth } = ctx.services;
      const baseUrl = config.baseUrl;
      const chosen = homeMediaType(ctx.req.headers.accept);
      if (chosen === undefined) throw new InputRefusal('not_acceptable', `\`/\` answers ${HOME_OFFERS.join(', ')}.`);
      if (chosen === 'application/json') {
        const doc = buildApiDocument(table, { baseUrl, version, health: { providers: providerHealth() } });
        return {
          body: JSON.stringify(doc),
          contentType: 'application/json; charset=utf-8',
          headers: { 'cache-control': 'no-cache', link: apiCatalogLink(baseUrl), vary: 'Accept' },
        };
      }
      if (chosen !== 'text/html')
        return {
          body: markdownGuide(table, baseUrl),
          contentType: `${chosen}; charset=utf-8`,
          headers: { 'cache-control': 'public, max-age=300', link: apiCatalogLink(baseUrl), vary: 'Accept' },
        };
      const url = ctx.query.url?.trim();
      const conversion = url ? await convert(ctx, table, problemOf, url) : undefined;
      return {
        status: conversion?.status ?? 200,
        body: renderHomePage(form(ctx.query), conversion?.result, baseUrl),
        contentType: 'text/html; charset=utf-8',
        headers: {
          'cache-control': 'public, max-age=300',
          ...conversion?.headers,
          vary: 'Accept',
          'content-security-policy': HOME_CSP,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        },
      };
    },
  );
  const asset = (a: (typeof HOME_ASSETS)[keyof typeof HOME_ASSETS], id: string, summary: string) =>
    documentRoute(
      discoveryDecl(id, a.path, summary, 'An asset of the home page, served here so its CSP allows nothing else.', {
        mediaType: a.mediaType.split(';')[0]!,
      }),
      a.mediaType,
      () => a.body,
    );
  return [
    home,
    asset(HOME_ASSETS.css, 'homeStylesheet', 'Stylesheet of the home page'),
    asset(HOME_ASSETS.js, 'homeScript', 'Script of the home page'),
  ];
}
