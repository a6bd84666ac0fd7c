// /docs: overview, quick start and every declared route with its parameters, errors and a curl example.
import { errorFormatRuleHtml } from '../error-format.ts';
import { renderMcpCosts } from './mcp-costs.ts';
import { COMMON_ERRORS, type RouteDecl, type RouteDef, type Surface } from '../../contract/route-decl.ts';
import { anchorFor } from '../../problems/catalog.ts';
import { EXAMPLE, exampleCurl } from '../examples.ts';
import { GUIDES, guidePath } from './guide-pages.ts';
import { describeValues, routeParams } from '../params.ts';
import { fixedMediaTypes } from '../fixed-media.ts';
import { DISCOVERY_PATHS } from '../paths.ts';
import { SERVICE_DESCRIPTION } from '../service-info.ts';
import { esc, page, prose, table } from './html.ts';
import { LINK_PREVIEW_CRAWLERS } from '../../contract/link-preview.ts';
import { acceptedHosts } from '../../domain/pasted-link.ts';
import { HOME_CSP } from '../home/page.ts';
import { tabsSection } from './tabs-section.ts';

const SURFACES: Array<{ surface: Surface; title: string; intro: string }> = [
  {
    surface: 'v1',
    title: 'Versioned routes (/api/v1)',
    intro: 'The machine surface. Breaking changes only ever ship under a new prefix.',
  },
  {
    surface: 'permalink',
    title: 'Permalinks',
    intro: 'Unversioned and stable: they mirror the platform URL shapes, so swapping the host of an x.com link works.',
  },
  {
    surface: 'legacy',
    title: 'Deprecated aliases',
    intro: 'Still working until their sunset date; see the versioning policy.',
  },
  { surface: 'discovery', title: 'Discovery documents', intro: 'Machine-readable descriptions of the service.' },
];

export function routeAnchor(decl: RouteDecl): string {
  return `route-${decl.operationId}`;
}

function paramsTable(decl: RouteDecl): string {
  const params = routeParams(decl);
  if (!params.length) return '<p>No parameters.</p>';
  return table(
    ['Name', 'In', 'Required', 'Accepted values', 'Description'],
    params.map((p) => [
      `<code>${esc(p.name)}</code>`,
      p.in,
      p.required ? 'yes' : 'no',
      esc(describeValues(p.schema)),
      prose(p.description ?? ''),
    ]),
  );
}

function errorLinks(decl: RouteDecl, baseUrl: string): string {
  const codes = [...new Set([...decl.errors, ...COMMON_ERRORS])];
  return codes
    .map(
      (c) => `<a href="${esc(`${baseUrl}${DISCOVERY_PATHS.reliability}#${anchorFor(c)}`)}"><code>${esc(c)}</code></a>`,
    )
    .join(', ');
}

function representationsOf(decl: RouteDecl): string {
  const fixed = decl.fixed;
  if (fixed)
    return fixedMediaTypes(fixed)
      .map((t) => `<code>${esc(t)}</code>`)
      .join(', ');
  return decl.representations.map((r) => `<code>${esc(r)}</code>`).join(', ');
}

function routeSection(decl: RouteDecl, baseUrl: string): string {
  const dep = decl.deprecated;
  const successor = dep?.successor
    ? `Use <code>GET ${esc(dep.successor)}</code>.`
    : dep?.successors
      ? `The successor depends on <code>${esc(dep.successorParameter ?? '')}</code>: ${Object.entries(dep.successors)
          .map(([k, v]) => `<code>${esc(k)}</code> → <code>${esc(v)}</code>`)
          .join('; ')}.`
      : '';
  return `<section id="${esc(routeAnchor(decl))}"${dep ? ' class="deprecated"' : ''}>
<h3><code>GET ${esc(decl.path)}</code></h3>
<p>${decl.tags.map((t) => `<span class="tag">${esc(t)}</span>`).join('')}<strong>${esc(decl.summary)}</strong></p>
<p>${prose(decl.description)}</p>
${dep ? `<p><strong>Deprecated.</strong> ${successor} See the <a href="${esc(baseUrl + DISCOVERY_PATHS.versioning)}">versioning policy</a> for the dates.</p>` : ''}
${paramsTable(decl)}
<p>Representations: ${representationsOf(decl)}. ${decl.keyAware ? 'Honours the optional bearer key.' : 'Ignores any bearer key.'}${decl.mcpTool ? ` MCP tool: <code>${esc(decl.mcpTool)}</code>.` : ''}</p>
<p>Errors: ${errorLinks(decl, baseUrl)}.</p>
${decl.noExample ? `<p>${esc(decl.noExample)}</p>` : `<pre><code>${esc(exampleCurl(decl, baseUrl))}</code></pre>`}
</section>`;
}

