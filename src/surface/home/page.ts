// The home page people see at `/`: paste an X link or a handle, pick a format, get Markdown. Plain HTML with one
// stylesheet and one script, both served by this service (/assets/…), so a strict Content-Security-Policy holds
// and the form works without JavaScript (it submits to `/` and the answer is this page with the result).
import { escapeHtml as esc } from '../../render/html.ts';
import { DISCOVERY_PATHS } from '../paths.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from '../service-info.ts';
import { HOME_ASSETS } from './assets.ts';

export const HOME_FORMATS = ['compact', 'expanded', 'obsidian', 'json'] as const;
export type HomeFormat = (typeof HOME_FORMATS)[number];
export const HOME_THREADS = ['full', 'off', 'conversation'] as const;
export type HomeThread = (typeof HOME_THREADS)[number];

/** What the form asked for, as it is shown back. */
export interface HomeForm {
  url?: string;
  format: HomeFormat;
  thread: HomeThread;
}

/** A conversion's outcome, for the page without JavaScript. */
export type HomeResult =
  | { ok: true; text: string; permalink: string; mediaType: string }
  | { ok: false; title: string; detail: string; permalink?: string };

/** The page's Content-Security-Policy: nothing but this service's own stylesheet, script, frames and fetches. */
export const HOME_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-src 'self'; " +
  "img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const FORMAT_LABELS: Record<HomeFormat, string> = {
  compact: 'Compact Markdown',
  expanded: 'Expanded Markdown (metrics, timestamps)',
  obsidian: 'Obsidian note (posts)',
  json: 'JSON',
};
const THREAD_LABELS: Record<HomeThread, string> = {
  full: 'Whole thread and replies',
  off: 'The post alone',
  conversation: 'Thread and conversation above it',
};

function options<T extends string>(values: readonly T[], labels: Record<T, string>, chosen: T): string {
  return values
    .map((v) => `<option value="${v}"${v === chosen ? ' selected' : ''}>${esc(labels[v])}</option>`)
    .join('');
}

function resultSection(result: HomeResult | undefined, baseUrl: string): string {
  // The section is always there (empty when nothing was converted), so the script has a live region to fill.
  if (!result) return '<section id="result" aria-live="polite" hidden></section>';
  const share = result.permalink
    ? `<p>On this service: <a id="permalink" href="${esc(result.permalink)}">${esc(baseUrl + result.permalink)}</a></p>`
    : '';
  if (!result.ok)
    return `<section id="result" aria-live="polite"><h2>Could not convert</h2><p role="alert"><strong>${esc(
      result.title,
    )}</strong>: ${esc(result.detail)}</p>${share}</section>`;
  return `<section id="result" aria-live="polite"><h2>Result</h2>${share}
<p><button type="button" id="copy" hidden>Copy</button> <span id="copied" role="status"></span></p>
<pre id="output" tabindex="0" aria-label="Converted ${esc(result.mediaType)}">${esc(result.text)}</pre></section>`;
}

export function renderHomePage(form: HomeForm, result: HomeResult | undefined, baseUrl: string): string {
  const link = (p: string) => esc(baseUrl + p);
  const host = esc(baseUrl.replace(/^https?:\/\//, ''));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(SERVICE_NAME)}: X links as Markdown</title>
<meta name="description" content="${esc(SERVICE_DESCRIPTION)}">
<link rel="stylesheet" href="${esc(HOME_ASSETS.css.path)}">
<script src="${esc(HOME_ASSETS.js.path)}" defer></script>
</head>
<body>
<main>
<h1>${esc(SERVICE_NAME)}</h1>
<p>${esc(SERVICE_DESCRIPTION)}</p>
<form id="convert" method="get" action="/">
<p><label for="url">X link or handle</label><br>
<input id="url" name="url" type="text" inputmode="url" autocomplete="off" spellcheck="false" required
 placeholder="https://x.com/jack/status/20" value="${esc(form.url ?? '')}" aria-describedby="url-help"></p>
<p id="url-help" class="help">A post, profile, followers, List or search link from x.com, twitter.com, FxTwitter, VxTwitter or Nitter; or a handle such as @jack.</p>
<p><label for="format">Format</label><br><select id="format" name="format">${options(HOME_FORMATS, FORMAT_LABELS, form.format)}</select></p>
<p><label for="thread">Thread (posts)</label><br><select id="thread" name="thread">${options(HOME_THREADS, THREAD_LABELS, form.thread)}</select></p>
<p><button type="submit">Convert</button></p>
</form>
${resultSection(result, baseUrl)}
<section id="preview-section" hidden><h2>Preview</h2><iframe id="preview" title="Rendered preview" sandbox></iframe></section>
<h2>Swap the host</h2>
<p>Any X address reads here with its host swapped: <code>x.com/jack/status/20</code> becomes <a href="${link('/jack/status/20')}"><code>${host}/jack/status/20</code></a>. Or put this service in front of the whole link: <a href="${link('/https://x.com/jack/status/20')}"><code>${host}/https://x.com/jack/status/20</code></a>.</p>
<h2>Feeds</h2>
<p>RSS for a profile at <code>/{handle}/rss</code> (Nitter's paths), for a search at <code>/search/rss?q=…</code>, for a List at <code>/i/lists/{id}/rss</code>.</p>
<h2>For agents and scripts</h2>
<p>MCP: connect to <code>${link(DISCOVERY_PATHS.mcp)}</code> (Streamable HTTP) or run <code>threadmark mcp</code> locally. CLI: <code>threadmark read https://x.com/jack/status/20</code>. Guides: <a href="${link(DISCOVERY_PATHS.llms)}">llms.txt</a>, <a href="${link(DISCOVERY_PATHS.openapi)}">OpenAPI</a>.</p>
<p><a href="${link(DISCOVERY_PATHS.docs)}">Documentation</a> · <a href="${link(`${DISCOVERY_PATHS.docs}#home-page`)}">about this page</a></p>
</main>
</body>
</html>
`;
}
