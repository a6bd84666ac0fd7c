/**
 * Upstream times come as unix seconds, ISO strings or X's legacy "Wed Oct 10 20:19:24 +0000 2018";
 * V8's Date parses all of these. Returns ISO 8601 UTC, or undefined when nothing parseable was given.
 */
export function toIso(value: string | number | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const ms = typeof value === 'number' ? (value < 1e12 ? value * 1000 : value) : Date.parse(value);
  if (!Number.isFinite(ms)) return undefined;
  return new Date(ms).toISOString();
}

/** X avatars come in a 48px "_normal" size by default; the 200px variant is the useful one. */
export function largerAvatar(url: string | null | undefined): string | undefined {
  return url ? url.replace('_normal.', '_200x200.') : undefined;
}
