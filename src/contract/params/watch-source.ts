// A watched source as the caller names it: a path on this service (or a full URL on its base), the same paths the
// reads and feeds answer on, with the feed filters as query parameters. Parsed into the read behind it (shared by
// every follower of that read), the caller's filter, and a normalised name for the watch.
import { z } from 'zod';
import { isNoFilter, type FeedFilter } from '../../domain/feed-filters.ts';
import { FEED_KINDS, type FeedKind } from '../../domain/feeds.ts';
import { MAX_QUERY_CHARS } from '../../domain/search.ts';
import type { SearchFeed } from '../../domain/capabilities.ts';
import type { WatchTarget } from '../../domain/watch.ts';
import { InputRefusal } from '../refusal.ts';
import { HANDLE_RE, isReservedPath, STATUS_ID_RE } from './common.ts';
import { filterOf, filterParams, filterShape } from './feed-filters.ts';
import { validationRefusal } from '../route-decl.ts';

export interface ParsedSource {
  target: WatchTarget;
  filter: FeedFilter;
  /** The normalised path with its filters: what the watch reports as its source. */
  source: string;
}

const SEARCH_FEEDS = ['latest', 'top', 'photos', 'videos'] as const;
const LIST_ID_RE = /^[0-9]{1,20}$/;
/** Parameters a source may carry besides the filters (the feed's format ones are accepted and ignored). */
const sourceQuery = z
  .object({
    q: z.string().optional(),
    feed: z.enum(SEARCH_FEEDS, { error: 'invalid_source' }).optional(),
    kind: z.enum(FEED_KINDS, { error: 'invalid_source' }).optional(),
    type: z.string().optional(),
    ...filterShape,
  })
  .strict();

const refuse = (detail: string): never => {
  throw new InputRefusal('invalid_source', detail);
};

function handleOf(raw: string): string {
  if (!HANDLE_RE.test(raw) || isReservedPath(raw)) refuse(`"${raw.slice(0, 40)}" is not an account handle.`);
  return raw;
}

/** Control characters (NUL included) name nothing on this service, and a durable store may refuse to keep them. */
export function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** A path segment decoded, or a refusal when its percent-encoding is malformed or it decodes to a control character. */
function decodeSegment(raw: string): string {
  let out: string;
  try {
    out = decodeURIComponent(raw);
  } catch {
    return refuse('The source has a malformed percent-encoding.');
  }
  if (hasControlChar(out)) refuse('The source holds a control character.');
  return out;
}

/** The route a path names, or a refusal: segments after stripping a feed suffix (/rss, /feed). */
function targetOf(segments: string[], q: z.output<typeof sourceQuery>): WatchTarget {
  const s = segments.map(decodeSegment);
  const [a, b, c, d, e] = s;
  if (a === 'api' && b === 'v1') {
    if (c === 'profiles' && d && e === 'feed' && s.length === 5)
      return { kind: 'profile', handle: handleOf(d), feed: q.kind ?? 'posts' };
    if (c === 'search' && d === 'feed' && s.length === 4) return searchTarget(q);
    if (c === 'lists' && d && e === 'feed' && s.length === 5) return listTarget(d);
    if (c === 'posts' && d && e === 'feed' && s.length === 5) return threadTarget('i', d);
    return refuse('This /api path is not a feed or read that can be watched.');
  }
  const rss = s.at(-1) === 'rss' ? s.slice(0, -1) : s;
  const [x, y, z1, w] = rss;
  if (x === 'search' && rss.length === 1) return searchTarget(q);
  if (x === 'i' && y === 'lists' && z1 && rss.length === 3) return listTarget(z1);
  if (x && y === 'status' && z1 && rss.length === 3 && w === undefined) return threadTarget(x, z1);
  if (x && rss.length === 1) return { kind: 'profile', handle: handleOf(x), feed: 'posts' };
  if (x && (y === 'media' || y === 'with_replies') && rss.length === 2)
    return { kind: 'profile', handle: handleOf(x), feed: y satisfies FeedKind };
  return refuse('The path names no account, search, post or list.');
}

function searchTarget(q: { q?: string; feed?: SearchFeed }): WatchTarget {
  const terms = (q.q ?? '').trim().replace(/\s+/g, ' ');
  if (!terms) refuse('A search source needs its terms in `q`.');
  if (terms.length > MAX_QUERY_CHARS) refuse(`Search terms are at most ${MAX_QUERY_CHARS} characters.`);
  return { kind: 'search', q: terms, feed: q.feed ?? 'latest' };
}

function listTarget(id: string): WatchTarget {
  if (!LIST_ID_RE.test(id)) refuse('A list id is digits only.');
  return { kind: 'list', id };
}

function threadTarget(handle: string, id: string): WatchTarget {
  if (!STATUS_ID_RE.test(id) || id.length > 20) refuse('A status id is digits only.');
  return { kind: 'thread', id, handle: handle === 'i' ? 'i' : handleOf(handle) };
}

function pathOf(t: WatchTarget): { path: string; params: Record<string, string | undefined> } {
  switch (t.kind) {
    case 'profile':
      return { path: `/${t.handle}${t.feed === 'posts' ? '' : `/${t.feed}`}`, params: {} };
    case 'search':
      return { path: '/search', params: { q: t.q, feed: t.feed === 'latest' ? undefined : t.feed } };
    case 'list':
      return { path: `/i/lists/${t.id}`, params: {} };
    case 'thread':
      return { path: `/${t.handle}/status/${t.id}`, params: {} };
  }
}

/**
 * A WebSub topic as it is stored, verified and rendered: the URL as WHATWG URL reads it, without its fragment (which
 * names nothing on the server, and which the service's own rendering would read as part of the query).
 */
export function canonicalTopic(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('`hub.topic` is not an absolute URL.');
  }
  url.hash = '';
  return url.href;
}

/** `raw`: a path (or a URL on `baseUrl`); a problem from the catalog when it names nothing watchable. */
export function parseSource(raw: string, baseUrl: string): ParsedSource {
  const text = raw.startsWith(baseUrl + '/') ? raw.slice(baseUrl.length) : raw;
  if (!text.startsWith('/') || text.startsWith('//') || text.length > 2048)
    refuse('Name the source by its path on this service, such as /alice_dev or /search?q=caching.');
  if (hasControlChar(text)) refuse('The source holds a control character.');
  const url = new URL(text, 'http://source.invalid');
  // URLSearchParams turns a malformed escape into U+FFFD instead of failing: a query that does not decode is refused.
  for (const part of url.search.slice(1).split('&')) decodeSegment(part.replaceAll('+', ' '));
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (k in query) refuse(`\`${k}\` is given twice.`);
    if (hasControlChar(k + v)) refuse(`\`${k.slice(0, 40)}\` holds a control character.`);
    query[k] = v;
  }
  const parsed = sourceQuery.safeParse(query);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.code === 'unrecognized_keys') refuse(`A source takes no \`${issue.keys[0]}\` parameter.`);
    throw validationRefusal(issue, 'query');
  }
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments.length === 0) refuse('The path names no account, search, post or list.');
  const target = targetOf(segments, parsed.data);
  const filter = filterOf(parsed.data);
  const { path, params } = pathOf(target);
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...params, ...(isNoFilter(filter) ? {} : filterParams(parsed.data)) }))
    if (v !== undefined && k !== 'title') qs.set(k, v);
  const s = qs.toString();
  return { target, filter, source: s ? `${path}?${s}` : path };
}
