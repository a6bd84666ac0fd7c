// oEmbed 1.0 for the service's own permalinks: which URLs are ours, and the `rich` response for a post or a profile.
import { profilePath, statusPath } from '../../domain/links.ts';
import type { Author, Post } from '../../domain/models.ts';
import { ACCOUNT_ID_RE, HANDLE_RE, STATUS_ID_RE, isReservedPath } from '../../contract/params/common.ts';
import { Problem } from '../../problems/problem.ts';
import { escapeHtml } from '../../render/html.ts';
import { SERVICE_NAME } from '../../surface/service-info.ts';

export type OembedTarget =
  | { kind: 'post'; handle?: string; id: string }
  | { kind: 'profile'; handle: string }
  | { kind: 'profile'; accountId: string };

export const DEFAULT_WIDTH = 550;

/** The platform's own hosts, whose addresses people paste where this service's permalink belongs. */
const X_HOST = /^((www|mobile)\.)?(x|twitter)\.com\.?$/i;

/**
 * Only `${base}/{handle}/status/{id}` and `${base}/{handle}` are ours, and the handle-less shapes X also uses
 * (`${base}/i/status/{id}`, `${base}/i/web/status/{id}`, `${base}/i/user/{id}`); http or https, any letter case of
 * the host, an optional trailing slash; query and fragment ignored. Platform URLs are not accepted: this provider
 * embeds its own pages, and the same post is reachable by swapping the host.
 */
export function parseOembedTarget(raw: string, baseUrl: string): OembedTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Problem('invalid_url', '`url` is not an absolute URL.');
  }
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const foreign = () =>
    new Problem(
      'not_found',
      `No oEmbed for ${url.host}${url.pathname}: only this service's permalinks ${baseUrl}/{handle}/status/{id} (or ${baseUrl}/i/status/{id}) and ${baseUrl}/{handle} (or ${baseUrl}/i/user/{id}) are embeddable.`,
      {
        resolution: X_HOST.test(url.hostname)
          ? `This service embeds its own pages: pass the same path on this service, ${baseUrl}${url.pathname.replace(/\/+$/, '')}.`
          : `Pass a permalink of this service: ${baseUrl}/{handle}/status/{id} for a post, ${baseUrl}/{handle} for a profile.`,
      },
    );
  if (!/^https?:$/.test(url.protocol) || url.host.toLowerCase() !== base.host.toLowerCase()) throw foreign();
  if (basePath && !url.pathname.startsWith(`${basePath}/`)) throw foreign();
  let parts: string[];
  try {
    parts = url.pathname.slice(basePath.length).replace(/\/+$/, '').split('/').slice(1).map(decodeURIComponent);
  } catch {
    throw foreign();
  }
  const handleless = handlelessTarget(parts);
  if (handleless) return handleless;
  const [handle, second, id] = parts;
  if (!handle || isReservedPath(handle) || !HANDLE_RE.test(handle)) throw foreign();
  if (parts.length === 1) return { kind: 'profile', handle };
  if (parts.length === 3 && second === 'status' && id && STATUS_ID_RE.test(id)) return { kind: 'post', handle, id };
  throw foreign();
}

/** X's handle-less permalinks, mirrored by this service: a post by id alone, or an account by its numeric id. */
function handlelessTarget(parts: string[]): OembedTarget | undefined {
  if (parts[0] !== 'i') return undefined;
  const id = parts.at(-1) ?? '';
  const shape = parts.slice(1, -1).join('/');
  if ((shape === 'status' || shape === 'web/status') && STATUS_ID_RE.test(id)) return { kind: 'post', id };
  if (shape === 'user' && ACCOUNT_ID_RE.test(id)) return { kind: 'profile', accountId: id };
  return undefined;
}

export interface OembedOptions {
  baseUrl: string;
  maxwidth?: number;
  maxheight?: number;
  cacheAge: number;
}

export interface OembedResponse {
  version: '1.0';
  type: 'rich';
  title: string;
  html: string;
  width: number;
  height: number;
  author_name: string;
  author_url: string;
  provider_name: string;
  provider_url: string;
  cache_age: number;
}

/** Escaped text with line breaks kept. */
function paragraph(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

/** Rough rendered height: about 7 px per character at 16 px type, 22 px lines, plus the byline. */
function estimateHeight(chars: number, width: number): number {
  const perLine = Math.max(20, Math.floor((width - 32) / 7));
  const lines = Math.max(1, Math.ceil(chars / perLine));
  return 80 + lines * 22;
}

function sized(opts: OembedOptions, chars: number) {
  // oEmbed: the embed must never exceed the consumer's maxwidth / maxheight.
  const width = Math.min(DEFAULT_WIDTH, opts.maxwidth ?? DEFAULT_WIDTH);
  const natural = estimateHeight(chars, width);
  return { width, height: opts.maxheight ? Math.min(natural, opts.maxheight) : natural };
}

function blockquote(cite: string, width: number, inner: string): string {
  return `<blockquote class="threadmark-embed" cite="${escapeHtml(cite)}" style="max-width:${width}px">${inner}</blockquote>`;
}

function common(author: Author, opts: OembedOptions) {
  return {
    version: '1.0' as const,
    type: 'rich' as const,
    author_name: author.name || `@${author.handle}`,
    author_url: opts.baseUrl + (profilePath(author.handle, author.id) ?? ''),
    provider_name: SERVICE_NAME,
    provider_url: opts.baseUrl,
    cache_age: opts.cacheAge,
  };
}

export function postOembed(post: Post, opts: OembedOptions): OembedResponse {
  const a = post.author;
  const permalink = opts.baseUrl + statusPath(a.handle, post.id);
  const { width, height } = sized(opts, post.text.length);
  const date = post.createdAt.slice(0, 10);
  const html = blockquote(
    permalink,
    width,
    `<p>${paragraph(post.text)}</p>&mdash; ${escapeHtml(a.name)} (@${escapeHtml(a.handle)}) <a href="${escapeHtml(permalink)}">${escapeHtml(date)}</a>`,
  );
  const title = post.text.length > 80 ? `${post.text.slice(0, 79)}…` : post.text;
  return { ...common(a, opts), title: `${a.name} on X: ${title}`, html, width, height };
}

export function profileOembed(author: Author, opts: OembedOptions): OembedResponse {
  const url = opts.baseUrl + (profilePath(author.handle, author.id) ?? '');
  const bio = author.bio ?? '';
  const { width, height } = sized(opts, bio.length + 40);
  const counts = [
    author.followers !== undefined ? `${author.followers} followers` : '',
    author.following !== undefined ? `${author.following} following` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const html = blockquote(
    url,
    width,
    `<p><a href="${escapeHtml(url)}">${escapeHtml(author.name)} (@${escapeHtml(author.handle)})</a></p>` +
      (bio ? `<p>${paragraph(bio)}</p>` : '') +
      (counts ? `<p>${escapeHtml(counts)}</p>` : ''),
  );
  return { ...common(author, opts), title: `${author.name} (@${author.handle}) on X`, html, width, height };
}
