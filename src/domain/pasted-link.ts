// The one reader of links people paste: an x.com / twitter.com address (or a mirror's: FxTwitter, VxTwitter,
// Nitter-style hosts), with or without a scheme, turned into what it names on this service. The `url` parameter
// of /api/v1/posts, URL-prefix reads (`/https://x.com/…`), the home page's form, MCP's read_post and the CLI all
// read links here, so they accept and refuse the same shapes; only the `url` parameter keeps to the contract's two
// hosts (its refusal of a mirror's link names the same post's x.com link).
import { HANDLE_RE } from './handles.ts';
import { isTag, tagPath, type TagKind } from './tags.ts';

/** What a pasted link names. */
export type LinkTarget =
  | { kind: 'post'; handle?: string; id: string }
  /** The posts quoting a post, or the accounts that reposted it (X's `/retweets`). */
  | { kind: 'post-list'; handle: string; id: string; list: 'quotes' | 'reposts' }
  | { kind: 'profile'; handle: string; tab?: ProfileTab }
  | { kind: 'feed'; handle: string; tab?: 'with_replies' | 'media' }
  | { kind: 'user'; id: string }
  | { kind: 'list'; id: string; members: boolean; feed: boolean }
  | { kind: 'search'; q?: string; feed?: string; rss: boolean }
  /** A hashtag's or cashtag's page (X's /hashtag/{tag}, or a search for exactly one `#tag` or `$TAG`). */
  | { kind: 'tag'; tag: TagKind; value: string; feed?: string; rss: boolean }
  | { kind: 'trends' };

