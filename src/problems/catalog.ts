// The one declaration of every public error code. Status, title, resolution and the docs anchor are all
// derived from here: the problem mapper, OpenAPI, /docs/reliability and the MCP errors read this table.

export interface CatalogEntry {
  status: number;
  title: string;
  resolution: string;
}

export const CATALOG = {
  missing_url: {
    status: 400,
    title: 'Missing url parameter',
    resolution: 'Pass a status URL in `url`, or use the status permalink route /{handle}/status/{id}.',
  },
  invalid_url: {
    status: 400,
    title: 'Invalid X status URL',
    resolution: 'Pass a valid public status URL such as https://x.com/{handle}/status/{id}.',
  },
  unsupported_host: {
    status: 400,
    title: 'Unsupported host',
    resolution: 'Only x.com and twitter.com URLs (with or without www. or mobile.) are accepted.',
  },
  invalid_path: {
    status: 400,
    title: 'Not a status permalink',
    resolution:
      "The URL path must be shaped /{handle}/status/{id} (or X's handle-less /i/status/{id} or /i/web/status/{id}).",
  },
  invalid_params: {
    status: 400,
    title: 'Invalid handle or status id',
    resolution: '`handle` must be 1-15 word characters and `id` numeric; pass both together.',
  },
  invalid_date: {
    status: 400,
    title: 'Invalid date window',
    resolution:
      'Give `since` and `until` as ISO 8601 dates (2026-03-01) or date-times (2026-03-01T12:00:00Z), with since earlier than until.',
  },
  invalid_user_id: {
    status: 400,
    title: 'Invalid account id',
    resolution: 'Use the numeric account id (1-20 digits), e.g. /i/user/783214.',
  },
  invalid_list_id: {
    status: 400,
    title: 'Invalid list id',
    resolution: 'Use the numeric id of an X List (digits only), e.g. /i/lists/1900000000000090001.',
  },
  invalid_handle: {
    status: 400,
    title: 'Invalid handle',
    resolution: 'Use 1-15 letters, digits or underscores, without a leading @.',
  },
  invalid_resource: {
    status: 400,
    title: 'Unsupported browse resource',
    resolution: 'Use `resource` = profile, search, followers or following.',
  },
  invalid_format: {
    status: 400,
    title: 'Unsupported format',
    resolution: 'Use markdown, obsidian or json; browse routes accept markdown or json only.',
  },
  invalid_thread: {
    status: 400,
    title: 'Invalid thread parameter',
    resolution: 'Use off, full, conversation, or a number from 2 to 100.',
  },
  invalid_userinfo: { status: 400, title: 'Invalid userinfo parameter', resolution: 'Use off, author or all.' },
  invalid_context: { status: 400, title: 'Invalid context parameter', resolution: 'Use full or thread.' },
  invalid_replies: { status: 400, title: 'Invalid replies parameter', resolution: 'Use top, recent or off.' },
  invalid_mode: {
    status: 400,
    title: 'Invalid mode parameter',
    resolution: 'On /api/convert, `mode` is markdown, json or html (a legacy spelling of the representation).',
  },
  missing_query: { status: 400, title: 'Missing search query', resolution: 'Pass the search terms in `q`.' },
  invalid_body: {
    status: 400,
    title: 'Invalid JSON body',
    resolution: 'The body must be a well-formed JSON object, or omitted.',
  },
  invalid_source: {
    status: 400,
    title: 'Not a source that can be watched',
    resolution:
      'Name the source by its path on this service: /{handle} (or /{handle}/media, /{handle}/with_replies), /search?q=…, /{handle}/status/{id} or /i/lists/{id}, with feed filters as query parameters.',
  },
  invalid_callback: {
    status: 400,
    title: 'Callback refused',
    resolution:
      'Give an absolute https URL (http is accepted for WebSub) without credentials whose host resolves only to public addresses; it is never contacted when refused.',
  },
  invalid_hub_request: {
    status: 400,
    title: 'Invalid WebSub hub request',
    resolution:
      'POST form-encoded hub.mode (subscribe or unsubscribe), hub.topic (a feed URL of this service) and hub.callback; hub.lease_seconds and hub.secret (at most 200 bytes) are optional.',
  },
  key_required: {
    status: 401,
    title: 'API key required',
    resolution: 'Send `Authorization: Bearer <key>` with a key issued by the operator.',
  },
  too_many_watches: {
    status: 409,
    title: 'Too many watches',
    resolution: 'Delete a watch (DELETE /api/v1/watches/{id}) or ask the operator for a higher limit.',
  },
  too_many_subscriptions: {
    status: 409,
    title: 'Too many WebSub subscriptions',
    resolution:
      'An address holds a bounded number of live subscriptions: unsubscribe one (hub.mode=unsubscribe) or let one lapse; renewing one it holds is always accepted.',
  },
  invalid_key: {
    status: 401,
    title: 'Invalid or disabled API key',
    resolution: 'Drop the Authorization header or obtain a replacement key; do not retry the same key.',
  },
  unauthorized: { status: 401, title: 'Unauthorized', resolution: 'This is a private route.' },
  not_found: {
    status: 404,
    title: 'Not found',
    resolution: 'The post or profile is not public, was deleted, is protected or does not exist.',
  },
  route_not_found: {
    status: 404,
    title: 'API route not found',
    resolution: 'Check the path against /openapi.json or /docs.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    resolution: 'Use GET, HEAD or OPTIONS; the Allow header lists the accepted methods.',
  },
  not_acceptable: {
    status: 406,
    title: 'No acceptable representation',
    resolution: 'Accept must allow text/markdown, application/json or text/html, or be omitted.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limit exceeded',
    resolution: 'Wait Retry-After seconds before retrying; cached responses do not count.',
  },
  internal_error: { status: 500, title: 'Unexpected error', resolution: 'Retry with exponential backoff.' },
  upstream_error: { status: 502, title: 'Upstream provider error', resolution: 'Retry with backoff.' },
  search_unavailable: {
    status: 503,
    title: 'Search temporarily unavailable',
    resolution: 'Wait Retry-After seconds; the photos, videos and users feeds need configured sessions.',
  },
  list_unavailable: {
    status: 503,
    title: 'Lists temporarily unavailable',
    resolution:
      'Wait Retry-After seconds; X Lists are read with logged-in sessions, which the deployment must have configured.',
  },
  read_unavailable: {
    status: 503,
    title: 'Read temporarily unavailable',
    resolution:
      'Wait Retry-After seconds; quotes, reposts and the media tab need FxTwitter or X with logged-in sessions among the configured providers.',
  },
  admin_unconfigured: {
    status: 503,
    title: 'Admin is not configured',
    resolution: 'Private route, not part of the public API.',
  },
  key_store_unavailable: {
    status: 503,
    title: 'Key store unavailable',
    resolution:
      'Private route, not part of the public API: the key store (SQLite or Redis) did not answer; retry after Retry-After.',
  },
  batch_too_large: {
    status: 413,
    title: 'Too many messages in one batch',
    resolution: 'Send at most 20 JSON-RPC messages in one POST to /mcp; split larger batches.',
  },
  not_ready: {
    status: 503,
    title: 'Instance not ready',
    resolution:
      'Operator route (/readyz), not part of the public API: `checks` says which dependency is missing; route traffic to another instance.',
  },
  // Additions inside v1 (new codes are additive; documented in /docs/reliability and OpenAPI).
  invalid_cursor: {
    status: 400,
    title: 'Invalid cursor',
    resolution:
      'Send back a nextCursor unchanged, only to the route, query and feed that issued it; or drop it to start over.',
  },
  invalid_page: {
    status: 400,
    title: 'Invalid page or limit',
    resolution:
      '`page` is a whole number from 1 (values above 10 are clamped); `limit` a whole number from 1 (values above 20 are clamped).',
  },
  invalid_feed: { status: 400, title: 'Invalid search feed', resolution: 'Use latest, top, photos, videos or users.' },
  invalid_query: { status: 400, title: 'Invalid search query', resolution: 'Search terms are at most 512 characters.' },
  invalid_media: {
    status: 400,
    title: 'Invalid media parameter',
    resolution: 'Use media=local or media=remote, with format=zip.',
  },
  invalid_media_url: {
    status: 400,
    title: 'Not a media address of this service',
    resolution:
      'Use a /media/ address exactly as this service wrote it in a feed, page or JSON body; it only ever names media of ' +
      'pbs.twimg.com, video.twimg.com or abs.twimg.com.',
  },
  invalid_media_signature: {
    status: 403,
    title: 'Unsigned or altered media address',
    resolution:
      'Media addresses carry `exp` and `sig` as this service issued them; read the post or feed again for a fresh one.',
  },
  media_url_expired: {
    status: 403,
    title: 'Expired media address',
    resolution: 'Signed media addresses expire; read the post or feed again for a fresh one.',
  },
  media_too_large: {
    status: 502,
    title: 'Media file too large',
    resolution: 'The file is over the size this service proxies (THREADMARK_MEDIA_MAX_MB); open the original URL on X.',
  },
  media_proxy_busy: {
    status: 503,
    title: 'Media proxy busy',
    resolution:
      'Wait Retry-After seconds: the proxy is passing on as many bytes as it holds at once (THREADMARK_MEDIA_INFLIGHT_MB); or open the original URL on X.',
  },
  media_proxy_disabled: {
    status: 404,
    title: 'Media proxy not enabled',
    resolution: 'This deployment does not proxy media (THREADMARK_MEDIA_PROXY is off); use the original URL on X.',
  },
  invalid_note_template: {
    status: 400,
    title: 'Invalid note template',
    resolution:
      'note_tags and note_cssclasses take up to 20 comma-separated names (letters, digits, _ - and / for tags); ' +
      'note_fields takes up to 20 comma-separated key=value pairs whose keys start with a letter and are not fields ' +
      'the note writes itself (id, url, author, tags, cssclasses, fetched, the metrics...).',
  },
  invalid_flag: {
    status: 400,
    title: 'Invalid boolean parameter',
    resolution: 'Boolean parameters take true, 1, yes, false or 0.',
  },
  bad_request: {
    status: 400,
    title: 'Malformed HTTP request',
    resolution:
      'Send a well-formed HTTP/1.1 request: a percent-encoded target without spaces or control characters, path segments of at most 1000 characters, and valid header syntax.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    resolution: 'Send the whole request promptly; the connection is closed.',
  },
  request_too_large: {
    status: 431,
    title: 'Request too large',
    resolution:
      'Keep the request line and headers under 16 KB (431) and a request body (MCP, admin) under 1 MiB (413); search terms are at most 512 characters.',
  },
  invalid_since_id: {
    status: 400,
    title: 'Invalid since_id',
    resolution:
      '`since_id` is a numeric status id (the newest id you already have); it applies to posts, so not to the users search feed.',
  },
  invalid_hashtag: {
    status: 400,
    title: 'Invalid hashtag',
    resolution:
      'A hashtag is 1-100 letters, digits or underscores with at least one non-digit, without the leading #, e.g. /hashtag/caching.',
  },
  invalid_cashtag: {
    status: 400,
    title: 'Invalid cashtag',
    resolution:
      'A cashtag is 1-6 letters, optionally followed by . or _ and 1-2 letters, without the leading $, e.g. /cashtag/TSLA or /cashtag/BRK.A.',
  },
  trends_unavailable: {
    status: 503,
    title: 'Trends unavailable',
    resolution:
      'Wait Retry-After seconds; trends are read from FxTwitter or from X with logged-in sessions, one of which the deployment must have among its providers.',
  },
  trends_place_unsupported: {
    status: 501,
    title: 'Trends by place are not offered',
    resolution:
      "Leave out `woeid` and `place`: the upstreams give one trending list (X's Explore), not trends of a chosen place.",
  },
  invalid_lang: {
    status: 400,
    title: 'Invalid language tag',
    resolution:
      '`translate` (on the post reads also its deprecated alias `lang`) is a BCP 47 tag of a known language, at most 35 characters: a 2-3 letter language code and optional subtags, e.g. en, ja, pt-BR, zh-Hant-TW.',
  },
  invalid_budget: {
    status: 400,
    title: 'Invalid budget',
    resolution:
      '`budget` is a whole number of characters from 500 to 200000, and at least what the requested post (or a list page without its items) needs: the detail says how many.',
  },
  invalid_dimension: {
    status: 400,
    title: 'Invalid maxwidth or maxheight',
    resolution: 'oEmbed maxwidth and maxheight are whole numbers of pixels, at least 1.',
  },
  invalid_feed_option: {
    status: 400,
    title: 'Invalid feed parameter',
    resolution:
      'On feed routes, `type` is rss, atom or json; `kind` is posts, media or with_replies; `threads` is separate or grouped.',
  },
  invalid_filter: {
    status: 400,
    title: 'Invalid feed filter',
    resolution:
      'On feeds and on profile, search and list reads, `include` and `exclude` take words or "quoted phrases" (at most 20, each at most 100 characters, never both including and excluding one term); `media` is only or none; `min_likes` and `min_reposts` are whole numbers; `lang` is language tags separated by commas (e.g. en,pt-BR); `title` is text or author. Each parameter once.',
  },
  invalid_max_posts: {
    status: 400,
    title: 'Invalid max_posts',
    resolution:
      '`max_posts` is a whole number of posts from 1 to 5000 (default 1000); export again from the cursor for more.',
  },
  invalid_export_cursor: {
    status: 400,
    title: 'Invalid export cursor',
    resolution:
      "Send the `cursor` of an export's final line unchanged, with the same handle, since, until, with_replies and with_reposts; or drop it to start over.",
  },
  too_many_handles: {
    status: 400,
    title: 'Too many handles',
    resolution: 'A multi-account feed takes at most 10 handles, separated by commas (repeats count once).',
  },
} as const satisfies Record<string, CatalogEntry>;

