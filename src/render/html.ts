// The Markdown wrapped in a small, valid HTML5 page. markdown-it runs with raw HTML disabled (so any HTML in
// the source is shown as text) and only http(s) or same-site links and images survive. The page carries no
// script and a Content-Security-Policy that would refuse one anyway.
import MarkdownIt from 'markdown-it';
import type { LinkPreview } from './link-preview.ts';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

// markdown-it's default check only blocks a few schemes; allow-list instead.
md.validateLink = (url: string): boolean => /^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//'));

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'nofollow noopener noreferrer');
  return defaultLinkOpen(tokens, idx, options, env, self);
};
const defaultImage = md.renderer.rules.image!;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('loading', 'lazy');
  return defaultImage(tokens, idx, options, env, self);
};

const CSP =
  "default-src 'none'; img-src https: http:; media-src https: http:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const CSS = `body{margin:0 auto;max-width:46rem;padding:1rem;font:16px/1.5 system-ui,sans-serif;color:#1a1a1a;background:#fff}
img{max-width:100%;height:auto}a{color:#0b57d0}blockquote{margin:0 0 1em;padding-left:1em;border-left:3px solid #ccc;color:#444}
pre{overflow-x:auto;background:#f5f5f5;padding:.75em}code{font-size:.95em}h1{font-size:1.5em}h2{font-size:1.25em}
footer{margin-top:2em;font-size:.85em;color:#666}
@media (prefers-color-scheme:dark){body{background:#111;color:#e6e6e6}a{color:#8ab4f8}blockquote{color:#bbb}pre{background:#1d1d1d}}`;

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for HTML element content and double-quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESC[c]!);
}

function safeUrl(u: string | undefined): string | undefined {
  return u && /^https?:\/\//i.test(u) ? u : undefined;
}

export interface HtmlPageOptions {
  title: string;
  baseUrl: string;
  canonicalUrl?: string;
  oembedUrl?: string;
  /** Feeds about the page, announced for feed discovery (<link rel="alternate">). */
  feeds?: Array<{ type: string; href: string; title: string }>;
  /** Open Graph and Twitter-card metadata for link previews (posts and profiles). */
  preview?: LinkPreview;
}

/** `<meta property|name=… content=…>` lines; values are text, escaped, and URLs must be http(s). */
function previewMeta(p: LinkPreview, siteName: string): string[] {
  const out: string[] = [];
  const add = (attr: 'property' | 'name', key: string, value: string | number | undefined) => {
    if (value === undefined || value === '') return;
    out.push(`<meta ${attr}="${key}" content="${escapeHtml(String(value).replace(/\s+/g, ' ').trim())}">`);
  };
  const og = (key: string, value: string | number | undefined) => add('property', `og:${key}`, value);
  og('type', p.type);
  og('site_name', siteName);
  og('title', p.title);
  og('description', p.description);
  og('url', safeUrl(p.url));
  const image = safeUrl(p.image?.url);
  if (image) {
    og('image', image);
    og('image:alt', p.image!.alt);
    og('image:width', p.image!.width);
    og('image:height', p.image!.height);
  }
  const video = safeUrl(p.video?.url);
  if (video) {
    og('video', video);
    og('video:type', p.video!.type);
    og('video:width', p.video!.width);
    og('video:height', p.video!.height);
  }
  if (p.publishedTime) add('property', 'article:published_time', p.publishedTime);
  if (p.username) add('property', 'profile:username', p.username);
  add('name', 'description', p.description);
  add('name', 'twitter:card', p.card);
  add('name', 'twitter:title', p.title);
  add('name', 'twitter:description', p.description);
  if (p.creator) add('name', 'twitter:creator', `@${p.creator}`);
  if (image) {
    add('name', 'twitter:image', image);
    add('name', 'twitter:image:alt', p.image!.alt);
  }
  return out;
}

/** Markdown body → HTML fragment, with the same safety rules as the page. */
export function markdownToHtml(markdown: string): string {
  return md.render(markdown);
}

export function renderHtmlPage(markdown: string, opts: HtmlPageOptions): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(opts.title.replace(/\s+/g, ' ').trim())}</title>`,
  ];
  if (opts.preview) head.push(...previewMeta(opts.preview, 'threadmark'));
  const canonical = safeUrl(opts.canonicalUrl);
  if (canonical) head.push(`<link rel="canonical" href="${escapeHtml(canonical)}">`);
  const oembed = safeUrl(opts.oembedUrl);
  if (oembed) head.push(`<link rel="alternate" type="application/json+oembed" href="${escapeHtml(oembed)}">`);
  for (const f of opts.feeds ?? []) {
    const href = safeUrl(f.href);
    if (href)
      head.push(
        `<link rel="alternate" type="${escapeHtml(f.type)}" title="${escapeHtml(f.title)}" href="${escapeHtml(href)}">`,
      );
  }
  head.push(`<style>${CSS}</style>`);
  const home = safeUrl(opts.baseUrl);
  const footer = home ? `<footer>Rendered by <a href="${escapeHtml(home)}">threadmark</a></footer>` : '';
  return `<!doctype html>\n<html lang="en">\n<head>\n${head.join('\n')}\n</head>\n<body>\n<main>\n${markdownToHtml(markdown)}</main>\n${footer}\n</body>\n</html>\n`;
}
