// GET /docs, /docs/reliability and /docs/versioning: HTML generated from the route table and the problem catalog;
// GET /docs/<guide>: the guides of docs/*.md.
import type { HandlerContext, RouteDef } from '../contract/route-decl.ts';
import { DISCOVERY_PATHS } from './paths.ts';
import { cachedDocument, type RouteTable } from './documents.ts';
import { registeredProviders } from '../providers/registry.ts';
import { renderDocsIndex } from './docs/index-page.ts';
import { renderReliability } from './docs/reliability-page.ts';
import { renderVersioning } from './docs/versioning-page.ts';
import { GUIDES, guidePath, renderGuide } from './docs/guide-pages.ts';
import { discoveryDecl, documentRoute, type DocumentDecl } from './discovery-routes.ts';

const HTML = 'text/html; charset=utf-8';

function docsDecl(operationId: string, path: string, summary: string, description: string): DocumentDecl {
  return discoveryDecl(operationId, path, summary, description, { mediaType: 'text/html' }, 'docs');
}

function htmlRoute(decl: DocumentDecl, build: (ctx: HandlerContext) => string): RouteDef {
  return documentRoute(decl, HTML, build);
}

export function docsRoutes(table: RouteTable): RouteDef[] {
  return [
    htmlRoute(
      docsDecl(
        'docsIndex',
        DISCOVERY_PATHS.docs,
        'Documentation',
        'Overview, quick start and every route with its parameters and an example.',
      ),
      ({ services }) =>
        cachedDocument(table, `docs ${services.config.baseUrl} ${services.version}`, (routes) =>
          renderDocsIndex(routes, { baseUrl: services.config.baseUrl, version: services.version }),
        ),
    ),
    htmlRoute(
      docsDecl(
        'docsReliability',
        DISCOVERY_PATHS.reliability,
        'Error codes',
        'Every problem code with its status, title and resolution; each problem `type` URI points at its anchor here.',
      ),
      ({ services }) => {
        // Configured providers first, then any other registered one, so every provider code has its anchor.
        const providers = [...new Set([...services.config.providers, ...registeredProviders()])];
        return cachedDocument(table, `reliability ${services.config.baseUrl} ${providers.join(',')}`, () =>
          renderReliability({ baseUrl: services.config.baseUrl, providers }),
        );
      },
    ),
    htmlRoute(
      docsDecl(
        'docsVersioning',
        DISCOVERY_PATHS.versioning,
        'Versioning policy',
        'The policy the deprecation Link headers point at, with the deprecated routes and their dates.',
      ),
      ({ services }) =>
        cachedDocument(table, `versioning ${services.config.baseUrl}`, (routes) =>
          renderVersioning(routes, { baseUrl: services.config.baseUrl }),
        ),
    ),
    ...GUIDES.map((guide) =>
      htmlRoute(
        docsDecl(
          `docs${guide.slug[0]!.toUpperCase()}${guide.slug.slice(1)}Guide`,
          guidePath(guide.slug),
          guide.title,
          guide.summary,
        ),
        ({ services }) =>
          cachedDocument(table, `guide ${guide.slug} ${services.config.baseUrl}`, () =>
            renderGuide(guide, { baseUrl: services.config.baseUrl }),
          ),
      ),
    ),
  ];
}
