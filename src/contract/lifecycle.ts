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
