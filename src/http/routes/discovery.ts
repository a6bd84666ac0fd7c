// GET /api, /openapi.json, /.well-known/api-catalog, /.well-known/ard.json and /llms.txt: fixed media types,
// generated from the route table on first use.
import { z } from 'zod';
import type { HandlerContext, Rendered, RouteDef } from '../route-decl.ts';
import type { FixedDecl, FixedMedia } from '../../discovery/fixed-media.ts';
import { buildApiDocument } from '../../discovery/api-document.ts';
import { buildOpenApi } from '../../discovery/openapi.ts';
import { API_CATALOG_MEDIA_TYPE, buildApiCatalog } from '../../discovery/api-catalog.ts';
import { buildArd } from '../../discovery/ard.ts';
import { buildLlmsTxt } from '../../discovery/llms.ts';
import { DISCOVERY_PATHS } from '../../discovery/paths.ts';
import { cachedDocument, publicRoutes } from '../../discovery/route-source.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** RFC 9727 §5: any resource may point at the catalog. */
export function apiCatalogLink(baseUrl: string): string {
  return `<${baseUrl}${DISCOVERY_PATHS.apiCatalog}>; rel="api-catalog"`;
}

/** Declaration of a parameterless document route (discovery documents, docs pages); `tag` groups it in OpenAPI. */
export function discoveryDecl(operationId: string, path: string, summary: string, description: string, fixed: FixedMedia, tag = 'discovery'): FixedDecl {
  return {
    operationId,
    path,
    surface: 'discovery',
    summary,
    description,
    tags: [tag],
    query: z.object({}),
    representations: [],
    keyAware: false,
    errors: [],
    fixed,
  };
}

/** A document that changes only with a deployment: five minutes of public caching, and a pointer to the catalog. */
export function documentRoute(decl: FixedDecl, contentType: string, build: (ctx: HandlerContext) => Promise<string>): RouteDef {
  return {
    decl,
    async handle(ctx): Promise<Rendered> {
      return {
        body: await build(ctx),
        contentType,
        headers: { 'cache-control': 'public, max-age=300', link: apiCatalogLink(ctx.services.config.baseUrl) },
      };
    },
  };
}

const OBJECT = { type: 'object', additionalProperties: true };

export const discoveryRoutes: RouteDef[] = [
  {
    decl: discoveryDecl(
      'apiIndex',
      DISCOVERY_PATHS.api,
      'Service index',
      'Name, version, links to every surface, the versioning policy with its deprecation dates, and a summary of upstream provider health.',
      {
        mediaType: 'application/json',
        schema: { ...OBJECT, required: ['name', 'version', 'links', 'versioning', 'health'] },
      },
    ),
    async handle(ctx): Promise<Rendered> {
      const { config, version, health } = ctx.services;
      const doc = buildApiDocument(await publicRoutes(), { baseUrl: config.baseUrl, version, health: health?.() });
      // Health changes from one request to the next; the rest is cheap to rebuild.
      return { body: JSON.stringify(doc), contentType: JSON_TYPE, headers: { 'cache-control': 'no-cache', link: apiCatalogLink(config.baseUrl) } };
    },
  },
  documentRoute(
    discoveryDecl('openapi', DISCOVERY_PATHS.openapi, 'OpenAPI 3.1 description', 'Every public route, generated from the same declarations that validate requests, with the x-api-lifecycle policy.', {
      mediaType: 'application/json',
      schema: { ...OBJECT, required: ['openapi', 'info', 'paths'] },
    }),
    JSON_TYPE,
    ({ services }) =>
      cachedDocument(`openapi ${services.config.baseUrl} ${services.version}`, (routes) =>
        JSON.stringify(buildOpenApi(routes, { baseUrl: services.config.baseUrl, version: services.version })),
      ),
  ),
  documentRoute(
    discoveryDecl('apiCatalog', DISCOVERY_PATHS.apiCatalog, 'API catalog (RFC 9727)', 'A linkset pointing at the OpenAPI description, the documentation and the status document.', {
      mediaType: 'application/linkset+json',
      schema: { ...OBJECT, required: ['linkset'] },
    }),
    API_CATALOG_MEDIA_TYPE,
    async ({ services }) => JSON.stringify(buildApiCatalog(services.config.baseUrl)),
  ),
  documentRoute(
    discoveryDecl('ard', DISCOVERY_PATHS.ard, 'Published machine surfaces', 'REST v1, permalinks, MCP and OpenAPI with their URLs, as an agentic resource discovery manifest.', {
      mediaType: 'application/json',
      schema: { ...OBJECT, required: ['entries'] },
    }),
    JSON_TYPE,
    ({ services }) =>
      cachedDocument(`ard ${services.config.baseUrl} ${services.version}`, (routes) =>
        JSON.stringify(buildArd(routes, { baseUrl: services.config.baseUrl, version: services.version })),
      ),
  ),
  documentRoute(
    discoveryDecl('llmsTxt', DISCOVERY_PATHS.llms, 'Guide for LLM agents', 'How to read posts, threads, profiles and searches through the service, in a few lines of Markdown.', {
      mediaType: 'text/plain',
    }),
    'text/plain; charset=utf-8',
    ({ services }) => cachedDocument(`llms ${services.config.baseUrl}`, (routes) => buildLlmsTxt(routes, services.config.baseUrl)),
  ),
];
