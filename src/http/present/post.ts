// Turns a PostRead into the negotiated representation plus the posts route's 200 headers.
import type { PostRead, PostReadOptions } from '../../domain/reads.ts';
import { postCount } from '../../domain/read-post.ts';
import { isEarlierVersion, latestVersionId, type Post } from '../../domain/models.ts';
import type { CacheStatus } from '../../domain/sourced.ts';
import { renderPostMarkdown } from '../../render/markdown/thread.ts';
import { renderPostObsidian } from '../../render/obsidian.ts';
import { postJson } from '../../render/json.ts';
import { renderHtmlPage } from '../../render/html.ts';
import { postPreview } from '../../render/link-preview.ts';
import type { Representation } from '../negotiate.ts';
import type { Rendered } from '../rendered.ts';
import { CONTENT_TYPES, headerSafe, publicCacheControl } from './common.ts';

/** RFC 5829 version relations for an edited post: where the latest and the previous versions are read here. */
function versionLinks(p: Post, baseUrl: string): { link?: string } {
  const versions = p.edits?.versions;
  if (!versions) return {};
  const at = (id: string) => `<${baseUrl}/${encodeURIComponent(p.author.handle)}/status/${id}>`;
  const links: string[] = [];
  if (isEarlierVersion(p)) links.push(`${at(latestVersionId(p))}; rel="latest-version"`);
  const i = versions.indexOf(p.id);
  if (i > 0) links.push(`${at(versions[i - 1]!)}; rel="predecessor-version"`);
  return links.length ? { link: links.join(', ') } : {};
}

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
        preview: postPreview(p, permalink),
      });
      break;
    default:
      body = markdown;
  }
  return {
    body,
    contentType: CONTENT_TYPES[rep],
    headers: {
      ...versionLinks(p, ctx.baseUrl),
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
