// Query parameters and paging shared by the list routes (profile, followers, following, search, browse).
import { z } from 'zod';
import { browseFormat, cursorParam, flag, limitParam, pageParam } from '../params/common.ts';
import type { CatalogCode } from '../../problems/catalog.ts';
import type { Position } from '../../domain/lists.ts';
import type { ReadPolicy } from '../../domain/sourced.ts';
import type { CursorCodec, CursorScope } from '../../providers/cursors.ts';

export const listShape = {
  cursor: cursorParam,
  page: pageParam,
  limit: limitParam,
  format: browseFormat,
  full: flag,
  nocache: flag.describe('Bypass the application cache; charged against the live-lookup quota.'),
};

export const listQuery = z.object(listShape);
export type ListQuery = z.output<typeof listQuery>;

export const LIST_ERRORS: CatalogCode[] = ['invalid_format', 'invalid_page', 'invalid_cursor', 'invalid_flag', 'invalid_key', 'not_found', 'upstream_error'];

export const DEFAULT_LIMIT = 20;

/** `cursor` takes precedence over `page`. */
export function positionOf(q: ListQuery, codec: CursorCodec, scope: CursorScope, policy: ReadPolicy): Position {
  const limit = q.limit ?? DEFAULT_LIMIT;
  if (q.cursor !== undefined) return { cursor: codec.decode(scope, q.cursor), page: 1, limit, policy };
  return { page: q.page ?? 1, limit, policy };
}

/** The same route with the next cursor (and the caller's limit and full), for `Continue →`. */
export function continueUrl(baseUrl: string, path: string, keep: Record<string, string | undefined>, cursor: string): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(keep)) if (v !== undefined) qs.set(k, v);
  qs.set('cursor', cursor);
  return `${baseUrl}${path}?${qs.toString()}`;
}