export function renderDocsIndex(routes: readonly RouteDef[], opts: { baseUrl: string; version: string }): string {
  const { baseUrl } = opts;
  const link = (p: string) => esc(`${baseUrl}${p}`);
  const post = `${EXAMPLE.handle}/status/${EXAMPLE.postId}`;
  const groups = SURFACES.map(({ surface, title, intro }) => {
    const decls = routes.filter((r) => r.decl.surface === surface).map((r) => r.decl);
    if (!decls.length) return '';
    return `<h2 id="surface-${surface}">${esc(title)}</h2>\n<p>${esc(intro)}</p>\n${decls.map((d) => routeSection(d, baseUrl)).join('\n')}`;
  }).join('\n');
  const body = `
<h1>threadmark ${esc(opts.version)}</h1>
<p>${esc(SERVICE_DESCRIPTION)}</p>
<p>Every route is <code>GET</code> (with <code>HEAD</code> and <code>OPTIONS</code>); nothing is ever written to the platform. No credentials are needed.</p>

<h2 id="quick-start">Quick start</h2>
<p>The examples read the accounts of <code>npm run demo</code>'s simulator; against the real platform, put any public handle and status id in their place.</p>
<pre><code>${esc(`# A post with its thread and replies, as Markdown
curl -s '${baseUrl}/${post}'
# The same as JSON (the Markdown is inside, next to the structured posts)
curl -s '${baseUrl}/api/v1/posts?url=https://x.com/${post}&format=json'
# Only the post itself
curl -s '${baseUrl}/api/v1/posts?url=https://x.com/${post}&thread=off'
# A profile, five posts a page: send its nextCursor back as cursor for the next page
curl -s '${baseUrl}/api/v1/profiles/${EXAMPLE.handle}?format=json&limit=5'
# Search
curl -s '${baseUrl}/api/v1/search?q=${encodeURIComponent(EXAMPLE.q)}&feed=latest'`)}</code></pre>

<h2 id="guides">Guides</h2>
<ul>
${GUIDES.map((g) => `<li><a href="${link(guidePath(g.slug))}">${esc(g.title)}</a>: ${esc(g.summary)}</li>`).join('\n')}
</ul>

<h2 id="prefix-reads">Reading any X link by prefixing it</h2>
<p>Put this service in front of a whole link and it reads what the link names: <code>${esc(`${baseUrl}/https://x.com/jack/status/20`)}</code> answers exactly what <code>${esc(`${baseUrl}/jack/status/20`)}</code> answers (the same negotiation, <code>format</code> and other parameters, caching, <code>ETag</code> and 304s, rate limits and headers), plus <code>Link: &lt;…/jack/status/20&gt;; rel="canonical"</code> naming the permalink. It is not a redirect: the request is routed to the permalink route before anything else runs, so one round trip answers it and clients that do not follow redirects work too. The link may come with or without its scheme (<code>/x.com/jack</code>), raw or percent-encoded (<code>/https%3A%2F%2Fx.com%2Fjack%2Fstatus%2F20</code>, with this service's own parameters after it), on ${acceptedHosts(
    'mirrors',
  )
    .map((h) => `<code>${esc(h)}</code>`)
    .join(
      ', ',
    )} (with <code>www.</code>, <code>mobile.</code>, <code>m.</code> or <code>d.</code> in front). Posts (<code>/{handle}/status/{id}</code>, <code>/i/status/{id}</code>, <code>/i/web/status/{id}</code>, with <code>/photo/1</code> and the like), a post's quotes and reposts (<code>/{handle}/status/{id}/quotes</code>, X's <code>/retweets</code> as <code>/reposts</code>), profiles (<code>/{handle}</code>, <code>/{handle}/with_replies</code>) and their <code>/followers</code>, <code>/following</code>, <code>/media</code>, <code>/articles</code> and <code>/about</code>, feeds (<code>/{handle}/rss</code>, Nitter's paths), accounts by id (<code>/i/user/{id}</code>), Lists (<code>/i/lists/{id}</code>, <code>/members</code>, <code>/rss</code>), hashtags (<code>/hashtag/{tag}</code>, with X's <code>src=hashtag_click</code> dropped), searches (<code>/search?q=…</code>, X's <code>f=live|top|user|media</code> tab as <code>feed</code>; a search for exactly one <code>#tag</code> or <code>$TAG</code> is that tag's page, <code>/hashtag/{tag}</code> or <code>/cashtag/{symbol}</code>) and the trends (<code>/explore/tabs/trending</code>, <code>/i/trends</code>) are read; share trackers (<code>s</code>, <code>t</code>, <code>ref_src</code>…) are dropped. A link to any other host is 400 <a href="${link(DISCOVERY_PATHS.reliability)}#unsupported-host"><code>unsupported_host</code></a> listing the accepted hosts, and is never fetched; a link of an accepted host whose path names nothing readable here is 404 <code>route_not_found</code>, a link that is not a URL (or carries credentials) 400 <code>bad_request</code>. The service's own paths (<code>/llms.txt</code>, <code>/openapi.json</code>…) are never taken for links. A catch-all path cannot be declared as an OpenAPI route, so this page is its description.</p>

