// `since` / `until` as readers write them: an ISO 8601 date (UTC midnight) or date-time (UTC unless it carries an
// offset), read the same way by the routes and by the commands that work without the service.

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Milliseconds since the epoch, or undefined when `text` is not a real ISO 8601 date or date-time. */
export function parseInstant(text: string): number | undefined {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 2006 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, Number(frac.padEnd(3, '0').slice(0, 3)));
  // Date.UTC rolls 2026-02-30 over into March: a rolled date is not the date that was written.
  if (new Date(local).getUTCDate() !== day) return undefined;
  let offsetMin = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const zm = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    const [zh, zmin] = [Number(zm[2]), Number(zm[3])];
    if (zh > 14 || zmin > 59) return undefined;
    offsetMin = (zm[1] === '-' ? -1 : 1) * (zh * 60 + zmin);
  }
  return local - offsetMin * 60_000;
}
