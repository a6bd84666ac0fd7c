// Where each discovery surface lives. Every generator links through these, so a move is one edit.
export const DISCOVERY_PATHS = {
  api: '/api',
  openapi: '/openapi.json',
  apiCatalog: '/.well-known/api-catalog',
  ard: '/.well-known/ard.json',
  llms: '/llms.txt',
  docs: '/docs',
  reliability: '/docs/reliability',
  versioning: '/docs/versioning',
  mcp: '/mcp',
  oembed: '/oembed',
} as const;

/** Absolute URL of a service path under the configured public base. */
export function absolute(baseUrl: string, path: string): string {
  return `${baseUrl}${path}`;
}
