// `since` / `until`: an ISO 8601 date (UTC midnight) or date-time (UTC unless it carries an offset). The window
// is since ≤ time < until, as X's own search operators read it.
import { z } from 'zod';
import { InputRefusal } from '../refusal.ts';
import { parseInstant } from '../../domain/instants.ts';

export { parseInstant };

const bound = (meaning: string) =>
  z
    .string({ error: 'invalid_date' })
    .max(40, { error: 'invalid_date' })
    .refine((v) => parseInstant(v) !== undefined, { error: 'invalid_date' })
    .optional()
    .describe(
      `${meaning} ISO 8601 date (2026-03-01, read as UTC midnight) or date-time (2026-03-01T12:00:00Z; UTC unless it carries an offset).`,
    );

export const sinceParam = bound('Only posts at or after this time:');
export const untilParam = bound('Only posts before this time (exclusive):');

/** A read's date window, as instants; both ends optional. */
export interface DateWindow {
  sinceMs?: number;
  untilMs?: number;
}

/** The validated pair; since must come before until. */
export function windowOf(since: string | undefined, until: string | undefined): DateWindow | undefined {
  if (since === undefined && until === undefined) return undefined;
  const w: DateWindow = {};
  if (since !== undefined) w.sinceMs = parseInstant(since);
  if (until !== undefined) w.untilMs = parseInstant(until);
  if ((since !== undefined && w.sinceMs === undefined) || (until !== undefined && w.untilMs === undefined)) {
    throw new InputRefusal('invalid_date', '`since` and `until` take an ISO 8601 date or date-time.');
  }
  if (w.sinceMs !== undefined && w.untilMs !== undefined && w.sinceMs >= w.untilMs) {
    throw new InputRefusal('invalid_date', '`since` must be earlier than `until`.');
  }
  return w;
}

/** The window as the read models carry it: ISO 8601 UTC strings. */
export function isoWindow(w: DateWindow): { since?: string; until?: string } {
  return {
    ...(w.sinceMs !== undefined ? { since: new Date(w.sinceMs).toISOString() } : {}),
    ...(w.untilMs !== undefined ? { until: new Date(w.untilMs).toISOString() } : {}),
  };
}

/** X search operators for the window (Unix seconds; until_time is exclusive). */
export function windowOperators(w: DateWindow | undefined): string {
  if (!w) return '';
  const ops: string[] = [];
  if (w.sinceMs !== undefined) ops.push(`since_time:${Math.floor(w.sinceMs / 1000)}`);
  if (w.untilMs !== undefined) ops.push(`until_time:${Math.ceil(w.untilMs / 1000)}`);
  return ops.join(' ');
}
