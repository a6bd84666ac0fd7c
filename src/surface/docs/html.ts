// The HTML shell of the documentation pages: escaped text, one small stylesheet, no scripts.
import { DISCOVERY_PATHS } from '../paths.ts';
import { SERVICE_NAME } from '../service-info.ts';
import { escapeHtml } from '../../render/html.ts';

/** Any value as escaped HTML text (the pages print numbers and codes as well as strings). */
export function esc(value: unknown): string {
  return escapeHtml(String(value));
}

/** Inline `code` spans in our own prose; everything else stays escaped. */
export function prose(text: string): string {
  return esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');
}

const STYLE = `
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2228;background:#fff}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}
header{border-bottom:1px solid #dde2e8;padding-top:.75rem;padding-bottom:.75rem}
header nav a{margin-right:1rem}
h1{font-size:1.8rem;margin:1.5rem 0 .5rem}h2{margin-top:2.5rem;border-bottom:1px solid #eef1f4}
h3{margin-top:2rem}
code,pre{font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f5f8;border-radius:4px}
code{padding:.1em .3em}pre{padding:.75rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;width:100%;margin:.75rem 0}th,td{border:1px solid #dde2e8;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}
.tag{display:inline-block;font-size:.8rem;padding:0 .4rem;border-radius:3px;background:#e7edf5;margin-right:.3rem}
.deprecated{background:#fff3cd}
section{scroll-margin-top:1.5rem}
section:target{background:#fffbe6;outline:2px solid #f0c000;outline-offset:4px}
footer{color:#5b6570;font-size:.9rem;padding-top:2rem;padding-bottom:2rem}
`;

export interface PageOptions {
  title: string;
  baseUrl: string;
  /** Path of this page, for the canonical link. */
  path: string;
}

export function page(opts: PageOptions, body: string): string {
  const link = (p: string) => esc(`${opts.baseUrl}${p}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(opts.title)} · ${SERVICE_NAME}</title>
<link rel="canonical" href="${link(opts.path)}">
<link rel="service-desc" type="application/vnd.oai.openapi+json" href="${link(DISCOVERY_PATHS.openapi)}">
<style>${STYLE}</style>
</head>
<body>
<header><nav aria-label="Documentation">
<a href="${link(DISCOVERY_PATHS.docs)}"><strong>${SERVICE_NAME}</strong></a>
<a href="${link(DISCOVERY_PATHS.docs)}#routes">Routes</a>
<a href="${link(DISCOVERY_PATHS.docs)}#guides">Guides</a>
<a href="${link(DISCOVERY_PATHS.reliability)}">Errors</a>
<a href="${link(DISCOVERY_PATHS.versioning)}">Versioning</a>
<a href="${link(DISCOVERY_PATHS.openapi)}">OpenAPI</a>
<a href="${link(DISCOVERY_PATHS.llms)}">llms.txt</a>
</nav></header>
<main>
${body}
</main>
<footer>${SERVICE_NAME} is read-only and best-effort: it reads public content through upstream providers that can fail independently.</footer>
</body>
</html>
`;
}

export function table(headers: string[], rows: string[][]): string {
  const head = headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}
