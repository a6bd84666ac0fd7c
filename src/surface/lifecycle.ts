// The versioning policy as data: x-api-lifecycle in OpenAPI, `versioning` in /api and the /docs/versioning table
// are all built here from LIFECYCLE and the deprecated route declarations.
import { LIFECYCLE } from '../contract/lifecycle.ts';
import type { RouteDef } from '../contract/route-decl.ts';

export interface DeprecatedOperation {
  operationId: string;
  method: 'GET';
  path: string;
  deprecated: string;
  sunset: string;
  successor?: string;
  successor_parameter?: string;
  successors?: Record<string, string>;
}

export const DEPRECATION_SIGNALS = [
  'Deprecation response header (RFC 9745 structured date, e.g. @1789430400)',
  'Sunset response header (RFC 8594 HTTP-date)',
  'Link rel="deprecation" to the versioning policy page',
  'Link rel="sunset" to the versioning policy page',
  'Link rel="successor-version" to the replacing route, when the request names one',
  'OpenAPI operation deprecated: true with x-successor-version or x-successor-version-map',
];

export function deprecatedOperations(routes: readonly RouteDef[]): DeprecatedOperation[] {
  return routes.flatMap(({ decl }) => {
    const dep = decl.deprecated;
    if (!dep) return [];
    const entry: DeprecatedOperation = {
      operationId: decl.operationId,
      method: 'GET',
      path: decl.path,
      deprecated: LIFECYCLE.deprecationDate,
      sunset: LIFECYCLE.sunsetDate,
    };
    if (dep.successor) entry.successor = dep.successor;
    if (dep.successorParameter && dep.successors) {
      entry.successor_parameter = dep.successorParameter;
      entry.successors = { ...dep.successors };
    }
    return [entry];
  });
}

export function lifecyclePolicy(routes: readonly RouteDef[], baseUrl: string) {
  return {
    current_major_version: LIFECYCLE.currentMajorVersion,
    supported_versions: [...LIFECYCLE.supportedVersions],
    minimum_support_window_months: LIFECYCLE.minimumSupportWindowMonths,
    versioning_scheme: 'url-path',
    policy_url: `${baseUrl}${LIFECYCLE.policyPath}`,
    deprecation_signals: DEPRECATION_SIGNALS,
    deprecated_operations: deprecatedOperations(routes),
  };
}