const PROFILE_TABS = ['followers', 'following', 'with_replies', 'media', 'articles', 'about'] as const;
type ProfileTab = (typeof PROFILE_TABS)[number];
const isProfileTab = (s: string): s is ProfileTab => (PROFILE_TABS as readonly string[]).includes(s);

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
/** Trailing path pieces the platform appends to a permalink (media viewers, analytics...) that name the post itself. */
const TRAILERS = new Set(['photo', 'video', 'analytics', 'quotes', 'retweets', 'likes', 'history', 'media_tags']);
/** Trailers that name a read of their own here: the post's quotes, and its reposts (X calls them retweets). */
const POST_LISTS: Record<string, 'quotes' | 'reposts'> = { quotes: 'quotes', retweets: 'reposts', reposts: 'reposts' };
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
/** The platform's own pages whose first segment reads like a handle but names no account. */
const NOT_ACCOUNTS = new Set(['hashtag', 'explore']);
/** A search for exactly one hashtag or cashtag, as X's tag links and Nitter's hashtag pages ask for it. */
const ONE_TAG = /^\s*([#$])(\S+)\s*$/u;

/** The accepted hosts, for the refusal's detail and the docs. */
export function acceptedHosts(policy: HostPolicy): string[] {
  return policy === 'platform' ? [...PLATFORM_HOSTS] : [...PLATFORM_HOSTS, ...MIRROR_HOSTS, 'nitter.*'];
}

function hostDetail(policy: HostPolicy): string {
  const list = acceptedHosts(policy).join(', ');
  const prefixes = HOST_PREFIXES[policy].join(', ');
  return `Only links to ${list} (optionally ${prefixes}) are read here.`;
}

/** What the reader takes, in a reader's words: the end of every refusal of something that is no link at all. */
const ACCEPTED =
  'Paste a link to a post, a profile, a search, a hashtag or an X List on x.com or twitter.com, on a mirror ' +
  `(${MIRROR_HOSTS.join(', ')}) or on a Nitter instance (nitter.*), e.g. https://x.com/jack/status/20.`;

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
  if (text.length === 0 || text.length > 2048)
    return refuse('invalid_url', `The link is empty or over 2048 characters. ${ACCEPTED}`);
  let url: URL;
  try {
    // A scheme is there when followed by // (`localhost:8080/…` is a host), or http(s): with a slash a proxy dropped.
    const schemed = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^https?:\//i.test(text);
    url = new URL(schemed ? text : `https://${text}`);
  } catch {
    return refuse('invalid_url', `This is not a link. ${ACCEPTED}`);
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
  // X's earlier address of a post's quotes: /retweets/with_comments.
  const withComments = trailer === 'retweets' && index === 'with_comments';
  const shaped =
    HANDLE_RE.test(handle) &&
    STATUS_ID.test(id) &&
    (trailer === undefined ||
      (TRAILERS.has(trailer) && (index === undefined || withComments || /^[0-9]{1,2}$/.test(index)))) &&
    extra.length === 0;
  if (!shaped) return undefined;
  if (handleLess) return { kind: 'post', id };
  // The quotes and reposts pages are addressed by handle here; X's handle-less /i/status/{id}/quotes stays the post.
  const list = withComments ? 'quotes' : trailer !== undefined && index === undefined ? POST_LISTS[trailer] : undefined;
  return list ? { kind: 'post-list', handle, id, list } : { kind: 'post', handle, id };
}

/** Everything other than a post: profiles and their tabs, feeds, accounts by id, Lists, search. */
function otherTarget(parts: string[], params: URLSearchParams): LinkTarget | undefined {
  const [a, b, c, d, ...extra] = parts;
  if (a === undefined || extra.length > 0) return undefined;
  if (a === 'search') {
    if (c !== undefined || (b !== undefined && b !== 'rss')) return undefined;
    const feed = SEARCH_TABS[params.get('f') ?? ''];
    const q = params.get('q') ?? undefined;
    const tag = q === undefined || feed === 'users' ? undefined : oneTag(q);
    if (tag) return { kind: 'tag', ...tag, rss: b === 'rss', ...(feed ? { feed } : {}) };
    return { kind: 'search', rss: b === 'rss', ...(q !== undefined ? { q } : {}), ...(feed ? { feed } : {}) };
  }
  if (a === 'hashtag' && b !== undefined && d === undefined && (c === undefined || c === 'rss')) {
    const feed = SEARCH_TABS[params.get('f') ?? ''];
    const value = decoded(b);
    if (value === undefined) return undefined;
    return { kind: 'tag', tag: 'hashtag', value, rss: c === 'rss', ...(feed && feed !== 'users' ? { feed } : {}) };
  }
  if (
    (a === 'explore' && b === 'tabs' && c === 'trending' && d === undefined) ||
    (a === 'i' && b === 'trends' && c === undefined)
  )
    return { kind: 'trends' };
  if (a === 'i') {
    if (b === 'user' && c !== undefined && STATUS_ID.test(c) && d === undefined) return { kind: 'user', id: c };
    if (b === 'lists' && c !== undefined && STATUS_ID.test(c)) {
      if (d === undefined) return { kind: 'list', id: c, members: false, feed: false };
      if (d === 'members' || d === 'rss') return { kind: 'list', id: c, members: d === 'members', feed: d === 'rss' };
    }
    return undefined;
  }
  const handle = a.replace(/^@/, '');
  if (!HANDLE_RE.test(handle) || NOT_ACCOUNTS.has(handle)) return undefined;
  if (b === undefined) return { kind: 'profile', handle };
  if (b === 'rss' && c === undefined) return { kind: 'feed', handle };
  if ((b === 'with_replies' || b === 'media') && c === 'rss' && d === undefined)
    return { kind: 'feed', handle, tab: b };
  if (c !== undefined) return undefined;
  if (isProfileTab(b)) return { kind: 'profile', handle, tab: b };
  return undefined;
}

function decoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** The tag a search for exactly one `#tag` or `$TAG` names; anything more (two tags, words, `-#tag`) stays a search. */
function oneTag(q: string): { tag: TagKind; value: string } | undefined {
  const m = ONE_TAG.exec(q);
  if (!m) return undefined;
  const tag: TagKind = m[1] === '#' ? 'hashtag' : 'cashtag';
  return isTag(tag, m[2]!) ? { tag, value: m[2]! } : undefined;
}

const SHAPES =
  'a post (/{handle}/status/{id}, /i/status/{id}), its quotes or reposts (/{handle}/status/{id}/quotes, …/retweets), ' +
  'a profile (/{handle}, /{handle}/followers, /following, /media, /articles, /about), a feed (/{handle}/rss), ' +
  'an account by id (/i/user/{id}), a List (/i/lists/{id}, /i/lists/{id}/members), a search (/search?q=…), ' +
  'a hashtag (/hashtag/{tag}) or the trends (/explore/tabs/trending, /i/trends)';

/** X's profile tabs this service does not read, for a refusal that names the tab. */
const UNREAD_TABS = new Set([
  'likes',
  'highlights',
  'lists',
  'communities',
  'superfollows',
  'subscriptions',
  'creator-subscriptions',
  'verified_followers',
  'followers_you_follow',
  'affiliates',
  'photo',
  'header_photo',
]);

/** Why a path that reads almost like a readable one is refused, in the words of what was pasted. */
function pathRefusal(parts: string[]): LinkRefusal | undefined {
  const [a, b, c, ...rest] = parts;
  if (a === undefined || b === undefined) return undefined;
  const handle = a.replace(/^@/, '');
  if (!HANDLE_RE.test(handle) || NOT_ACCOUNTS.has(handle) || a === 'i') return undefined;
  if (b === 'status' && c !== undefined && !STATUS_ID.test(c)) {
    return refuse(
      'invalid_path',
      `\`${shown(c)}\` is not a status id: a post's id is digits only (/${handle}/status/{id}, e.g. /jack/status/20).`,
    );
  }
  if (c === undefined && rest.length === 0 && UNREAD_TABS.has(b)) {
    return refuse(
      'invalid_path',
      `\`${b}\` is a tab of @${handle}'s profile this service does not read: it reads the profile (/${handle}) and ` +
        'its /followers, /following, /with_replies, /media, /articles and /about tabs, and its posts by their links.',
    );
  }
  return undefined;
}

/** A piece of a pasted path, shown back short and decoded. */
function shown(piece: string): string {
  const text = decoded(piece) ?? piece;
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Reads a pasted link of any shape this service can read. */
export function parseLink(raw: string, policy: HostPolicy): LinkTarget | LinkRefusal {
  const url = linkUrl(raw);
  if (!(url instanceof URL)) return url;
  if (!isAcceptedHost(url.hostname, policy)) return refuse('unsupported_host', hostDetail(policy));
  const parts = url.pathname.split('/').filter(Boolean);
  const target = statusTarget(parts) ?? otherTarget(parts, url.searchParams);
  return (
    target ??
    pathRefusal(parts) ??
    refuse('invalid_path', `The link's path names nothing readable here: give ${SHAPES}.`)
  );
}

/** Reads a pasted post link: the `url` parameter's reader. */
export function parsePostLink(raw: string, policy: HostPolicy): { handle?: string; id: string } | LinkRefusal {
  const url = linkUrl(raw);
  if (!(url instanceof URL)) return url;
  const parts = url.pathname.split('/').filter(Boolean);
  if (!isAcceptedHost(url.hostname, policy)) {
    // A mirror's link names a post on the platform: the refusal says where the same post is read.
    const mirrored = isAcceptedHost(url.hostname, 'mirrors') ? parsePostLink(raw, 'mirrors') : undefined;
    const same =
      mirrored && !isRefusal(mirrored)
        ? ` ${url.hostname} is a mirror: the same post is https://x.com${permalinkOf({ kind: 'post', ...mirrored })}, and a prefix read (/${url.href}) reads the mirror's link as given.`
        : '';
    return refuse('unsupported_host', `${hostDetail(policy)}${same}`);
  }
  const target = statusTarget(parts);
  // A link to a post's quotes or reposts still names the post: this reader reads posts.
  if (target?.kind === 'post-list') return { handle: target.handle, id: target.id };
  if (target?.kind !== 'post') {
    const bad = pathRefusal(parts);
    if (bad) return bad;
    const other = otherTarget(parts, url.searchParams);
    const elsewhere = other ? ` This link is read at ${permalinkOf(other)} on this service.` : '';
    return refuse('invalid_path', `The URL path must be shaped /{handle}/status/{id} (or /i/status/{id}).${elsewhere}`);
  }
  return target.handle === undefined ? { id: target.id } : { handle: target.handle, id: target.id };
}

/**
 * A pasted post link as the platform's own address: a mirror's or a Nitter instance's link to a post becomes its
 * x.com link; anything else (the platform's links, links this reader refuses) is returned as given, for the
 * `url` parameter to judge. Lets a surface that takes mirror links call the contract's `url` parameter.
 */
export function platformPostLink(raw: string): string {
  const url = linkUrl(raw);
  if (!(url instanceof URL) || isAcceptedHost(url.hostname, 'platform')) return raw;
  const post = parsePostLink(raw, 'mirrors');
  return isRefusal(post) ? raw : `https://x.com${permalinkOf({ kind: 'post', ...post })}`;
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
    case 'post-list':
      path = `/${enc(target.handle)}/status/${target.id}/${target.list}`;
      break;
    case 'profile':
      if (target.tab === 'with_replies') query.set('with_replies', 'true');
      path = `/${enc(target.handle)}${target.tab && target.tab !== 'with_replies' ? `/${target.tab}` : ''}`;
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
    case 'tag':
      // A tag that cannot exist keeps its path, for the page's own route to refuse it as it refuses any request.
      path = `${isTag(target.tag, target.value) ? tagPath(target.tag, target.value) : `/${target.tag}/${enc(target.value)}`}${target.rss ? '/rss' : ''}`;
      if (target.feed !== undefined && !target.rss) query.set('feed', target.feed);
      break;
    case 'trends':
      path = '/trends';
      break;
  }
  for (const [k, v] of params) if (!FOREIGN_PARAMS.has(k) && !query.has(k)) query.append(k, v);
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * The account a pasted subject names: a handle, `@handle`, or a profile link. Undefined when the subject is a link
 * that names no account (x.com/i/…, a search, a hashtag, Explore); a bare word is returned as given, for the
 * service to check.
 */
export function accountOf(subject: string): string | undefined {
  const s = subject.trim();
  if (!s.includes('/')) return s.replace(/^@/, '');
  const url = linkUrl(s);
  if (!(url instanceof URL)) return s;
  const first = (url.pathname.split('/')[1] ?? '').replace(/^@/, '');
  if (first === 'i' || first === 'search' || NOT_ACCOUNTS.has(first)) return undefined;
  return first || s;
}
