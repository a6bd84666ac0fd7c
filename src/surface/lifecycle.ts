// The versioning policy as data: x-api-lifecycle in OpenAPI, `versioning` in /api and the /docs/versioning table
// are all built here from LIFECYCLE and the deprecated route declarations.
import { LIFECYCLE, PARAMETER_LIFECYCLE } from '../contract/lifecycle.ts';
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

/** A query parameter kept working under its successor's name on one operation. */
export interface DeprecatedParameter {
  operationId: string;
  path: string;
  parameter: string;
  successor_parameter: string;
  deprecated: string;
  sunset: string;
}

export function deprecatedParameters(routes: readonly RouteDef[]): DeprecatedParameter[] {
  return routes.flatMap(({ decl }) =>
    (decl.deprecatedParams ?? []).map((p) => ({
      operationId: decl.operationId,
      path: decl.path,
      parameter: p.name,
      successor_parameter: p.successor,
      deprecated: PARAMETER_LIFECYCLE.deprecationDate,
      sunset: PARAMETER_LIFECYCLE.sunsetDate,
    })),
  );
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
    deprecated_parameters: deprecatedParameters(routes),
  };
}