export type CatalogCode = keyof typeof CATALOG;

/** Contract: provider failure codes share the resolution of upstream_error. */
export const PROVIDER_FAILURE_KINDS = ['error', 'empty', 'network'] as const;
export type ProviderFailureKind = (typeof PROVIDER_FAILURE_KINDS)[number];

/** `<provider>_error|_empty|_network`, or `all_providers_failed` when every provider in the chain failed. */
export type ProviderCode = `${string}_${ProviderFailureKind}` | 'all_providers_failed';

/** Every code a problem document can carry: a misspelt one fails to compile instead of answering 500. */
export type ProblemCode = CatalogCode | ProviderCode;

export function isCatalogCode(code: string): code is CatalogCode {
  return Object.hasOwn(CATALOG, code);
}

export function providerCode(provider: string, kind: ProviderFailureKind): ProviderCode {
  return `${provider}_${kind}`;
}

const PROVIDER_TITLES: Record<ProviderFailureKind, string> = {
  error: 'Upstream provider answered with an error',
  empty: 'Upstream provider returned nothing usable',
  network: 'Upstream provider could not be reached',
};

export function providerCodeEntry(code: ProviderCode, search: boolean): CatalogEntry | undefined {
  const status = search ? 503 : 502;
  if (code === 'all_providers_failed') {
    return { status, title: 'All upstream providers failed', resolution: CATALOG.upstream_error.resolution };
  }
  const m = /^([a-z0-9]+)_(error|empty|network)$/.exec(code);
  if (!m) return undefined;
  return { status, title: PROVIDER_TITLES[m[2] as ProviderFailureKind], resolution: CATALOG.upstream_error.resolution };
}

export function anchorFor(code: string): string {
  return code.replace(/_/g, '-');
}
