// GET /.well-known/api-catalog: an RFC 9727 API catalog, i.e. an RFC 9264 JSON linkset.
import { DISCOVERY_PATHS, absolute } from './paths.ts';

/** RFC 9727 registers its profile URI for linksets that are API catalogs. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
export const API_CATALOG_MEDIA_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;
export const OPENAPI_MEDIA_TYPE = 'application/vnd.oai.openapi+json;version=3.1';

export function buildApiCatalog(baseUrl: string) {
  const link = (path: string) => absolute(baseUrl, path);
  return {
    linkset: [
      {
        anchor: link(DISCOVERY_PATHS.api),
        'service-desc': [{ href: link(DISCOVERY_PATHS.openapi), type: OPENAPI_MEDIA_TYPE }],
        'service-doc': [{ href: link(DISCOVERY_PATHS.docs), type: 'text/html' }],
        'service-meta': [{ href: link(DISCOVERY_PATHS.ard), type: 'application/json' }],
        status: [{ href: link(DISCOVERY_PATHS.api), type: 'application/json' }],
      },
    ],
  };
}
