// X's trending Explore timeline (GenericTimelineById with the `trending` timeline id), in the shapes of twscrape's
// captures tests/mocked-data/raw_trends.json: the 2025 answer lists `trend-<name>` items whose trend_metadata holds
// the context ("Trending in Sports") and the count ("1,699 posts"); the 2026 answers lead with a `frame-` item (an
// event widget, nothing to list) and a `stories-` module of AI-written stories (`is_ai_trend`, their age, category and
// count in `social_context.text`, a `twitter://trending/<id>` link), with plain topic items after it or none at all.
import type { Trend } from '../../domain/models.ts';
import { ProviderError } from '../types.ts';
import { collectEntries, itemContents, missing } from './parse.ts';
import type { XEnvelope, XItemContent, XTimelineTrend } from './wire.ts';

/** The id of the `trending` Explore timeline (twscrape api.py `trends_raw`). */
export const TRENDING_TIMELINE_ID = 'VGltZWxpbmU6DAC2CwABAAAACHRyZW5kaW5nAAA';

const text = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() !== '' ? v.replace(/\s+/g, ' ').trim().slice(0, max) : undefined;

const MULTIPLIER: Record<string, number> = { '': 1, K: 1e3, M: 1e6, B: 1e9 };

/**
 * The count X shows, "1,699 posts", "37.6K posts" or "4M posts", as a number; undefined for anything else.
 * Above ten thousand X rounds what it shows, and that rounded figure is the one kept: X gives no other.
 */
export function postCount(s: string): number | undefined {
  const m = /^([0-9]{1,3}(?:,[0-9]{3})*|[0-9]+)(?:\.([0-9]{1,2}))?([KMB]?) posts?$/i.exec(s.trim());
  if (!m) return undefined;
  const n = Number(`${m[1]!.replace(/,/g, '')}.${m[2] ?? '0'}`) * MULTIPLIER[m[3]!.toUpperCase()]!;
  return Number.isSafeInteger(Math.round(n)) ? Math.round(n) : undefined;
}

/** X's page of a story trend: its app link `twitter://trending/<id>` on the web. */
function storyUrl(t: XTimelineTrend): string | undefined {
  const m = /^twitter:\/\/trending\/([0-9]{1,20})$/.exec(t.trend_url?.url ?? t.trend_metadata?.url?.url ?? '');
  return m ? `https://x.com/i/trending/${m[1]}` : undefined;
}

/** The parts of a " · "-joined line that are not its count, and the count. */
function split(line: string | undefined): { rest: string[]; posts?: number } {
  const out: { rest: string[]; posts?: number } = { rest: [] };
  for (const part of line?.split('·') ?? []) {
    const p = text(part, 200);
    if (!p) continue;
    const n = postCount(p);
    if (n !== undefined && out.posts === undefined) out.posts = n;
    else out.rest.push(p);
  }
  return out;
}

function parseTrend(t: XTimelineTrend): Trend | undefined {
  const name = text(t.name, 200);
  if (!name) return undefined;
  const rank =
    typeof t.rank === 'number' || (typeof t.rank === 'string' && /^[0-9]{1,4}$/.test(t.rank)) ? Number(t.rank) : NaN;
  const meta = split(t.trend_metadata?.meta_description);
  const social = split(t.social_context?.text);
  const context = text(
    [t.trend_metadata?.domain_context, ...meta.rest, ...social.rest].filter(Boolean).join(' · '),
    200,
  );
  const posts = meta.posts ?? social.posts;
  const related = (t.grouped_trends ?? []).flatMap((g) => {
    const n = text(g?.name, 200);
    return n ? [n] : [];
  });
  const url = t.is_ai_trend ? storyUrl(t) : undefined;
  return {
    name,
    ...(Number.isInteger(rank) && rank > 0 ? { rank } : {}),
    ...(context ? { context } : {}),
    ...(posts !== undefined ? { posts } : {}),
    ...(related.length > 0 ? { related } : {}),
    ...(url ? { url } : {}),
  };
}

const asTrend = (ic: XItemContent): XTimelineTrend | undefined => {
  const t = ic as XTimelineTrend;
  return t.itemType === 'TimelineTrend' || t.__typename === 'TimelineTrend' ? t : undefined;
};

/** The trends of the answer in X's order (stories first where X puts them first), each named once. */
export function parseTrendsTimeline(env: XEnvelope): Trend[] {
  const tl = env.data?.timeline?.timeline;
  if (!tl) throw missing(env, 'trends', new ProviderError('x', 'error', 'X answered without a trends timeline'));
  const seen = new Set<string>();
  const out: Trend[] = [];
  for (const e of collectEntries(tl).entries) {
    for (const ic of itemContents(e)) {
      const item = asTrend(ic);
      const trend = item && parseTrend(item);
      if (!trend || seen.has(trend.name.toLowerCase())) continue;
      seen.add(trend.name.toLowerCase());
      out.push(trend);
    }
  }
  return out;
}
