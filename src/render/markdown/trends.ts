// The trend list as Markdown: one numbered line per trend, linked to where this service reads it (a story trend to
// X's page of it).
import type { TrendsRead } from '../../domain/trends.ts';
import { trendPath } from '../../domain/trends.ts';
import { escapeLine, link } from './escape.ts';
import { count } from './format.ts';

export function renderTrendsMarkdown(read: TrendsRead, ctx: { baseUrl: string; ttlS: number }): string {
  const parts = ['# Trends on X'];
  const counted = read.trends.some((t) => t.posts !== undefined);
  if (read.trends.length === 0) parts.push('*No trends listed right now.*');
  else {
    parts.push(
      read.trends
        .map((t, i) => {
          // A story trend's name is a headline: X's page of it, not a search for its words.
          const bits = [link(t.name, t.url ?? ctx.baseUrl + trendPath(t))];
          // In a list where X counts some trends, the ones it does not count say so rather than look forgotten.
          if (t.posts !== undefined) bits.push(count(t.posts, 'post'));
          else if (counted) bits.push('posts not counted');
          if (t.url) bits.push('story');
          if (t.context) bits.push(escapeLine(t.context));
          if (t.related?.length) bits.push(`also ${t.related.map((r) => escapeLine(r)).join(', ')}`);
          return `${i + 1}. ${bits.join(' · ')}`;
        })
        .join('\n'),
    );
  }
  parts.push(
    `*X's trending list, via ${escapeLine(read.source)}; refreshed every ${ctx.ttlS} s.` +
      (counted || read.trends.length === 0 ? '*' : ' This source gives no post counts.*'),
  );
  return parts.join('\n\n') + '\n';
}
