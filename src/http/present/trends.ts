// Turns a TrendsRead into the negotiated representation and the 200 headers of the trends route.
import type { TrendsRead } from '../../domain/trends.ts';
import type { CacheStatus } from '../../domain/sourced.ts';
import { renderTrendsMarkdown } from '../../render/markdown/trends.ts';
import { trendsJson } from '../../render/trends-json.ts';
import { renderHtmlPage } from '../../render/html.ts';
import { CONTENT_TYPES, type Representation } from '../../contract/representation.ts';
import type { Rendered } from '../../contract/rendered.ts';
import { headerSafe, publicCacheControl } from './common.ts';

export function presentTrends(
  read: TrendsRead,
  rep: Representation,
  ctx: { baseUrl: string; cache: CacheStatus; ttlS: number; version: string },
): Rendered {
  const markdown = renderTrendsMarkdown(read, ctx);
  const body =
    rep === 'json'
      ? JSON.stringify(trendsJson(read, markdown, ctx.ttlS))
      : rep === 'html'
        ? renderHtmlPage(markdown, {
            title: 'Trends on X',
            baseUrl: ctx.baseUrl,
            canonicalUrl: `${ctx.baseUrl}/trends`,
          })
        : markdown;
  return {
    body,
    contentType: CONTENT_TYPES[rep],
    headers: {
      vary: 'Accept',
      'cache-control': publicCacheControl(ctx.ttlS, ctx.cache),
      'x-source': read.source,
      'x-cache': ctx.cache,
      'x-converter': `threadmark/${ctx.version} ${rep}`,
      'x-result-count': String(read.trends.length),
      'x-warnings': read.warnings.length ? headerSafe(read.warnings.join('; ')) : 'none',
    },
  };
}
