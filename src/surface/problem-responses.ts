// Problem responses of an OpenAPI operation, grouped by status with the catalog codes each can carry.
import { CATALOG, type CatalogCode } from '../problems/catalog.ts';

export const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };

export const HEADER_REFS = {
  Deprecation: { $ref: '#/components/headers/Deprecation' },
  Sunset: { $ref: '#/components/headers/Sunset' },
  Link: { $ref: '#/components/headers/Link' },
};

/** Problem responses grouped by status, each naming its catalog codes (`x-problem-codes`). */
export function problemResponses(codes: CatalogCode[], deprecated = false): Record<string, unknown> {
  const byStatus = new Map<number, CatalogCode[]>();
  for (const code of new Set(codes)) {
    const entry = CATALOG[code];
    byStatus.set(entry.status, [...(byStatus.get(entry.status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${CATALOG[c].title}`).join('; '),
      ...(deprecated ? { headers: HEADER_REFS } : {}),
      content: { 'application/problem+json': { schema: PROBLEM_REF }, 'application/json': { schema: PROBLEM_REF } },
      'x-problem-codes': codes,
    };
  }
  return out;
}
