// The "Safeguards and trade-offs" part of /docs/reliability: what the service does so that no caller can use
// up or switch off what every other caller depends on, and where that deliberately costs something.
import { NEGATIVE_CACHE_S } from '../../sources/cached-reader.ts';
import { CONFIRMATION_SHARE } from '../../providers/x/confirmations.ts';
import { prose } from './html.ts';

interface Safeguard {
  id: string;
  title: string;
  /** What the service does. */
  rule: string;
  /** Why, and what it costs (the trade-off). */
  reason: string;
}

export const SAFEGUARDS: readonly Safeguard[] = [
  {
    id: 'conditional-requests-are-charged',
    title: 'A 304 costs what its 200 would have cost',
    rule: 'A conditional request (`If-None-Match`, `If-Modified-Since`) that had to make a live lookup (`nocache=true`, or a search feed whose cache entry expired) keeps its live-lookup charge even when it ends in 304. A 304 served from the cache never cost anything and still does not.',
    reason:
      '`If-None-Match: *` matches every representation, so refunding 304s made every live lookup free and let anyone drain the X sessions all users share. The upstream call has already happened when the 304 is decided. Trade-off: a poller that sends `nocache=true` pays for each poll; drop `nocache` and polls inside the cache lifetime are free.',
  },
  {
    id: 'live-lookups-per-read',
    title: 'A live lookup is charged per upstream read',
    rule: "Search lookups, date-windowed feeds and `nocache` reads charge `search-ip` (5 a minute per address) or `search-key` (30 a minute per key) once for every live upstream read they make, not once per request: a merged feed of ten accounts in a date window is up to twenty reads (each account's profile when it is not cached, and its window search), `nocache` on a merged feed re-reads every profile and timeline, and `page=N` costs one point per upstream page. Reads answered from the cache cost nothing. A request that runs out midway is answered 429 `rate_limited` with `Retry-After`; what it had read stays cached (unless it was `nocache`), so the retry pays only for the rest.",
    reason:
      'Charged once per request, one point bought up to twenty upstream calls: five requests of a ten-account windowed feed made 50 upstream searches, and five `nocache` points 100 upstream calls, all spent from the providers and X sessions every caller shares. Trade-off: an anonymous address reads at most five things live a minute, so a `nocache` feed of three or more accounts is always refused without a key; drop `nocache` (cached reads are free), use a key (`search-key`), or let a windowed merged feed fill over a few minutes.',
  },
  {
    id: 'refund-window',
    title: 'Refunds never reach the next window',
    rule: 'When one policy refuses a request, the points other policies had already taken are given back, but only inside the window they were taken in (with a quarter-second margin).',
    reason:
      'A refund that lands after the window rolled over would start the new window below zero: extra allowance for whoever timed it.',
  },
  {
    id: 'impossible-status-ids',
    title: 'Ids that cannot exist are 404 without an upstream call',
    rule: "A post, X List or account id of `0`, with a leading zero, of more than 19 digits, or at or above 2^63 names nothing the platform can have issued: it is answered 404 `not_found` at once, on every route (posts, permalinks, `url=`, lists, `/i/user/{id}` and `/api/v1/users/{id}`, oEmbed, MCP). An account id longer than the route's declared 1-20 digits stays 400 `invalid_user_id`.",
    reason:
      'Such ids make upstreams answer 400 or “not found”; they were a free way to make the service call its providers, and its logged-in X sessions, with requests that could never succeed.',
  },
  {
    id: 'negative-cache',
    title: `A “not found” is remembered for ${NEGATIVE_CACHE_S} s`,
    rule: `A 404 \`not_found\` from the providers (a missing, deleted, suspended or protected post or account, confirmed or not) is kept in the same cache as the reads themselves, in memory or in Redis, for ${NEGATIVE_CACHE_S} s (or the cache lifetime \`THREADMARK_CACHE_TTL_S\`, if shorter; with the cache off, not at all). Reading it again meanwhile is answered from there, with \`X-Cache: hit\` and no upstream call. An unconfirmed “not found” never replaces a cached copy that can still stand in for it.`,
    reason:
      'Nothing was cached for a missing account, so each read of a made-up handle asked the providers again, and the X sessions to confirm it. Trade-off: an account or post that appears within the minute (or that FxTwitter failed to find for reasons of its own) answers 404 until the entry expires; `nocache=true` asks again (at its live-lookup price).',
  },
  {
    id: 'session-calls-are-charged',
    title: 'Every call made with a logged-in X session is charged to the account allowance',
    rule: "Besides the account-backed feeds (charged per page), any read that ends up calling X with one of the deployment's sessions (a fallback when FxTwitter fails, or the confirmation of FxTwitter's “not found”) costs one point of `account-ip` (10 per 15 minutes per client address; `account-key` for a key holder) per X operation it calls, listed in `RateLimit` / `RateLimit-Policy`. Cache hits cost nothing. Once the allowance is used up, a confirmation is not asked: the answer is the other providers' 404 `not_found` with `confirmed: false` (no session spent). A read that needs a session for any other reason is 429 `rate_limited` with `Retry-After`.",
    reason:
      'The sessions are one pool every user shares, rate limited per account and operation by X. A made-up handle cost its reader one `api-ip` point but the operator one session call: 170 such reads from one address spent 122 session calls and left profile fallbacks with no session. Trade-off: an address that relies on the X fallback gets about ten such reads per 15 minutes; retrying after the window, or using a key with a larger account quota, gets more.',
  },
  {
    id: 'confirmation-share',
    title: `Confirming a “not found” may spend only ${CONFIRMATION_SHARE * 100}% of each session window`,
    rule: `Service-wide, the session calls that only confirm another provider's “not found” stop while less than ${(1 - CONFIRMATION_SHARE) * 100}% of that X operation's window is left across the sessions in rotation, as X's own rate-limit headers report it (so reads by every instance sharing the sessions count). The “not found” then stands unconfirmed (404 \`not_found\` with \`confirmed: false\`). Fallback reads of accounts and posts that exist are not bounded by this share, only by X's windows and each client's allowance.`,
    reason:
      'Per-address allowances do not stop many addresses together: without a service-wide bound, a crowd of made-up handles could still leave legitimate fallback reads with no session. Trade-off: under such a crowd (or when real reads have used most of a window) a missing account is reported unconfirmed rather than confirmed, for up to the rest of the window.',
  },
  {
    id: 'breakers-per-capability',
    title: 'Breakers count provider failures only, per capability',
    rule: 'Each provider has one circuit breaker per capability (post, conversation, profile, timeline, followers, following, search…). Network failures, 5xx and 429 answers count toward it; any other 4xx (the upstream refusing this particular request) falls through to the next provider but is not counted. `/readyz` reports a provider unusable only when every capability it has been asked for is open.',
    reason:
      'With one breaker per provider and every 400 counted, five requests for a bogus id switched FxTwitter off for every user and every kind of read. Trade-off: an upstream that starts answering every request with 4xx is not skipped by the breaker; each read still falls through to the next provider, so readers are served, at the cost of one wasted call per read.',
  },
  {
    id: 'credentials-stay-home',
    title: 'Upstream credentials never follow a redirect elsewhere',
    rule: 'Upstream redirects are still followed, but a hop to another origin (host, port or scheme, so also https → http) drops `Cookie`, `Authorization`, `Proxy-Authorization`, `X-Csrf-Token` and `X-Guest-Token`.',
    reason:
      "The X sessions' `auth_token` and `ct0` would otherwise go wherever a redirect points, over plain http if it says so. Trade-off: an X endpoint that moved to another host answers as logged out (and the read falls through to the next provider) until the operator points `THREADMARK_X_API_URL` at the new place.",
  },
  {
    id: 'linear-text-handling',
    title: 'Text handling is linear in the size of a post',
    rule: "Trimming whitespace and trailing links out of upstream text, stripping tags from a post's `source`, and closing article code blocks are plain scans, not backtracking regular expressions. A 25,000-character post made of spaces, newlines or brackets renders as fast as any other.",
    reason:
      'Patterns like `/\\s+$/` backtrack quadratically over long inner runs: one such post took up to 2 s of CPU per render, on a server that renders for everyone.',
  },
  {
    id: 'x-web-app',
    title: "X's web app is read in bounded time, from X's hosts only",
    rule: "Request signing (and discovery, with `THREADMARK_X_DISCOVER=true`) reads the `/home` page of `THREADMARK_X_WEB_URL`, its main script and its on-demand script. Each is capped at `THREADMARK_UPSTREAM_MAX_BYTES` (5 MiB by default) and read by linear scans that let other requests run every few milliseconds; values longer than X's (a script URL over 2 KiB, a key over 1 KiB, an animation over 16 KiB) are ignored. Scripts are fetched, and redirects followed, only on `THREADMARK_X_WEB_URL`'s origin and `https://abs.twimg.com`: any other address the page names is not requested, and the read fails (logged; signed operations then go out unsigned).",
    reason:
      'The page decides what is read next and how much text there is to scan: backtracking patterns let 60 KB of it hold the whole process for seconds, and a script URL of its choosing could make the service request internal addresses. Trade-off: if X moves its scripts to another host, signing (and discovery) fail until the service learns that host; the shipped query ids and `THREADMARK_X_OPERATIONS` keep working meanwhile.',
  },
  {
    id: 'client-identity',
    title: 'The client address is the one your proxy saw',
    rule: '`THREADMARK_TRUST_PROXY` takes `false`, `true` (one hop), a hop count, or a list of trusted proxy addresses and CIDR blocks; the address is read from `X-Forwarded-For` counting from the socket end. A forwarded value that is not an IP address falls back to the socket address.',
    reason:
      'The leftmost entry is whatever the client sent when the proxy appends, and a non-address value used to become a rate-limit partition of its own: either way a caller could pick a fresh allowance per request. Trade-off: `true` means one hop rather than Fastify\'s "trust all"; deployments with two proxies in front must say `2` (or list them), or every client shares the inner proxy\'s allowance.',
  },
  {
    id: 'mcp-batches',
    title: 'An MCP batch is charged per message and capped',
    rule: 'A POST to `/mcp` costs one `api-ip` point per JSON-RPC message that is not a tool call (at least one); each `tools/call` is charged by the REST route that serves it, exactly as the same read over REST. One POST carries at most 20 messages; more is 413 `batch_too_large`. Every `/mcp` response carries the RateLimit fields.',
    reason:
      'A batch of 100 messages used to be one uncharged request, and 100 tool calls in one POST could fan out to hundreds of upstream calls before any limit noticed.',
  },
  {
    id: 'keyed-budget',
    title: 'Keyed reads have a budget of upstream reads',
    rule: "A keyed request never uses the shared cache, so each upstream read it causes costs one point of the key's `live-key` policy (120 a minute, listed in `RateLimit` / `RateLimit-Policy`). Account-backed reads (search feeds, X Lists and their feeds) charge `account-ip` / `account-key` per upstream page, so `page=N` costs N (plus one for an X List itself when it is not cached). One request is bounded by its parameters (at most 1 + 10 pages, or 2 reads for each of at most 10 feed accounts), one MCP batch by its 20 messages, and all of them together by the budget.",
    reason:
      'Keyed reads were charged only for search and `nocache`: five keyed reads of a 10-account feed made 100 upstream calls, and one MCP batch of `page=10` profile reads 300. Trade-off: the shared cache would have been cheaper for everyone, but keyed responses are private by contract, so keys pay in allowance instead; a key that needs more should read fewer pages or use cursors.',
  },
  {
    id: 'export-bounds',
    title: 'An export is bounded in posts, time and count',
    rule: 'An export reads at most 5,000 posts (`max_posts`), 100 per upstream page, each page with its own upstream deadline, and stops after `THREADMARK_EXPORT_TIME_LIMIT_S` (300 s by default) with reason `time_limit` and a cursor. Pages are read only as the client consumes the stream, so a client that leaves stops the walk. Each export costs one point of `export-ip` (5 per 15 minutes) or `export-key` (30), charged before anything is read; keyed exports also pay `live-key` per page.',
    reason:
      "One export is about 50 upstream reads, far more than any other request: without its own allowance a handful of callers could spend the upstreams' capacity for everyone. Trade-off: an archive larger than 5,000 posts takes several exports (the cursor continues exactly where the last one stopped), and an address that exports often waits out the window.",
  },
  {
    id: 'admin-surface',
    title: 'Admin and operator routes are private',
    rule: "Ten wrong admin tokens from one client address within 15 minutes lock that address out of the admin routes (429 `rate_limited` with `Retry-After`, even with the right token) until the window ends. Only a presented, wrong `Authorization: Bearer` token counts: a request without one (or with another scheme) answers 401 and costs nothing. The lockout is keyed like the rate limits: an IPv4 address as is, an IPv6 address by its /64 network, and behind a proxy the client address `THREADMARK_TRUST_PROXY` lets the service see; without that setting every caller behind the proxy has the proxy's address, and the service logs a warning on the first request carrying `X-Forwarded-For` or `Forwarded` while an admin token is set. Every 401 and 429 of the admin routes says so and names the address the request counted for. Admin and operator responses (`/admin/*`, `/healthz`, `/readyz`, `/metrics`) carry no `Access-Control-Allow-Origin`.",
    reason:
      "Wrong tokens were never limited, so the token could be guessed at the full request rate; and a CORS grant let any web page read admin answers with a token it had obtained. Requests without a token guess nothing, so counting them only let a neighbour lock the operator out. The right token must wait too while an address is locked, or the lockout would not bound guessing. Trade-off: a /64 is one subscriber's network, so keying by single IPv6 addresses would hand a guesser 2^64 fresh allowances; the cost is that someone guessing from the operator's /64 (or, without `THREADMARK_TRUST_PROXY`, from behind the same proxy) locks the operator out too. An operator who mistypes the token ten times, or is locked out that way, waits out the window, uses another address, or uses the CLI on the host.",
  },
  {
    id: 'upstream-values',
    title: 'What upstreams send is input too',
    rule: "A tombstone reason other than `deleted`, `suspended`, `private`, `blocked` or `unavailable` is reported as `unavailable`, and a reason is escaped wherever it is shown. Ids from upstreams are compared as text, never used as patterns. A lone surrogate in a hashtag or any other link part is encoded as U+FFFD instead of failing the page. A handle that is not 1-15 letters, digits or `_` is shown as escaped text and never becomes a link target: a mention of it is plain text, its posts link X's handle-less `/i/status/{id}` (here and on x.com), its account links `/i/user/{id}`, and its profile page offers no followers, following or feed links.",
    reason:
      "One malformed post used to fail the whole page it was on (a profile, a feed, a search) or turn into Markdown syntax and link targets of the upstream's choosing. Trade-off: JSON keeps the upstream's `author.handle` as it came, because it is data; a consumer that builds links from it must check it against the handle pattern as the service does.",
  },
  {
    id: 'cli-terminal-output',
    title: 'The CLI shows control characters on a terminal, and passes them on to files and pipes',
    rule: 'When `threadmark` writes to a terminal, control characters in what it prints (C0 but tab and newline, DEL, C1) are replaced by visible symbols: ESC becomes ␛, and C1 characters become �. Written to a file or a pipe, the document is byte for byte what the service returned.',
    reason:
      "Post text, an article's code block for instance, can carry ESC sequences a terminal would obey: recolour or hide the rest of the output, move the cursor, retitle the window. Trade-off: text copied from the terminal has ␛ where the post had ESC; redirect to a file (or pipe) to get the exact bytes.",
  },
  {
    id: 'cli-closed-pipe',
    title: 'The CLI stops, quietly, when its reader goes away',
    rule: 'When whatever reads `threadmark` output closes it early (`threadmark followers bigaccount --all | head -2`), the command ends at once: the request in flight is dropped, no further page is read, nothing is printed on stderr, and the exit code is 0. `--all` writes Markdown pages as they arrive, so the reader can leave after the first.',
    reason:
      'Node ignores SIGPIPE, so without this the next write would fail with a stack trace (exit 1) while paging went on for nobody, spending the upstream and the rate limits. Unix filters die of SIGPIPE (status 141); exit 0 is chosen so that a pipeline under `set -o pipefail` does not fail because its reader had seen enough. Trade-off: a script cannot tell from the exit code that output was cut; `--all --format json` prints its one object at the end, so it reads every page before anything can be cut.',
  },
];

export function renderSafeguards(): string {
  const items = SAFEGUARDS.map(
    (s) => `<section id="${s.id}">
<h3>${prose(s.title)}</h3>
<p>${prose(s.rule)}</p>
<p><strong>Why:</strong> ${prose(s.reason)}</p>
</section>`,
  ).join('\n');
  return `<h2 id="safeguards">Safeguards and trade-offs</h2>
<p>What keeps one caller from using up or switching off what every caller depends on, and what each choice costs.</p>
${items}`;
}
