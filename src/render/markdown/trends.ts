// The trend list as Markdown: one numbered line per trend, linked to where this service reads it.
import type { TrendsRead } from '../../domain/trends.ts';
import { trendPath } from '../../domain/trends.ts';
import { escapeLine, link } from './escape.ts';
import { count } from './format.ts';

export function renderTrendsMarkdown(read: TrendsRead, ctx: { baseUrl: string; ttlS: number }): string {
  const parts = ['# Trends on X'];
  if (read.trends.length === 0) parts.push('*No trends listed right now.*');
  else {
    parts.push(
      read.trends
        .map((t, i) => {
          const bits = [link(t.name, ctx.baseUrl + trendPath(t))];
          if (t.posts !== undefined) bits.push(count(t.posts, 'post'));
          if (t.context) bits.push(escapeLine(t.context));
          if (t.related?.length) bits.push(`also ${t.related.map((r) => escapeLine(r)).join(', ')}`);
          return `${i + 1}. ${bits.join(' · ')}`;
        })
        .join('\n'),
    );
  }
  const counted = read.trends.some((t) => t.posts !== undefined);
  parts.push(
    `*X's trending list for logged-out readers, via ${escapeLine(read.source)}; refreshed every ${ctx.ttlS} s.` +
      (counted ? '*' : ' This source gives no post counts.*'),
  );
  return parts.join('\n\n') + '\n';
}
