// Query parameters shared by the list routes (profile, followers, following, search, browse); paging itself is
// the domain's (domain/paging.ts).
import { z } from 'zod';
import { browseFormat, budgetParam, cursorParam, flag, limitParam, pageParam } from './common.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import type { PageInput } from '../../domain/paging.ts';

export const listShape = {
  cursor: cursorParam,
  page: pageParam,
  limit: limitParam,
  format: browseFormat,
  full: flag,
  nocache: flag.describe('Bypass the application cache; charged against the live-lookup quota.'),
  budget: budgetParam,
};

export const listQuery = z.object(listShape);
export type ListQuery = z.output<typeof listQuery>;

export const LIST_ERRORS: CatalogCode[] = [
  'invalid_format',
  'invalid_budget',
  'invalid_page',
  'invalid_cursor',
  'invalid_flag',
  'invalid_key',
  'not_found',
  'upstream_error',
];

/** The paging part of a list query, as the use cases take it. */
export function pageInput(q: ListQuery): PageInput {
  return { cursor: q.cursor, page: q.page, limit: q.limit };
}

/** The same route with the next cursor (and the caller's limit and full), for `Continue →`. */
export function continueUrl(
  baseUrl: string,
  path: string,
  keep: Record<string, string | undefined>,
  cursor: string,
): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(keep)) if (v !== undefined) qs.set(k, v);
  qs.set('cursor', cursor);
  return `${baseUrl}${path}?${qs.toString()}`;
}
