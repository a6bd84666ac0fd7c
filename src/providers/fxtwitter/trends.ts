// FxTwitter's /2/trends: X's logged-out Explore "trending" timeline, each TimelineTrend as {name, rank, context,
// grouped_topics} (FxEmbed packages/atmosphere/src/providers/twitter/trends.ts). It passes no post counts.
import type { Trend } from '../../domain/models.ts';

interface FxTrend {
  name?: unknown;
  rank?: unknown;
  context?: unknown;
  grouped_topics?: unknown;
}

const text = (v: unknown, max: number) =>
  typeof v === 'string' && v.trim() !== '' ? v.replace(/\s+/g, ' ').trim().slice(0, max) : undefined;

function parseTrend(t: FxTrend): Trend | undefined {
  const name = text(t.name, 200);
  if (!name) return undefined;
  const rank = typeof t.rank === 'string' && /^[0-9]{1,4}$/.test(t.rank) ? Number(t.rank) : undefined;
  const context = text(t.context, 200);
  const related = Array.isArray(t.grouped_topics)
    ? t.grouped_topics.flatMap((g: unknown) => {
        const n = text((g as { name?: unknown } | null)?.name, 200);
        return n ? [n] : [];
      })
    : [];
  return {
    name,
    ...(rank !== undefined ? { rank } : {}),
    ...(context ? { context } : {}),
    ...(related.length > 0 ? { related } : {}),
  };
}

/** The trends of an answer, or undefined when it has no trends list at all. */
export function parseTrends(body: unknown): Trend[] | undefined {
  const list = (body as { trends?: unknown } | undefined)?.trends;
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((t: unknown) => (t && typeof t === 'object' ? (parseTrend(t as FxTrend) ?? []) : []));
}
