// GET /api, /openapi.json, /.well-known/api-catalog, /.well-known/ard.json and /llms.txt: fixed media types,
// generated on first use from the route table the server hands over.
import { z } from 'zod';
import {
  defineRoute,
  NO_PARAMS,
  type HandlerContext,
  type Rendered,
  type RouteDecl,
  type RouteDef,
} from '../contract/route-decl.ts';
import type { FixedMedia } from './fixed-media.ts';
import { buildApiDocument } from './api-document.ts';
import { buildOpenApi } from './openapi.ts';
import { API_CATALOG_MEDIA_TYPE, buildApiCatalog } from './api-catalog.ts';
import { buildArd } from './ard.ts';
import { buildLlmsTxt } from './llms.ts';
import { DISCOVERY_PATHS } from './paths.ts';
import { cachedDocument, type RouteTable } from './documents.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** RFC 9727 §5: any resource may point at the catalog. */
export function apiCatalogLink(baseUrl: string): string {
  return `<${baseUrl}${DISCOVERY_PATHS.apiCatalog}>; rel="api-catalog"`;
}

/** Declaration of a parameterless document route (discovery documents, docs pages); `tag` groups it in OpenAPI. */
const NO_QUERY = z.object({});

export type DocumentDecl = RouteDecl<typeof NO_QUERY, typeof NO_PARAMS>;

export function discoveryDecl(
  operationId: string,
  path: string,
  summary: string,
  description: string,
  fixed: FixedMedia,
  tag = 'discovery',
): DocumentDecl {
  return {
    operationId,
    path,
    surface: 'discovery',
    summary,
    description,
    tags: [tag],
    params: NO_PARAMS,
    query: NO_QUERY,
    representations: [],
    keyAware: false,
    errors: [],
    fixed,
  };
}

/** A document that changes only with a deployment: five minutes of public caching, and a pointer to the catalog. */
export function documentRoute(
  decl: DocumentDecl,
  contentType: string,
  build: (ctx: HandlerContext) => string,
): RouteDef {
  return defineRoute(decl, async (ctx): Promise<Rendered> => ({
    body: build(ctx),
    contentType,
    headers: { 'cache-control': 'public, max-age=300', link: apiCatalogLink(ctx.services.config.baseUrl) },
  }));
}

const OBJECT = { type: 'object', additionalProperties: true };

export function discoveryRoutes(table: RouteTable): RouteDef[] {
  return [
    defineRoute(
      discoveryDecl(
        'apiIndex',
        DISCOVERY_PATHS.api,
        'Service index',
        'Name, version, links to every surface, the versioning policy with its deprecation dates, and a summary of upstream provider health.',
        {
          mediaType: 'application/json',
          schema: { ...OBJECT, required: ['name', 'version', 'links', 'versioning', 'health'] },
        },
      ),
      async (ctx): Promise<Rendered> => {
        const { config, version, providerHealth } = ctx.services;
        const health = { providers: providerHealth() };
        const doc = buildApiDocument(table, { baseUrl: config.baseUrl, version, health });
        // Health changes from one request to the next; the rest is cheap to rebuild.
        return {
          body: JSON.stringify(doc),
          contentType: JSON_TYPE,
          headers: { 'cache-control': 'no-cache', link: apiCatalogLink(config.baseUrl) },
        };
      },
    ),
    documentRoute(
      discoveryDecl(
        'openapi',
        DISCOVERY_PATHS.openapi,
        'OpenAPI 3.1 description',
        'Every public route, generated from the same declarations that validate requests, with the x-api-lifecycle policy.',
        {
          mediaType: 'application/json',
          schema: { ...OBJECT, required: ['openapi', 'info', 'paths'] },
        },
      ),
      JSON_TYPE,
      ({ services }) =>
        cachedDocument(table, `openapi ${services.config.baseUrl} ${services.version}`, (routes) =>
          JSON.stringify(buildOpenApi(routes, { baseUrl: services.config.baseUrl, version: services.version })),
        ),
    ),
    documentRoute(
      discoveryDecl(
        'apiCatalog',
        DISCOVERY_PATHS.apiCatalog,
        'API catalog (RFC 9727)',
        'A linkset pointing at the OpenAPI description, the documentation and the status document.',
        {
          mediaType: 'application/linkset+json',
          schema: { ...OBJECT, required: ['linkset'] },
        },
      ),
      API_CATALOG_MEDIA_TYPE,
      ({ services }) => JSON.stringify(buildApiCatalog(services.config.baseUrl)),
    ),
    documentRoute(
      discoveryDecl(
        'ard',
        DISCOVERY_PATHS.ard,
        'Published machine surfaces',
        'REST v1, permalinks, MCP and OpenAPI with their URLs, as an agentic resource discovery manifest.',
        {
          mediaType: 'application/json',
          schema: { ...OBJECT, required: ['entries'] },
        },
      ),
      JSON_TYPE,
      ({ services }) =>
        cachedDocument(table, `ard ${services.config.baseUrl} ${services.version}`, (routes) =>
          JSON.stringify(buildArd(routes, { baseUrl: services.config.baseUrl, version: services.version })),
        ),
    ),
    documentRoute(
      discoveryDecl(
        'llmsTxt',
        DISCOVERY_PATHS.llms,
        'Guide for LLM agents',
        'How to read posts, threads, profiles and searches through the service, in a few lines of Markdown.',
        {
          mediaType: 'text/plain',
        },
      ),
      'text/plain; charset=utf-8',
      ({ services }) =>
        cachedDocument(table, `llms ${services.config.baseUrl}`, (routes) =>
          buildLlmsTxt(routes, services.config.baseUrl),
        ),
    ),
  ];
}
