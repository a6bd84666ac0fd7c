// /docs/versioning: the policy the deprecation Link headers point at, with the generated deprecation table.
import { LIFECYCLE, PARAMETER_LIFECYCLE } from '../../contract/lifecycle.ts';
import type { RouteDef } from '../../contract/route-decl.ts';
import { DEPRECATION_SIGNALS, deprecatedOperations, deprecatedParameters } from '../lifecycle.ts';
import { DISCOVERY_PATHS } from '../paths.ts';
import { esc, page, table } from './html.ts';

function successorCell(op: ReturnType<typeof deprecatedOperations>[number]): string {
  if (op.successor) return `<code>GET ${esc(op.successor)}</code>`;
  const rows = Object.entries(op.successors ?? {}).map(
    ([k, v]) => `<code>${esc(op.successor_parameter)}=${esc(k)}</code> → <code>GET ${esc(v)}</code>`,
  );
  return rows.join('<br>');
}

export function renderVersioning(routes: readonly RouteDef[], opts: { baseUrl: string }): string {
  const ops = deprecatedOperations(routes);
  const params = deprecatedParameters(routes);
  const body = `
<h1>Versioning policy</h1>
<ol>
<li>Versions live in the URL path. The current major version is <code>${esc(LIFECYCLE.currentMajorVersion)}</code>; supported: ${LIFECYCLE.supportedVersions.map((v) => `<code>${esc(v)}</code>`).join(', ')}.</li>
<li>Additive changes ship inside <code>v1</code> without notice: new optional parameters, new JSON fields, new headers, new values in open-ended fields, and changes to Markdown wording or layout. Ignore JSON fields you do not know and never parse Markdown as data.</li>
<li>Breaking changes (removing or renaming a parameter, field or route, changing a type, narrowing accepted values, changing what a status or error <code>code</code> means) ship only under a new prefix such as <code>/api/v2</code>.</li>
<li><code>/api/v1</code> keeps working for at least ${esc(LIFECYCLE.minimumSupportWindowMonths)} months after its successor is published.</li>
<li>Permalink routes are unversioned, stable and not deprecated.</li>
<li>The service is best-effort: this policy says how change is signalled; it is not a service-level agreement.</li>
</ol>

<h2 id="deprecated-routes">Deprecated routes</h2>
${table(
  ['Route', 'Successor', 'Deprecated', 'Sunset'],
  ops.map((op) => [`<code>GET ${esc(op.path)}</code>`, successorCell(op), esc(op.deprecated), esc(op.sunset)]),
)}

<h2 id="deprecated-parameters">Deprecated parameters</h2>
<p>A deprecated parameter keeps working, with the same values and meaning as its successor, until the next major version. Only the requests that name it carry the signals below, with its own dates (<code>Deprecation: ${esc(PARAMETER_LIFECYCLE.deprecationHeader)}</code>, <code>Sunset: ${esc(PARAMETER_LIFECYCLE.sunsetHeader)}</code>), and <code>Link</code> names the same request with the successor parameter as <code>rel="successor-version"</code>. On the post reads <code>lang</code> translated each post; everywhere else it keeps only the posts written in a language. One name now has one meaning: <code>translate</code> translates on every read that lists posts, <code>lang</code> filters.</p>
${table(
  ['Route', 'Parameter', 'Successor', 'Deprecated', 'Sunset'],
  params.map((p) => [
    `<code>GET ${esc(p.path)}</code>`,
    `<code>${esc(p.parameter)}</code>`,
    `<code>${esc(p.successor_parameter)}</code>`,
    esc(p.deprecated),
    esc(p.sunset),
  ]),
)}

<h2 id="signals">How deprecation is signalled</h2>
<p>Every response of a deprecated route, success or error, <code>GET</code> or <code>HEAD</code>, carries:</p>
<pre><code>${esc(`Deprecation: ${LIFECYCLE.deprecationHeader}
Sunset: ${LIFECYCLE.sunsetHeader}
Link: <${opts.baseUrl}${LIFECYCLE.policyPath}>; rel="deprecation"; type="text/html", <${opts.baseUrl}${LIFECYCLE.policyPath}>; rel="sunset"; type="text/html"`)}</code></pre>
<p>When the request names a replacing route, <code>Link</code> also carries <code>rel="successor-version"</code>. The same policy is machine-readable as <code>x-api-lifecycle</code> in the <a href="${esc(opts.baseUrl + DISCOVERY_PATHS.openapi)}">OpenAPI description</a> and as <code>versioning</code> in <a href="${esc(opts.baseUrl + DISCOVERY_PATHS.api)}">/api</a>.</p>
<ul>${DEPRECATION_SIGNALS.map((s) => `<li>${esc(s)}</li>`).join('')}</ul>
`;
  return page({ title: 'Versioning policy', baseUrl: opts.baseUrl, path: DISCOVERY_PATHS.versioning }, body);
}
