// GET /api: what the service is, where every surface lives, the versioning dates and provider health.
import { LIFECYCLE } from '../contract/lifecycle.ts';
import type { RouteDef, Surface } from '../contract/route-decl.ts';
import { deprecatedOperations, deprecatedParameters } from './lifecycle.ts';
import { DISCOVERY_PATHS, absolute } from './paths.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from './service-info.ts';

export interface ApiDocumentOptions {
  baseUrl: string;
  version: string;
  /** Provider chain health summary, when the deployment reports one. */
  health?: unknown;
}

function routesOf(routes: readonly RouteDef[], surface: Surface, baseUrl: string) {
  return routes
    .filter((r) => r.decl.surface === surface)
    .map(({ decl }) => ({
      operationId: decl.operationId,
      method: 'GET',
      path: decl.path,
      href: absolute(baseUrl, decl.path),
      summary: decl.summary,
      ...(decl.mcpTool ? { mcp_tool: decl.mcpTool } : {}),
      ...(decl.deprecated ? { deprecated: true } : {}),
    }));
}

export function buildApiDocument(routes: readonly RouteDef[], opts: ApiDocumentOptions): Record<string, unknown> {
  const { baseUrl } = opts;
  const link = (path: string) => absolute(baseUrl, path);
  return {
    name: SERVICE_NAME,
    version: opts.version,
    description: SERVICE_DESCRIPTION,
    links: {
      self: link(DISCOVERY_PATHS.api),
      openapi: link(DISCOVERY_PATHS.openapi),
      docs: link(DISCOVERY_PATHS.docs),
      reliability: link(DISCOVERY_PATHS.reliability),
      versioning: link(DISCOVERY_PATHS.versioning),
      mcp: link(DISCOVERY_PATHS.mcp),
      api_catalog: link(DISCOVERY_PATHS.apiCatalog),
      ard: link(DISCOVERY_PATHS.ard),
      llms_txt: link(DISCOVERY_PATHS.llms),
      oembed: link(DISCOVERY_PATHS.oembed),
    },
    surfaces: {
      v1: routesOf(routes, 'v1', baseUrl),
      permalinks: routesOf(routes, 'permalink', baseUrl),
      legacy: routesOf(routes, 'legacy', baseUrl),
      discovery: routesOf(routes, 'discovery', baseUrl),
      mcp: {
        href: link(DISCOVERY_PATHS.mcp),
        transport: 'streamable-http',
        tools: routes.flatMap((r) => (r.decl.mcpTool ? [r.decl.mcpTool] : [])),
      },
    },
    authentication: {
      required: false,
      optional_scheme: 'Bearer',
      honoured_on: routes.filter((r) => r.decl.keyAware).map((r) => r.decl.path),
    },
    versioning: {
      current_major_version: LIFECYCLE.currentMajorVersion,
      supported_versions: [...LIFECYCLE.supportedVersions],
      minimum_support_window_months: LIFECYCLE.minimumSupportWindowMonths,
      versioning_scheme: 'url-path',
      policy: link(LIFECYCLE.policyPath),
      deprecated_routes: deprecatedOperations(routes).map(({ method, path, ...rest }) => ({
        route: `${method} ${path}`,
        path,
        ...rest,
      })),
      deprecated_parameters: deprecatedParameters(routes),
    },
    health: opts.health ?? 'unknown',
  };
}
