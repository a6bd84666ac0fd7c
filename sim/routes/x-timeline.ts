// Pieces every simulated X GraphQL operation answers with: envelopes, X's error shape, descending sort indices,
// page sizes and the offset cursors that, like X's, keep coming on the last page.
import { decodeCursor, encodeCursor } from '../cursor.ts';
import type { XEntry, XEnvelope, XInstruction } from '../../src/providers/x/wire.ts';
import { json, type SimResponse } from './types.ts';

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
