// Pieces every simulated X GraphQL operation answers with: envelopes, X's error shape, descending sort indices,
// page sizes and the offset cursors that, like X's, keep coming on the last page.
import { decodeCursor, encodeCursor } from '../cursor.ts';
import type { SimCorpus, SimTimelineEntry } from '../corpus-types.ts';
import type { XEntry, XEnvelope, XInstruction } from '../../src/providers/x/wire.ts';
import { json, type SimResponse } from './types.ts';
import { cursorEntry, tweetEntry, xRepost, xTweetResult } from './x-wire.ts';

export type Vars = Record<string, unknown>;

export const ok = (body: XEnvelope) => json(200, body);
export const withHeaders = (r: SimResponse, h: Record<string, string>): SimResponse => ({
  ...r,
  headers: { ...r.headers, ...h },
});
export const errorsOnly = (status: number, code: number, message: string, data: unknown = {}) =>
  json(status, { errors: [{ code, message, kind: 'Validation', extensions: { code } }], data });

/** Descending sort indices, as X orders entries. */
export const sortIndex = (i: number) => (7_000_000_000_000_000_000n - BigInt(i)).toString();

export function count(v: Vars, fallback: number): number {
  const n = Number(v.count ?? fallback);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 100) : fallback;
}

/** A string variable as X reads it: numbers are accepted in its place, anything else counts as absent. */
export function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
}

export function addEntries(entries: XEntry[]): XInstruction {
  return { type: 'TimelineAddEntries', entries };
}

/**
 * X keeps handing out a bottom cursor on the last page, which then answers an empty page; the simulator
 * does the same so clients have to notice the end themselves.
 */
export function pageOrEnd<T>(all: T[], n: number, cursor: string | null, scope: string) {
  const offset = cursor === null ? 0 : decodeCursor(scope, cursor);
  if (offset === null) return 'invalid' as const;
  const items = all.slice(offset, offset + n);
  return {
    items,
    offset,
    bottom: encodeCursor(scope, offset + items.length),
    top: encodeCursor(`${scope}:top`, offset),
  };
}

/** One timeline row (an own post or a repost) as X's `tweet-` entry. */
export function timelineEntry(c: SimCorpus, row: SimTimelineEntry, sort: string): XEntry {
  const post = c.posts.get(row.postId)!;
  const reposter = row.repostedBy ? c.users.get(row.repostedBy) : undefined;
  const result = reposter ? xRepost(c, post, reposter, row.at) : xTweetResult(c, post.id)!;
  const id = 'rest_id' in result && result.rest_id ? result.rest_id : post.id;
  return tweetEntry(`tweet-${id}`, sort, result);
}

/** A page of timeline rows (own posts and reposts) as X's tweet- entries, then the top and bottom cursors. */
export function timelineEntries(
  c: SimCorpus,
  page: { items: SimTimelineEntry[]; offset: number; top: string; bottom: string },
): XEntry[] {
  const entries: XEntry[] = page.items.map((row, i) => timelineEntry(c, row, sortIndex(page.offset + i)));
  entries.push(
    cursorEntry('Top', page.top, sortIndex(-1)),
    cursorEntry('Bottom', page.bottom, sortIndex(page.offset + entries.length)),
  );
  return entries;
}
