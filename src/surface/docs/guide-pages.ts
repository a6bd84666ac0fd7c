// /docs/api, /docs/feeds, /docs/cli, /docs/mcp and /docs/client: the guides for API users, rendered from docs/*.md so the
// repository and the running service show the same text (and the example runner checks one copy).
import { readFileSync } from 'node:fs';
import MarkdownIt from 'markdown-it';
import { GUIDES_DIR } from '../../guides.ts';
import { DISCOVERY_PATHS } from '../paths.ts';
import { page } from './html.ts';

export interface Guide {
  /** Path segment under /docs, and the name of its file in docs/ (without `.md`). */
  slug: string;
  title: string;
  summary: string;
}

export const GUIDES: readonly Guide[] = [
  {
    slug: 'api',
    title: 'Using the API',
    summary:
      'A walk-through of the reads with curl, and the behaviour worth knowing: paging, budgets, exports, caching.',
  },
  { slug: 'feeds', title: 'Feeds', summary: 'RSS 2.0, Atom 1.0 and JSON Feed for profiles, searches and X Lists.' },
  { slug: 'cli', title: 'Command line', summary: 'The threadmark command: every read from a terminal or a script.' },
  { slug: 'mcp', title: 'MCP', summary: 'The MCP tools over Streamable HTTP and stdio, and a desktop agent set-up.' },
  {
    slug: 'client',
    title: 'TypeScript client',
    summary: 'threadmark-client: typed reads, paging, exports, errors and retries for Node, Bun, Deno and browsers.',
  },
];

/** The address the guides' examples use: the one `npm run demo` and `npm start` listen on by default. */
export const GUIDE_EXAMPLE_BASE = 'http://localhost:8080';

export function guidePath(slug: string): string {
  return `${DISCOVERY_PATHS.docs}/${slug}`;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/ +/g, '-');
}

/** Links between guides (`feeds.md#…`) point at their pages here; headings get GitHub's anchors. */
function rewriteLinks(tokens: ReturnType<typeof md.parse>, baseUrl: string): void {
  const served = new Set(GUIDES.map((g) => g.slug));
  for (const [i, token] of tokens.entries()) {
    if (token.type === 'heading_open') {
      const text = tokens[i + 1]?.content ?? '';
      token.attrSet('id', slugify(text));
    }
    for (const child of token.children ?? []) {
      if (child.type !== 'link_open') continue;
      const href = String(child.attrGet('href') ?? '');
      const m = /^([a-z-]+)\.md(#.*)?$/.exec(href);
      if (m && served.has(m[1]!)) child.attrSet('href', `${baseUrl}${guidePath(m[1]!)}${m[2] ?? ''}`);
    }
  }
}

export function readGuide(slug: string): string {
  return readFileSync(new URL(`${slug}.md`, GUIDES_DIR), 'utf8');
}

export function renderGuide(guide: Guide, opts: { baseUrl: string }): string {
  const source = readGuide(guide.slug).replaceAll(GUIDE_EXAMPLE_BASE, opts.baseUrl);
  const tokens = md.parse(source, {});
  rewriteLinks(tokens, opts.baseUrl);
  const body = md.renderer.render(tokens, md.options, {});
  return page({ title: guide.title, baseUrl: opts.baseUrl, path: guidePath(guide.slug) }, body);
}
