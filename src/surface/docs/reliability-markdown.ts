// docs/reliability.md: the error codes of /docs/reliability as a Markdown file that ships with the package, so the
// CLI and stdio MCP run in-process, with no service to serve /docs, link problems to an entry that exists.
import {
  CATALOG,
  PROVIDER_FAILURE_KINDS,
  anchorFor,
  providerCode,
  providerCodeEntry,
  type CatalogEntry,
} from '../../problems/catalog.ts';

function entry(code: string, e: CatalogEntry, note = ''): string {
  return [
    `<a id="${anchorFor(code)}"></a>`,
    '',
    `### \`${code}\` · ${e.status} ${e.title}`,
    '',
    `**What to do:** ${e.resolution}${note ? ` ${note}` : ''}`,
    '',
  ].join('\n');
}

/** The whole page, from the catalog: one anchored entry per code, at the anchors problem `type` URIs name. */
export function renderReliabilityMarkdown(providers: readonly string[]): string {
  const codes = Object.entries(CATALOG as Record<string, CatalogEntry>).map(([code, e]) => entry(code, e));
  const providerCodes = [
    ...providers.flatMap((p) => PROVIDER_FAILURE_KINDS.map((k) => providerCode(p, k))),
    'all_providers_failed' as const,
  ].map((code) => entry(code, providerCodeEntry(code, false)!, 'Answered as 502 on reads, or 503 on search routes.'));
  return [
    '<!-- Generated from src/problems/catalog.ts by test/unit/docs-reliability.test.ts (UPDATE_DOCS=1); do not edit. -->',
    '',
    '# Errors',
    '',
    'Every error is an RFC 9457 problem document with a stable `code`, a human `detail`, a `resolution` and a',
    '`documentation_url` pointing at its entry here. A running service serves the same reference, with its',
    'safeguards, at `/docs/reliability`; the CLI and stdio MCP run in-process link this file instead.',
    '',
    '## Error codes',
    '',
    ...codes,
    '## Provider codes',
    '',
    'A 502 or 503 may name the provider that failed. They share the resolution of `upstream_error`.',
    '',
    ...providerCodes,
  ].join('\n');
}