<h2 id="home-page">The home page</h2>
<p><code>GET /</code> in a browser is a small page for people: paste an X link (post, profile or one of its tabs, a post's quotes or reposts, List, search, hashtag, trends, from any of the hosts above) or a handle, choose the format (compact or expanded Markdown, an Obsidian note, JSON) and for posts the thread (whole thread, the post alone, or with the conversation above it), and press Convert. With JavaScript the page fetches the prefix read above and shows the text with a Copy button, the permalink on this service to share, and a preview: the service's own HTML page of the same read in a sandboxed frame (no scripts run in it). Without JavaScript the form submits to <code>/?url=…&amp;format=…&amp;thread=…</code>, which answers the same page with the result in a <code>&lt;pre&gt;</code>, read through the permalink route's own handler (the same validation, cache and allowances; a refusal is shown on the page with the problem's status). The page loads nothing from elsewhere: its stylesheet and script are <code>/assets/home.css</code> and <code>/assets/home.js</code>, and it is sent with <code>Content-Security-Policy: ${esc(HOME_CSP)}</code>. Everything it echoes is escaped. The page and its assets are cached publicly for five minutes with ETags, like the discovery documents. <code>Accept: application/json</code> at <code>/</code> answers the service index that <a href="${link(DISCOVERY_PATHS.api)}"><code>/api</code></a> serves; <code>text/markdown</code>, <code>text/plain</code>, <code>*/*</code> or no Accept a short Markdown guide (the opening of <a href="${link(DISCOVERY_PATHS.llms)}">llms.txt</a>).</p>

<h2 id="representations">Representations</h2>
<p>Compact Markdown is the default. <code>full=true</code> adds metrics, timestamps and profile counts. <code>format=json</code> (or <code>Accept: application/json</code>) gives JSON; <code>Accept: text/html</code> a small HTML page; <code>format=obsidian</code> (posts only) an Obsidian note. <code>format</code> overrides <code>Accept</code>; an unsatisfiable <code>Accept</code> answers 406.</p>

<h2 id="conversations">Conversations</h2>
<p>A post read with the default <code>context=full</code> shows the conversation above it: its ancestors from the conversation's first post down to the direct parent, across authors and in order, before the post (Markdown under <code>## Context</code>; JSON in <code>conversation.parents</code>). Where the upstream gives only the parent's id, the service reads the ancestors one by one, through its cache and within the request's upstream time. At most 20 are shown: for a deeper conversation, its first post and the 19 nearest, with the number left out in <code>X-Warnings</code>, a Markdown line and <code>conversation.parentsOmitted</code>. A deleted, protected or unreadable ancestor ends the walk with the line <em>An earlier post in this conversation is unavailable</em> (JSON <code>conversation.earlier</code>); the read itself still succeeds. <code>context=thread</code> keeps only the author's own chain, <code>thread=off</code> shows the post alone, and <code>thread=N</code> counts every post in its N (the thread's posts, the ancestors and the replies), keeping the requested post and the thread after it first, then the rest of the thread, the nearest ancestors and the top replies. When it leaves posts out, the warning (<code>X-Warnings</code>, JSON <code>warnings</code>) and the Markdown's closing line say so in those terms, e.g. <em>truncated to 3 of 28 posts (thread=3): kept 3 of 12 thread posts and none of 16 replies; left out 9 thread posts and 16 replies</em>, and link the whole read: the same post and options without <code>thread</code>.</p>
<p>Quotes: a quoted post is shown in full one level deep; a quote inside a quoted post is a link naming its author.</p>
<p>Replies are ranked by the service whatever order the upstream lists them in: by likes for <code>replies=top</code>, newest first for <code>replies=recent</code>. When X leaves out the handle of the post a reply answers and keeps only its id, the reply still nests under that post, reads <em>Replying to a post</em> (linked) and JSON <code>replyTo.handle</code> is empty; without the id it stays at the top level.</p>
<p>Content as the upstreams hold it: an X Article is rendered whole (headings, lists, code, images, and its links, mentions, hashtags and cashtags as links) whichever provider served it, except syndication, which gives only its preview; the post's JSON <code>text</code> is the article's title and preview. App and website cards link to the destination named in the card, not to X. Alt text of photos, GIFs and videos is kept wherever the upstream gives it, also in the one-line form of replies.</p>

<h2 id="date-windows">Date windows</h2>
<p>The profile routes (<code>/{handle}</code>, <code>/api/v1/profiles/{handle}</code>, <code>/i/user/{id}</code>, <code>/api/v1/users/{id}</code>) and search, and their feeds (<code>/{handle}/rss</code>, <code>/api/v1/profiles/{handle}/feed</code>, <code>/search/rss</code>, <code>/api/v1/search/feed</code>), take <code>since</code> and <code>until</code>: an ISO 8601 date (<code>2026-03-01</code>, UTC midnight) or date-time (<code>2026-03-01T12:00:00Z</code>, UTC unless it carries an offset such as <code>+01:00</code>). The window is <code>since</code> ≤ time &lt; <code>until</code>, either end optional. It is read straight away, without paging through everything newer: the window becomes X search operators (<code>since_time:</code>, <code>until_time:</code>, and <code>from:&lt;handle&gt;</code> for a profile), so a windowed profile read is a live search lookup, charged like one and answering 503 <code>search_unavailable</code> when search cannot be served. Cursors stay tied to their window; the Markdown heading and the JSON <code>window</code> member say which window was read, and the answer holds only posts inside it, whatever the upstream returned (an upstream that ignores the search operators cannot widen it; a page it fills with posts from outside shows what it had inside, and paging goes on while <code>nextCursor</code> is present). An unparseable value, or <code>since</code> not earlier than <code>until</code>, is 400 <a href="${link(DISCOVERY_PATHS.reliability)}#invalid-date"><code>invalid_date</code></a>.</p>

<h2 id="timeline-options">Timeline options</h2>
<p>A profile shows the account's recent original posts. The contract calls them the posts left once replies and reposts are filtered out; a self-thread is one piece of the author's writing cut into posts, so its continuations (the account's replies to itself) count as original posts and are listed with the post they continue, on profile pages, <code>/api/v1/users/{id}</code>, exports, feeds, the CLI and the MCP tools alike. <code>with_replies=true</code> adds its replies to other people (labelled <em>Replying to @…</em>) and <code>with_reposts=true</code> its reposts (labelled <em>↻ Reposted by</em>); the section heading says what was included (<em>Recent posts and replies</em>) and JSON carries <code>includes</code>. Cursors belong to the choice of options. Inside a date window reposts are not available (X search does not return them): the answer says so in <code>warnings</code>. The CLI takes <code>--since</code>, <code>--until</code>, <code>--with-replies</code> and <code>--with-reposts</code>; the MCP tools <code>read_profile</code> and <code>search</code> take the same parameters as their routes. With X serving the read, replies come from the profile's Replies tab (X's <code>UserTweetsAndReplies</code>; its Posts tab leaves replies to others out), for profiles, feeds of kind <code>with_replies</code> and exports alike; the posts they answer, which X shows above each reply, are not the account's and are left out.</p>

<h2 id="translations">Translations</h2>
<p><code>translate=&lt;BCP 47 tag&gt;</code> (e.g. <code>en</code>, <code>ja</code>, <code>pt-BR</code>) adds each post's translation beside its original text, naming the source language and the translating service, on every read that lists posts: posts, profiles, search and the hashtag and cashtag pages, X List posts, quotes, the media and Articles tabs, every feed and the export (MCP tools and the typed client take the same parameter, the CLI <code>--translate</code>). A page is asked of the upstream in that language: X attaches Grok's translation to each post of a timeline page (reposted and quoted posts too), so one read translates the page; the posts left untranslated are translated one by one (at most 50 per read), each cached per post and language. A post already in that language is left as it is; a translation no upstream gives is a warning, and a bad tag is 400 <code>invalid_lang</code>. <code>lang</code> is the post filter everywhere (only posts written in those languages); on the post routes it used to translate and still does, as a deprecated alias of <code>translate</code> whose answers carry <code>Deprecation</code>, <code>Sunset</code> and <code>Link</code> headers (see <a href="${link(DISCOVERY_PATHS.versioning)}#deprecated-parameters">versioning</a>).</p>

<h2 id="exports">Exports</h2>
<p><code>GET /api/v1/profiles/{handle}/posts</code> takes an account's posts in one go, newest first: <code>max_posts</code> (1-5000, default 1000), <code>since</code> / <code>until</code> (the same window as the profile route, read through X search), <code>with_replies</code>, <code>with_reposts</code>, and <code>format</code>. With <code>format=ndjson</code> (the default, <code>application/x-ndjson</code>) each post is one line, written as the pages are read, the same object as <code>posts[]</code> of the profile JSON; the last line says why the export stopped and where to continue:</p>
<pre><code>{"type":"end","reason":"max_posts","posts":1000,"cursor":"…"}</code></pre>
<p><code>reason</code> is <code>max_posts</code>, <code>window</code> (the start of the date window was reached), <code>end_of_timeline</code> (the upstream has nothing older), <code>upstream_error</code> (a page could not be read: <code>problem</code> holds its problem document), <code>rate_limited</code> (a keyed export ran out of <code>live-key</code>) or <code>time_limit</code> (the export's time, <code>THREADMARK_EXPORT_TIME_LIMIT_S</code>, ran out; each page read keeps its own upstream deadline). <code>cursor</code> is present when there may be more: send it back as <code>cursor</code> with the same handle, window and options and the export continues with the next post, nothing skipped or repeated; anything else is 400 <a href="${link(DISCOVERY_PATHS.reliability)}#invalid-export-cursor"><code>invalid_export_cursor</code></a>. <code>warnings</code> names what could not be included or was read degraded (reposts inside a window, a stale copy of a page, a fallback search that carries no cursor). Until the first post is written the answer can still be a problem document (a missing account, a bad parameter, an upstream that fails at once); after it the status is 200 and a failure ends the stream with its end line, so every line already written stands. <code>format=json</code> answers one document, <code>{"handle","window"?,"includes","posts","end"}</code>, when the walk is over; a failure after the first post still answers 200 with the posts read and <code>end.reason</code> <code>upstream_error</code>. A client that disconnects stops the walk before the next page.</p>
<p>Pages of 100 posts are read through the cache, so a repeated or resumed export reuses them. Every export costs one point of <code>export-ip</code> (5 per 15 minutes per address) or, with a key, <code>export-key</code> (30 per 15 minutes), advertised in <code>RateLimit</code> / <code>RateLimit-Policy</code> like every quota; the export is refused with 429 <code>rate_limited</code> and <code>Retry-After</code> before anything is read. A keyed export skips the shared cache, like every keyed read, so each upstream page also costs a <code>live-key</code> point (120 a minute). An invalid <code>max_posts</code> is 400 <a href="${link(DISCOVERY_PATHS.reliability)}#invalid-max-posts"><code>invalid_max_posts</code></a>. The CLI's <code>threadmark export</code> writes the same NDJSON to a file (with progress on stderr and <code>--resume</code>) or Obsidian notes into a vault (<code>--vault DIR</code>): by default one note per thread, named after its first post and holding the author's whole self-thread, its front matter's <code>thread_length</code> counting the posts; <code>--vault-notes post</code> writes one note per post instead, each with <code>thread_position</code>, <code>thread_length</code> and a <code>thread</code> link to the note of the thread's first post, and a link to the whole thread's read. A thread whose first post lies outside the export (before <code>since</code>, or past <code>max_posts</code>) gets the posts the export holds.</p>

<h2 id="lists">X Lists</h2>
<p><code>/i/lists/{id}</code> (and <code>/api/v1/lists/{id}</code>, MCP tool <code>list_posts</code>) reads an X List: its name, description, owner and member count, then its members' latest posts, newest first, as X's list timeline shows them (replies and reposts included). <code>/i/lists/{id}/members</code> (<code>/api/v1/lists/{id}/members</code>, tool <code>list_members</code>) pages its accounts. Both page like every list route (<code>cursor</code>, <code>page</code>, <code>limit</code>, a <code>Continue →</code> link). <code>/i/lists/{id}/rss</code> and <code>/api/v1/lists/{id}/feed?type=rss|atom|json</code> are its feeds. Lists are read only with the logged-in X sessions the deployment configures: without a usable one every list route answers 503 <a href="${link(DISCOVERY_PATHS.reliability)}#list-unavailable"><code>list_unavailable</code></a> with <code>Retry-After</code> (the seconds until a parked session frees up), before any quota is charged. Each live upstream page costs one point of <code>account-ip</code> (10 per 15 minutes per address) or, with a key, <code>account-key</code> (and <code>live-key</code>); the list itself is one more read when it is not cached; cached pages are free. A private list, one no one has, or an id at or above 2<sup>63</sup> is 404 <code>not_found</code> (the last without asking any upstream); an id that is not digits is 400 <a href="${link(DISCOVERY_PATHS.reliability)}#invalid-list-id"><code>invalid_list_id</code></a>. The CLI has <code>threadmark list &lt;id&gt;</code> and <code>threadmark list-members &lt;id&gt;</code> (an x.com list URL works too).</p>

${tabsSection(link)}

<h2 id="edits">Edited posts</h2>
<p>X keeps every version of an edited post under its own id. When the provider that answered reports edits (the syndication and X providers do; the FxTwitter API does not, so a post it serves shows no edit data), the post says so: JSON carries <code>post.edits.versions</code> (every version id, the original first and the latest last; absent for a post never edited or when unknown), and Markdown and HTML add a line such as <em>Edited: 3 versions, this is the latest</em> with a link to each version. Reading an earlier version shows that version's text and says <em>Earlier version 1 of 3 of an edited post; the latest is version 3</em> with its link; the same news is in <code>warnings</code> / <code>X-Warnings</code> and in a <code>Link: &lt;…/status/{latest}&gt;; rel="latest-version"</code> header (RFC 5829), plus <code>rel="predecessor-version"</code> for the version before.</p>

<h2 id="link-previews">Link previews</h2>
<p>The HTML page of a post or a profile carries Open Graph and Twitter-card metadata: the author as title, the text (or bio and counts) as description, the first photo, video still, article cover or link-card image (else the avatar, as a small card) and, for videos, the mp4 as <code>og:video</code>. Paste a permalink (<code>/{handle}/status/{id}</code> or <code>/{handle}</code>) into a chat and its crawler gets that page even when it sends no <code>Accept</code> header, or <code>*/*</code>; everyone else keeps the Markdown default. Those routes answer with <code>Vary: Accept, X-Link-Preview</code>: a cache in front sets <code>X-Link-Preview: 1</code> (crawler) or <code>0</code> from the User-Agent and keys on it (see docs/deployment.md); without that header the User-Agent decides and the crawler's page is <code>private</code>. A crawler that asks for another type, or a <code>format</code> parameter, still decides. The <code>/api/v1</code> routes are for programs and never switch on the User-Agent. Crawlers recognised by a User-Agent token (case-insensitive):</p>
${table(
  ['Service', 'User-Agent token'],
  LINK_PREVIEW_CRAWLERS.map((c) => [esc(c.name), `<code>${esc(c.token)}</code>`]),
)}

