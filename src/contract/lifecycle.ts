// The contract's versioning dates, in one place for headers, OpenAPI and the /api document.
export const LIFECYCLE = {
  currentMajorVersion: 'v1',
  supportedVersions: ['v1'],
  minimumSupportWindowMonths: 12,
  deprecationDate: '2026-09-15',
  /** RFC 9745: Unix seconds of 2026-09-15T00:00:00Z. */
  deprecationHeader: '@1789430400',
  sunsetDate: '2027-09-15',
  /** RFC 8594 HTTP-date. */
  sunsetHeader: 'Wed, 15 Sep 2027 00:00:00 GMT',
  policyPath: '/docs/versioning',
} as const;

/**
 * Dates of a deprecated query parameter: it keeps working until the next major version, which the policy puts no
 * earlier than twelve months after the deprecation.
 */
export const PARAMETER_LIFECYCLE = {
  deprecationDate: '2026-12-01',
  /** RFC 9745: Unix seconds of 2026-12-01T00:00:00Z. */
  deprecationHeader: '@1796083200',
  sunsetDate: '2027-12-01',
  /** RFC 8594 HTTP-date. */
  sunsetHeader: 'Wed, 01 Dec 2027 00:00:00 GMT',
} as const;

/** The dates a deprecation signal carries: a whole route's (LIFECYCLE) or one parameter's. */
export interface DeprecationDates {
  deprecationHeader: string;
  sunsetHeader: string;
}
