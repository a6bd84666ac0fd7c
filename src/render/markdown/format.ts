// Small, locale-independent formatting of times, counts and durations (output must not vary by host locale).

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

function parse(iso: string | undefined): Date | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** `2026-01-01 00:01 UTC`; an unparsable time is returned as given (callers escape it). */
export function formatTime(iso: string): string {
  const d = parse(iso);
  if (!d) return iso;
  return `${formatDate(iso)} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())} UTC`;
}

/** `2026-01-01`. */
export function formatDate(iso: string): string {
  const d = parse(iso);
  if (!d) return iso;
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** Full ISO 8601 (`2026-01-01T00:01:00.000Z`), normalised to UTC. */
export function isoTime(iso: string): string {
  return parse(iso)?.toISOString() ?? iso;
}

/** `1 like`, `3 likes`. */
export function count(n: number, singular: string, plural = singular + 's'): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** `0:42`, `12:05`, `1:02:03`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = pad2(s % 60);
  return h > 0 ? `${h}:${pad2(m)}:${sec}` : `${m}:${sec}`;
}

/** `60%`, `33.3%`. */
export function formatPercent(p: number): string {
  const r = Math.round(p * 10) / 10;
  return `${Number.isInteger(r) ? r : r.toFixed(1)}%`;
}

/**
 * Cut plain text to at most `max` characters, preferring a word boundary near the end and never splitting a
 * surrogate pair; appends `…` when something was cut.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const space = text.lastIndexOf(' ', end);
  if (space > max * 0.6) end = space;
  return text.slice(0, end).trimEnd() + '…';
}
