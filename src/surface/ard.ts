// GET /.well-known/ard.json: the machine surfaces this deployment publishes, in the shape of an Agentic Resource
// Discovery manifest (an `entries` array, each with identifier, displayName, type and url).
import type { RouteDef } from '../contract/route-decl.ts';
import { OPENAPI_MEDIA_TYPE } from './api-catalog.ts';
import { DISCOVERY_PATHS, absolute } from './paths.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from './service-info.ts';

export interface ArdOptions {
  baseUrl: string;
  version: string;
}

export function buildArd(routes: readonly RouteDef[], opts: ArdOptions) {
  const { baseUrl } = opts;
  const host = new URL(baseUrl).host;
  const urn = (name: string) => `urn:air:${host}:${SERVICE_NAME}-${name}`;
  const link = (path: string) => absolute(baseUrl, path);
  const pathsOf = (surface: string) => routes.filter((r) => r.decl.surface === surface).map((r) => link(r.decl.path));
  const tools = routes.flatMap((r) => (r.decl.mcpTool ? [r.decl.mcpTool] : []));
  return {
    specVersion: '1.0',
    host: { name: SERVICE_NAME, url: baseUrl, version: opts.version, description: SERVICE_DESCRIPTION },
    entries: [
      {
        identifier: urn('rest-v1'),
        displayName: `${SERVICE_NAME} REST API v1`,
        type: 'api',
        // The prefix itself is not a resource; the index lists every v1 route with its URL.
        url: link(DISCOVERY_PATHS.api),
        basePath: '/api/v1',
        description: 'Versioned read-only REST surface (GET only). Markdown by default; format=json for JSON.',
        protocol: 'https',
        specification: { type: OPENAPI_MEDIA_TYPE, url: link(DISCOVERY_PATHS.openapi) },
        endpoints: pathsOf('v1'),
      },
      {
        identifier: urn('permalinks'),
        displayName: `${SERVICE_NAME} permalinks`,
        type: 'api',
        url: baseUrl,
        description: 'Unversioned, stable routes mirroring the platform URL shapes: swap the host of an x.com link.',
        protocol: 'https',
        endpoints: pathsOf('permalink'),
      },
      {
        identifier: urn('mcp'),
        displayName: `${SERVICE_NAME} MCP server`,
        type: 'mcp',
        url: link(DISCOVERY_PATHS.mcp),
        description: 'Model Context Protocol over Streamable HTTP (stateless, POST). Tools return Markdown.',
        protocol: 'mcp',
        transport: 'streamable-http',
        tools,
      },
      {
        identifier: urn('openapi'),
        displayName: `${SERVICE_NAME} OpenAPI description`,
        type: 'openapi',
        url: link(DISCOVERY_PATHS.openapi),
        description: 'OpenAPI 3.1 description of every public route, with x-api-lifecycle.',
        mediaType: OPENAPI_MEDIA_TYPE,
      },
      {
        identifier: urn('llms-txt'),
        displayName: `${SERVICE_NAME} guide for LLM agents`,
        type: 'documentation',
        url: link(DISCOVERY_PATHS.llms),
        description: 'Plain-text guide to reading posts, threads and profiles through the service.',
        mediaType: 'text/markdown',
      },
    ],
  };
}
