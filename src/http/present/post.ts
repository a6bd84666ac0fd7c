// Turns a PostRead into the negotiated representation plus the posts route's 200 headers.
import type { PostRead, PostReadOptions } from '../../domain/reads.ts';
import { postCount } from '../../domain/read-post.ts';
import type { CacheStatus } from '../../domain/sourced.ts';
import { renderPostMarkdown } from '../../render/markdown/thread.ts';
import { renderPostObsidian } from '../../render/obsidian.ts';
import { postJson } from '../../render/json.ts';
import { renderHtmlPage } from '../../render/html.ts';
import type { Representation } from '../negotiate.ts';
import type { Rendered } from '../rendered.ts';
import { CONTENT_TYPES, headerSafe, publicCacheControl } from './common.ts';

export function presentPost(
  read: PostRead,
  opts: PostReadOptions,
  rep: Representation,
  ctx: { baseUrl: string; cache: CacheStatus; cacheTtlS: number; version: string },
): Rendered {
  const mdOpts = { full: opts.full, userinfo: opts.userinfo, baseUrl: ctx.baseUrl };
  const markdown = rep === 'obsidian' ? '' : renderPostMarkdown(read, mdOpts);
  const p = read.requested;
  const permalink = `${ctx.baseUrl}/${p.author.handle}/status/${p.id}`;
  let body: string;
  switch (rep) {
    case 'obsidian':
      body = renderPostObsidian(read, mdOpts);
      break;
    case 'json':
      body = JSON.stringify(postJson(read, markdown));
      break;
    case 'html':
      body = renderHtmlPage(markdown, {
        title: `${p.author.name} (@${p.author.handle}) on X`,
        baseUrl: ctx.baseUrl,
        canonicalUrl: permalink,
        oembedUrl: `${ctx.baseUrl}/oembed?url=${encodeURIComponent(permalink)}`,
      });
      break;
    default:
      body = markdown;
  }
  return {
    body,
    contentType: CONTENT_TYPES[rep],
    headers: {
      vary: 'Accept',
      'cache-control': publicCacheControl(ctx.cacheTtlS, ctx.cache),
      'x-source': read.source,
      'x-cache': ctx.cache,
      'x-converter': `threadmark/${ctx.version} ${rep}${opts.full ? '+full' : ''}`,
      'x-post-count': String(postCount(read)),
      'x-warnings': read.warnings.length ? headerSafe(read.warnings.join('; ')) : 'none',
    },
  };
}
