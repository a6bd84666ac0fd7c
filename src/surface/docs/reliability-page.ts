// /docs/reliability: one anchored section per error code, so every problem `type` URI lands on its entry.
import {
  CATALOG,
  PROVIDER_FAILURE_KINDS,
  anchorFor,
  providerCode,
  providerCodeEntry,
  type CatalogEntry,
  type ProviderCode,
} from '../../problems/catalog.ts';
import { DISCOVERY_PATHS } from '../paths.ts';
import { esc, page, prose } from './html.ts';
import { renderAllowances } from './allowances.ts';
import { renderSafeguards } from './safeguards.ts';

function codeSection(code: string, entry: CatalogEntry, typeUri: string, note = ''): string {
  return `<section id="${esc(anchorFor(code))}">
<h3><code>${esc(code)}</code> · ${esc(entry.status)} ${esc(entry.title)}</h3>
<p><strong>What to do:</strong> ${prose(entry.resolution)}</p>
${note ? `<p>${prose(note)}</p>` : ''}
<p>Problem <code>type</code>: <code>${esc(typeUri)}</code></p>
</section>`;
}

export function renderReliability(opts: { baseUrl: string; providers: string[] }): string {
  const base = `${opts.baseUrl}${DISCOVERY_PATHS.reliability}`;
  const uri = (code: string) => `${base}#${anchorFor(code)}`;
  const catalog = Object.entries(CATALOG as Record<string, CatalogEntry>)
    .map(([code, entry]) => codeSection(code, entry, uri(code)))
    .join('\n');
  const providerCodes: ProviderCode[] = [
    ...opts.providers.flatMap((p) => PROVIDER_FAILURE_KINDS.map((k) => providerCode(p, k))),
    'all_providers_failed',
  ];
  const searchNote = 'Answered as 502 on reads, or 503 on search routes.';
  const providers = providerCodes
    .map((code) => codeSection(code, providerCodeEntry(code, false)!, uri(code), searchNote))
    .join('\n');
  const body = `
<h1>Errors and reliability</h1>
<p>Every error is an RFC 9457 problem document (<code>application/problem+json</code>, or <code>application/json</code> when the request asks for JSON) with a stable <code>code</code>, a human <code>detail</code>, a <code>resolution</code> and a <code>documentation_url</code> pointing at the entry below. Responses also carry <code>Link: &lt;…&gt;; rel="help"</code> to the same entry.</p>
<p>Content comes from upstream providers that fail independently; the service falls through to the next provider and serves stale cached copies when it can. Retry 5xx answers with exponential backoff, and always honour <code>Retry-After</code> on 429 and 503.</p>
<h2 id="catalog">Error codes</h2>
${catalog}
<h2 id="provider-codes">Provider codes</h2>
<p>A 502 or 503 may name the provider that failed: <code>&lt;provider&gt;_error</code> (it answered with an error), <code>&lt;provider&gt;_empty</code> (it returned nothing usable), <code>&lt;provider&gt;_network</code> (it could not be reached), or <code>all_providers_failed</code>. They share the resolution of <a href="#upstream-error"><code>upstream_error</code></a>.</p>
${providers}
${renderAllowances()}
${renderSafeguards()}
`;
  return page({ title: 'Errors and reliability', baseUrl: opts.baseUrl, path: DISCOVERY_PATHS.reliability }, body);
}
