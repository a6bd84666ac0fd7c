// The one reader of links people paste: an x.com / twitter.com address (or a mirror's: FxTwitter, VxTwitter,
// Nitter-style hosts), with or without a scheme, turned into what it names on this service. The `url` parameter
// of /api/v1/posts, URL-prefix reads (`/https://x.com/…`), the home page's form and the CLI all read links here,
// so they accept and refuse the same shapes.
import { HANDLE_RE } from './handles.ts';

/** What a pasted link names. */
export type LinkTarget =
  | { kind: 'post'; handle?: string; id: string }
  | { kind: 'profile'; handle: string; tab?: 'followers' | 'following' | 'with_replies' | 'media' }
  | { kind: 'feed'; handle: string; tab?: 'with_replies' | 'media' }
  | { kind: 'user'; id: string }
  | { kind: 'list'; id: string; members: boolean; feed: boolean }
  | { kind: 'search'; q?: string; feed?: string; rss: boolean };

/** A link that names nothing readable here; `code` is the catalog code the edge answers with. */
export interface LinkRefusal {
  code: 'invalid_url' | 'unsupported_host' | 'invalid_path';
  detail: string;
}

/**
 * Which hosts a caller accepts: `platform` is the two hosts of the contract's `url` parameter; `mirrors` adds the
 * front-ends whose paths copy the platform's, for prefix reads and the home page.
 */
export type HostPolicy = 'platform' | 'mirrors';

const PLATFORM_HOSTS = ['x.com', 'twitter.com'];
/** Front-ends that keep the platform's paths: a link to one of them names the same post, profile, list or search. */
const MIRROR_HOSTS = ['fxtwitter.com', 'vxtwitter.com', 'fixupx.com', 'fixvx.com', 'twittpr.com', 'xcancel.com'];
const HOST_PREFIXES: Record<HostPolicy, string[]> = {
  platform: ['www.', 'mobile.'],
  mirrors: ['www.', 'mobile.', 'm.', 'd.'],
};
/** Trailing path pieces the platform appends to a permalink (media viewers, analytics, quotes...). */
const TRAILERS = new Set(['photo', 'video', 'analytics', 'quotes', 'retweets', 'likes', 'history', 'media_tags']);
/** X's search tabs (`f=`) and Nitter's, as this service's search feeds. */
const SEARCH_TABS: Record<string, string> = {
  live: 'latest',
  top: 'top',
  user: 'users',
  users: 'users',
  media: 'photos',
  tweets: 'latest',
};
const STATUS_ID = /^[0-9]+$/;

/** The accepted hosts, for the refusal's detail and the docs. */
export function acceptedHosts(policy: HostPolicy): string[] {
  return policy === 'platform' ? [...PLATFORM_HOSTS] : [...PLATFORM_HOSTS, ...MIRROR_HOSTS, 'nitter.*'];
}

function hostDetail(policy: HostPolicy): string {
  const list = acceptedHosts(policy).join(', ');
  const prefixes = HOST_PREFIXES[policy].join(', ');
  return `Only links to ${list} (optionally ${prefixes}) are read here.`;
}

/** The host without the prefixes the platform and its mirrors serve the same pages on. */
function bareHost(host: string, policy: HostPolicy): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  for (const p of HOST_PREFIXES[policy]) if (h.startsWith(p)) return h.slice(p.length);
  return h;
}

/** Whether a host is one the policy accepts. */
export function isAcceptedHost(host: string, policy: HostPolicy): boolean {
  const h = bareHost(host, policy);
  if (PLATFORM_HOSTS.includes(h)) return true;
  if (policy === 'platform') return false;
  // Nitter instances live on many domains, all named nitter.<something>.
  return MIRROR_HOSTS.includes(h) || /^nitter\.[a-z0-9.-]+$/.test(h);
}

const refuse = (code: LinkRefusal['code'], detail: string): LinkRefusal => ({ code, detail });

export function isRefusal<T extends object>(v: T | LinkRefusal): v is LinkRefusal {
  return 'code' in v;
}