<h2 id="paging">Paging</h2>
<p>List routes return <code>nextCursor</code>, <code>page</code> and <code>limit</code>. Send <code>nextCursor</code> back unchanged as <code>cursor</code> to the same route, query and feed. Stop when <code>nextCursor</code> is absent: a short page is not the end. A page is cut from one upstream page, so it can be short where that one ends; a profile page holds only the posts it shows (replies and reposts left out unless asked for), and upstream pages with nothing to show are passed over (up to 3 in a row per read, after which an empty page links onwards). <code>limit</code> is at most 20, <code>page</code> at most 10. A page never holds more than <code>limit</code>: when an upstream answers with more (X sends 60-70 followers per page), the next cursor continues inside that answer, which is read again from the cache, so no account is lost or repeated; <code>page=N</code> follows the same cuts.</p>

<h2 id="authentication">Authentication</h2>
<p>None is required. An optional operator-issued key, sent as <code>Authorization: Bearer &lt;key&gt;</code>, raises the search allowance on key-aware routes and is reported in <code>X-Api-Key-Status</code>. An unknown or disabled key answers 401 <a href="${link(DISCOVERY_PATHS.reliability)}#invalid-key"><code>invalid_key</code></a>.</p>

<h2 id="errors">Errors</h2>
<p>Errors are RFC 9457 problem documents with <code>code</code>, <code>detail</code>, <code>resolution</code> and <code>documentation_url</code>. Every code is listed on the <a href="${link(DISCOVERY_PATHS.reliability)}">reliability page</a>.</p>
<p id="error-format">${errorFormatRuleHtml()}</p>

<h2 id="machines">For programs and agents</h2>
<ul>
<li><a href="${link(DISCOVERY_PATHS.openapi)}">OpenAPI 3.1 description</a></li>
<li><a href="${link(DISCOVERY_PATHS.api)}">API index</a> with versioning dates and provider health</li>
<li><a href="${link(DISCOVERY_PATHS.mcp)}">MCP endpoint</a> (Streamable HTTP, stateless, POST)</li>
<li><a href="${link(DISCOVERY_PATHS.apiCatalog)}">API catalog</a> (RFC 9727) and <a href="${link(DISCOVERY_PATHS.ard)}">ard.json</a></li>
<li><a href="${link(DISCOVERY_PATHS.llms)}">llms.txt</a></li>
<li>oEmbed for this service's permalinks: <code>${esc(`${baseUrl}/oembed?url=${baseUrl}/${post}`)}</code></li>
</ul>

${renderMcpCosts()}

<h2 id="routes">Routes</h2>
${groups}
`;
  return page({ title: 'Documentation', baseUrl, path: DISCOVERY_PATHS.docs }, body);
}
