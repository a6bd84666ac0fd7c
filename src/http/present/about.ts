// The account-facts document in its representations, with the headers every read carries.
import type { AboutRead } from '../../domain/about.ts';
import type { CacheStatus } from '../../domain/sourced.ts';
import { isHandle } from '../../domain/handles.ts';
import type { Rendered } from '../../contract/rendered.ts';
import { CONTENT_TYPES, type Representation } from '../../contract/representation.ts';
import { renderAboutMarkdown } from '../../render/markdown/about.ts';
import { aboutJson } from '../../render/json.ts';
import { renderHtmlPage } from '../../render/html.ts';
import { charCount } from '../../render/budget.ts';
import { headerSafe } from './common.ts';
import { Problem } from '../../problems/problem.ts';
import { browseCacheControl } from './lists.ts';

export interface AboutPresentContext {
  baseUrl: string;
  full: boolean;
  cache: CacheStatus;
  cacheTtlS: number;
  keyStatus: string;
  keyed: boolean;
  /** At most this many characters of Markdown: the facts do not give way, so a budget they miss is refused. */
  budget?: number;
}

export function presentAbout(read: AboutRead, rep: Representation, ctx: AboutPresentContext): Rendered {
  const markdown = renderAboutMarkdown(read, { baseUrl: ctx.baseUrl, full: ctx.full });
  const size = charCount(markdown);
  if (ctx.budget !== undefined && size > ctx.budget)
    throw new Problem(
      'invalid_budget',
      `The account facts take ${size} characters; ask for a budget of at least ${size}.`,
    );
  const handle = read.facts.handle;
  const body =
    rep === 'json'
      ? JSON.stringify(aboutJson(read, markdown))
      : rep === 'html'
        ? renderHtmlPage(markdown, {
            title: `About @${handle}`,
            baseUrl: ctx.baseUrl,
            ...(isHandle(handle) ? { canonicalUrl: `${ctx.baseUrl}/${handle}/about` } : {}),
          })
        : markdown;
  return {
    body,
    contentType: CONTENT_TYPES[rep],
    headers: {
      vary: 'Accept, Authorization',
      'cache-control': browseCacheControl(ctx.keyed, ctx.cacheTtlS, ctx.cache),
      'x-source': read.source,
      'x-cache': ctx.cache,
      'x-api-key-status': ctx.keyStatus,
      ...(read.warnings.length ? { 'x-warnings': headerSafe(read.warnings.join('; ')) } : {}),
    },
  };
}
