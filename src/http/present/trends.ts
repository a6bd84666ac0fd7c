// Turns a TrendsRead into the negotiated representation and the 200 headers of the trends route.
import type { TrendsRead } from '../../domain/trends.ts';
import type { CacheStatus } from '../../domain/sourced.ts';
import { renderTrendsMarkdown } from '../../render/markdown/trends.ts';
import { trendsJson } from '../../render/trends-json.ts';
import { renderHtmlPage } from '../../render/html.ts';
import { CONTENT_TYPES, type Representation } from '../../contract/representation.ts';
import type { Rendered } from '../../contract/rendered.ts';
import { budgetWarning, headerSafe, publicCacheControl, type BudgetRequest } from './common.ts';
import { appendClosing, fitBudget } from '../../render/budget.ts';
import type { GiveWay } from '../../domain/give-way.ts';
import { Problem } from '../../problems/problem.ts';

/** Under a budget the trailing trends give way (the list is ranked); the closing line names how many. */
function fitted(read: TrendsRead, ctx: { baseUrl: string; ttlS: number }, budget?: BudgetRequest) {
  const render = (r: TrendsRead, closing?: string) => appendClosing(renderTrendsMarkdown(r, ctx), closing);
  if (!budget) return { read, markdown: render(read) };
  const n = read.trends.length;
  const giveWay: GiveWay<TrendsRead> = {
    units: n,
    drop: (k) => ({
      read: { ...read, trends: read.trends.slice(0, n - k) },
      leftOut: k > 0 ? [`${k} ${k === 1 ? 'trend' : 'trends'}`] : [],
    }),
  };
  const got = fitBudget(giveWay, render, budget.chars, budget.fullUrl);
  if (!got.fits) {
    throw new Problem('invalid_budget', `The trends page alone takes ${got.needed} characters; ask for at least that.`);
  }
  const warnings = got.leftOut.length ? [...read.warnings, budgetWarning(budget.chars, got.leftOut)] : read.warnings;
  return { read: { ...got.read, warnings }, markdown: got.markdown };
}

export function presentTrends(
  whole: TrendsRead,
  rep: Representation,
  ctx: { baseUrl: string; cache: CacheStatus; ttlS: number; version: string; budget?: BudgetRequest },
): Rendered {
  const { read, markdown } = fitted(whole, ctx, ctx.budget);
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
