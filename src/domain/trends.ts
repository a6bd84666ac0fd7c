// The trends read: X's current trending topics, each linked to where this service reads it (a hashtag's or
// cashtag's page, else a search), kept only briefly because trends move by the minute.
import type { Trend } from './models.ts';
import type { ReadPolicy, Sourced } from './sourced.ts';
import { isTag, tagPath } from './tags.ts';

/** How long a trend list is kept: short, since trends change within minutes, long enough to spare the upstream. */
export const TRENDS_TTL_S = 120;
/** Trends one read lists at most (FxTwitter gives up to 50). */
export const MAX_TRENDS = 50;

export interface TrendSource {
  trends(policy: ReadPolicy): Promise<Sourced<Trend[]>>;
}

export interface TrendsRead {
  trends: Trend[];
  source: string;
  warnings: string[];
}

export async function readTrends(
  src: TrendSource,
  policy: ReadPolicy,
): Promise<{ read: TrendsRead; cache: Sourced<unknown>['cache'] }> {
  const got = await src.trends(policy);
  return {
    read: { trends: got.value.slice(0, MAX_TRENDS), source: got.source, warnings: got.warnings },
    cache: got.cache,
  };
}

/** Where a trend is read here: a hashtag's or cashtag's page, else the search for its words. */
export function trendPath(t: Trend): string {
  const name = t.name.trim();
  if (name.startsWith('#') && isTag('hashtag', name.slice(1))) return tagPath('hashtag', name.slice(1));
  if (name.startsWith('$') && isTag('cashtag', name.slice(1))) return tagPath('cashtag', name.slice(1));
  return `/search?${new URLSearchParams({ q: name }).toString()}`;
}