/** A link as a URL: a scheme is assumed when missing (people paste `x.com/alice`). */
export function linkUrl(raw: string): URL | LinkRefusal {
  const text = raw.trim();
  if (text.length === 0 || text.length > 2048) return refuse('invalid_url', 'The link is empty or too long.');
  let url: URL;
  try {
    // A scheme is there when followed by // (`localhost:8080/…` is a host), or http(s): with a slash a proxy dropped.
    const schemed = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^https?:\//i.test(text);
    url = new URL(schemed ? text : `https://${text}`);
  } catch {
    return refuse('invalid_url', 'The link is not a valid URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return refuse('invalid_url', 'Only http and https links are accepted.');
  if (url.username || url.password) return refuse('invalid_url', 'Links carry no credentials.');
  return url;
}

/** /{handle}/status/{id}, /i/status/{id}, /i/web/status/{id}, with the trailers the platform appends. */
function statusTarget(parts: string[]): LinkTarget | undefined {
  const handleLess = parts[0] === 'i' && (parts[1] === 'status' || (parts[1] === 'web' && parts[2] === 'status'));
  const rest = handleLess ? ['_', ...parts.slice(parts[1] === 'web' ? 2 : 1)] : parts;
  const [handle, status, id, trailer, index, ...extra] = rest;
  if (status !== 'status' || handle === undefined || id === undefined) return undefined;
  const shaped =
    HANDLE_RE.test(handle) &&
    STATUS_ID.test(id) &&
    (trailer === undefined || (TRAILERS.has(trailer) && (index === undefined || /^[0-9]{1,2}$/.test(index)))) &&
    extra.length === 0;
  if (!shaped) return undefined;
  return handleLess ? { kind: 'post', id } : { kind: 'post', handle, id };
}

/** Everything other than a post: profiles and their tabs, feeds, accounts by id, Lists, search. */
function otherTarget(parts: string[], params: URLSearchParams): LinkTarget | undefined {
  const [a, b, c, d, ...extra] = parts;
  if (a === undefined || extra.length > 0) return undefined;
  if (a === 'search') {
    if (c !== undefined || (b !== undefined && b !== 'rss')) return undefined;
    const feed = SEARCH_TABS[params.get('f') ?? ''];
    const q = params.get('q') ?? undefined;
    return { kind: 'search', rss: b === 'rss', ...(q !== undefined ? { q } : {}), ...(feed ? { feed } : {}) };
  }
  if (a === 'i') {
    if (b === 'user' && c !== undefined && STATUS_ID.test(c) && d === undefined) return { kind: 'user', id: c };
    if (b === 'lists' && c !== undefined && STATUS_ID.test(c)) {
      if (d === undefined) return { kind: 'list', id: c, members: false, feed: false };
      if (d === 'members' || d === 'rss') return { kind: 'list', id: c, members: d === 'members', feed: d === 'rss' };
    }
    return undefined;
  }
  const handle = a.replace(/^@/, '');
  if (!HANDLE_RE.test(handle)) return undefined;
  if (b === undefined) return { kind: 'profile', handle };
  if (b === 'rss' && c === undefined) return { kind: 'feed', handle };
  if ((b === 'with_replies' || b === 'media') && c === 'rss' && d === undefined)
    return { kind: 'feed', handle, tab: b };
  if (c !== undefined) return undefined;
  if (b === 'followers' || b === 'following' || b === 'with_replies' || b === 'media')
    return { kind: 'profile', handle, tab: b };
  return undefined;
}

const SHAPES =
  'a post (/{handle}/status/{id}, /i/status/{id}), a profile (/{handle}, /{handle}/followers, /{handle}/following), ' +
  'a feed (/{handle}/rss), an account by id (/i/user/{id}), a List (/i/lists/{id}, /i/lists/{id}/members) or a ' +
  'search (/search?q=…)';

/** Reads a pasted link of any shape this service can read. */
export function parseLink(raw: string, policy: HostPolicy): LinkTarget | LinkRefusal {
  const url = linkUrl(raw);
  if (!(url instanceof URL)) return url;
  if (!isAcceptedHost(url.hostname, policy)) return refuse('unsupported_host', hostDetail(policy));
  const parts = url.pathname.split('/').filter(Boolean);
  const target = statusTarget(parts) ?? otherTarget(parts, url.searchParams);
  return target ?? refuse('invalid_path', `The link's path names nothing readable here: give ${SHAPES}.`);
}

/** Reads a pasted post link: the `url` parameter's reader. */
export function parsePostLink(raw: string, policy: HostPolicy): { handle?: string; id: string } | LinkRefusal {
  const url = linkUrl(raw);
  if (!(url instanceof URL)) return url;
  if (!isAcceptedHost(url.hostname, policy)) return refuse('unsupported_host', hostDetail(policy));
  const target = statusTarget(url.pathname.split('/').filter(Boolean));
  if (target?.kind !== 'post')
    return refuse('invalid_path', 'The URL path must be shaped /{handle}/status/{id} (or /i/status/{id}).');
  return target.handle === undefined ? { id: target.id } : { handle: target.handle, id: target.id };
}

/** Query parameters of the platform's and mirrors' links that say nothing about what is read (share trackers). */
const FOREIGN_PARAMS = new Set(['s', 't', 'src', 'f', 'ref_src', 'ref_url', 'lang', 'q', 'cxt', 'mx']);

/**
 * The permalink on this service that reads what a link names, with the link's own query parameters that are this
 * service's (format, thread…) kept and the platform's trackers dropped.
 */
export function permalinkOf(target: LinkTarget, params: URLSearchParams = new URLSearchParams()): string {
  const query = new URLSearchParams();
  const enc = encodeURIComponent;
  let path: string;
  switch (target.kind) {
    case 'post':
      path = target.handle === undefined ? `/i/status/${target.id}` : `/${enc(target.handle)}/status/${target.id}`;
      break;
    case 'profile':
      if (target.tab === 'with_replies') query.set('with_replies', 'true');
      path = `/${enc(target.handle)}${target.tab === 'followers' || target.tab === 'following' ? `/${target.tab}` : ''}`;
      break;
    case 'feed':
      path = `/${enc(target.handle)}${target.tab ? `/${target.tab}` : ''}/rss`;
      break;
    case 'user':
      path = `/i/user/${target.id}`;
      break;
    case 'list':
      path = `/i/lists/${target.id}${target.members ? '/members' : target.feed ? '/rss' : ''}`;
      break;
    case 'search':
      path = target.rss ? '/search/rss' : '/search';
      if (target.q !== undefined) query.set('q', target.q);
      if (target.feed !== undefined && !target.rss) query.set('feed', target.feed);
      break;
  }
  for (const [k, v] of params) if (!FOREIGN_PARAMS.has(k) && !query.has(k)) query.append(k, v);
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * The account a pasted subject names: a handle, `@handle`, or a profile link. Undefined when the subject is a link
 * that names no account (x.com/i/…, a search); a bare word is returned as given, for the service to check.
 */
export function accountOf(subject: string): string | undefined {
  const s = subject.trim();
  if (!s.includes('/')) return s.replace(/^@/, '');
  const url = linkUrl(s);
  if (!(url instanceof URL)) return s;
  const first = (url.pathname.split('/')[1] ?? '').replace(/^@/, '');
  if (first === 'i' || first === 'search') return undefined;
  return first || s;
}
