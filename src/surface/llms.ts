// GET /llms.txt: a short Markdown guide for LLM agents (llms.txt convention: title, summary, linked sections).
import { ERROR_FORMAT_RULE } from './error-format.ts';
import type { RouteDef } from '../contract/route-decl.ts';
import { EXAMPLE, exampleUrl } from './examples.ts';
import { DISCOVERY_PATHS, absolute } from './paths.ts';
import { SERVICE_DESCRIPTION, SERVICE_NAME } from './service-info.ts';

export function buildLlmsTxt(routes: readonly RouteDef[], baseUrl: string): string {
  const link = (path: string) => absolute(baseUrl, path);
  // Feeds are one line per surface: their paths say what each is, and the guide must stay short.
  const isFeed = (r: RouteDef) => /\/(rss|feed)$/.test(r.decl.path);
  const feedLine = (surface: string, what: string) =>
    `- GET ${routes
      .filter((r) => r.decl.surface === surface && isFeed(r))
      .map((r) => r.decl.path)
      .join(', ')}: ${what}`;
  const routeLines = (surface: string) =>
    routes
      .filter((r) => r.decl.surface === surface && !isFeed(r))
      .map(({ decl }) =>
        // Permalinks are the platform's own URL shapes: the path says enough, and the guide must stay short.
        surface === 'permalink' || decl.noExample
          ? `- GET ${decl.path}: ${decl.summary.replace(/ \(permalink[^)]*\)$/, '')}`
          : `- [GET ${decl.path}](${exampleUrl(decl, baseUrl)}): ${decl.summary}${decl.mcpTool ? ` (MCP tool \`${decl.mcpTool}\`)` : ''}`,
      );
  const tools = routes.flatMap((r) => (r.decl.mcpTool ? [`\`${r.decl.mcpTool}\``] : []));
  return [
    `# ${SERVICE_NAME}`,
    '',
    `> ${SERVICE_DESCRIPTION} Every route is GET and needs no key.`,
    '',
    '## How to read things',
    '',
    `- A post, its thread and replies: replace the host of an x.com link, e.g. ${link(`/${EXAMPLE.handle}/status/${EXAMPLE.postId}`)}, or call ${link('/api/v1/posts')}?url=<x.com status URL>.`,
    "- Thread control: `thread=off` (the post alone), `thread=full` (default), or a number 2-100; `context=full` (default) shows a reply's ancestors, root first (at most 20), `context=thread` keeps only the author's own chain; `replies=top|recent|off`.",
    `- A profile and its latest original posts: ${link(`/${EXAMPLE.handle}`)} or ${link(`/api/v1/profiles/${EXAMPLE.handle}`)}.`,
    `- Numeric ids: ${link(`/i/status/${EXAMPLE.postId}`)} (or /i/web/status/<id>) reads a post without its handle; ${link(`/i/user/${EXAMPLE.userId}`)} or ${link(`/api/v1/users/${EXAMPLE.userId}`)} reads a profile by account id and names its current handle. url= accepts pasted x.com/i/status/<id> links too.`,
    `- Any X or Nitter link: put it after the host, e.g. ${link(`/https://x.com/${EXAMPLE.handle}/status/${EXAMPLE.postId}`)}; profile tabs, /quotes, /retweets, /hashtag/<tag>, a search for one #tag or $TAG and /explore/tabs/trending read as their pages here. The read_post tool and the CLI's read take a post's mirror or Nitter link too; url= takes x.com and twitter.com links only (another host: 400 \`unsupported_host\`, naming the same post's x.com link).`,
    '- Date windows: `since` and `until` (ISO 8601, UTC unless an offset is given; since ≤ time < until) on the profile and search routes and their feeds read that period straight away, and only it; a bad or reversed window is 400 `invalid_date`. A windowed profile read is a live search lookup.',
    "- Profile options: an account's posts include the continuations of its own threads (its replies to itself); `with_replies=true` adds its replies to other people and `with_reposts=true` its reposts, labelled (off by default).",
    `- Exports: ${link(`/api/v1/profiles/${EXAMPLE.handle}/posts`)}?max_posts=1000 (1-5000; since, until, with_replies, with_reposts as on the profile) streams NDJSON, one post object per line as pages are read, ending with {"type":"end","reason":…,"posts":N,"cursor":"…"} (the reasons: ${link(DISCOVERY_PATHS.docs)}#exports); send \`cursor\` back with the same options to continue. \`format=json\` gives one document {posts, end}. Exports have their own allowance (export-ip 5 per 15 min; export-key 30).`,
    `- Followers / following: ${link(`/${EXAMPLE.handle}/followers`)}, ${link(`/${EXAMPLE.handle}/following`)}.`,
    `- Quotes / reposts of a post: ${link(`/${EXAMPLE.handle}/status/${EXAMPLE.postId}/quotes`)} (feed: /quotes/rss), /reposts.`,
    `- Profile tabs: ${link(`/${EXAMPLE.handle}/media`)}, /articles (each Article whole; feed: /articles/rss); no serving provider is 503 \`read_unavailable\`.`,
    `- Account facts: ${link(`/${EXAMPLE.handle}/about`)}: based in, joined, verified since, username changes, affiliate badge; what no upstream gave is listed as \`unknown\`.`,
    `- Search: ${link('/api/v1/search')}?q=<terms>&feed=latest|top|photos|videos|users. Hashtags and cashtags: ${link('/hashtag/caching')}, ${link('/cashtag/TSLA')} (same feeds but users; /rss feeds). Trends: ${link('/trends')} (cached 120 s).`,
    `- X Lists: ${link('/i/lists/<id>')} (latest posts of the members), /members (accounts), /rss; account-backed, so 503 \`list_unavailable\` when the deployment has no X session.`,
    '- Output: compact Markdown by default; `full=true` adds metrics and timestamps; `format=json` gives JSON with the Markdown inside; `format=obsidian` (posts only) gives an Obsidian note.',
    '- Context budget: `budget=<characters>` (500-200000) on the posts, profile, followers, following and search routes, every MCP tool and the CLI (`--budget`) bounds the Markdown: the lowest-ranked replies give way first, never the requested post, never a post cut mid-text. What was left out is in `X-Warnings` and a closing `*Budget: left out …*` line; JSON holds only what the Markdown kept. If even the smallest answer does not fit, 400 `invalid_budget` says how many characters it needs.',
    '- Polling for what is new: pass the newest post id you have as `since_id` (profile, search, feeds, the matching tools and CLI commands): only newer posts come back; an empty page means nothing is new.',
    '- Push: POST /api/v1/watches (API key; JSON {"source":"/alice_dev","callback":"https://…"}) delivers new posts signed per Standard Webhooks; feeds name their WebSub hub, /api/v1/hub.',
    '- Paging: send `nextCursor` back as `cursor` to the same route and query; stop when `nextCursor` is absent (a short page is not the end). Markdown lists end with a `Continue →` link.',
    '- Errors are JSON problem documents with `code`, `detail` and `resolution`; on 429 or 503 wait `Retry-After` seconds.',
    `- ${ERROR_FORMAT_RULE}`,
    '- Do not parse the Markdown as data; use `format=json` for fields.',
    "- Translations: `translate=<BCP 47 tag>` on every read that lists posts (posts, profiles, search, hashtags, cashtags, X Lists, quotes, media, Articles, every feed, exports; the MCP tools' `translate`, CLI --translate) adds each post's translation beside its text (JSON `translation`, naming `service` and `provider`: fxtwitter, or x with X sessions, where one page read in the language translates the page); bad tag: 400 `invalid_lang`. `lang` filters posts by language; on the post routes it is a deprecated alias of `translate` (Deprecation and Sunset headers).",
    '- Edited posts: JSON `post.edits.versions` lists every version id (original first, latest last); reading an earlier version says so in Markdown and `warnings` and names the latest.',
    `- Link previews: post and profile permalinks carry Open Graph metadata in their HTML page, which chat-app crawlers get without asking (${link(DISCOVERY_PATHS.docs)}#link-previews).`,
    '',
    '## Versioned routes (v1)',
    '',
    ...routeLines('v1'),
    feedLine(
      'v1',
      'feeds, `type=rss|atom|json`; on every feed `include`, `exclude` (words, "phrases"), `media=only|none`, `min_likes`, `min_reposts`, `lang` (filter), `title=author` (all but title on profile, search and list reads too), and `translate`; /api/v1/posts/{id}/feed is a conversation as it grows',
    ),
    '',
    '## Permalinks (stable, unversioned)',
    '',
    ...routeLines('permalink'),
    feedLine('permalink', 'RSS feeds (Nitter paths)'),
    '',
    '## Tools and descriptions',
    '',
    `- [MCP endpoint](${link(DISCOVERY_PATHS.mcp)}): Streamable HTTP, stateless; POST JSON-RPC. Tools: ${tools.join(', ') || 'none'}; each returns the Markdown as text and the JSON representation without its markdown as structuredContent (see its outputSchema; /docs#mcp gives the cost per result). Local agents can run \`threadmark mcp\` instead (MCP over stdio, same tools).`,
    `- [OpenAPI 3.1](${link(DISCOVERY_PATHS.openapi)}): every route, parameter and error code.`,
    `- [API index](${link(DISCOVERY_PATHS.api)}): links, versioning dates, provider health.`,
    '',
    '## Optional',
    '',
    `- [Documentation](${link(DISCOVERY_PATHS.docs)})`,
    `- [Error codes](${link(DISCOVERY_PATHS.reliability)})`,
    `- [Versioning policy](${link(DISCOVERY_PATHS.versioning)}): /api/convert and /api/browse are deprecated; use the v1 routes.`,
    '',
  ].join('\n');
}
