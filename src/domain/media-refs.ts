// Which files of X's media hosts a post (or a note rendered from it) refers to, and where the original size of
// each lives. Only X's own media hosts are ever named here: anything else a post links is not media to keep.

/** X's media hosts: images, videos and GIFs, static files. */
export const X_MEDIA_HOSTS = ['pbs.twimg.com', 'video.twimg.com', 'abs.twimg.com'] as const;
export type XMediaHost = (typeof X_MEDIA_HOSTS)[number];

export type MediaRole = 'photo' | 'video' | 'thumbnail' | 'avatar' | 'banner' | 'card' | 'article' | 'file';

export interface MediaRef {
  /** The URL as the post (and the note) names it. */
  url: string;
  /** The same file at its original size (the best rendition X keeps). */
  original: string;
  role: MediaRole;
}

/** An https URL on one of X's media hosts, parsed; undefined for anything else. */
export function xMediaUrl(raw: string): URL | undefined {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port) return undefined;
  return (X_MEDIA_HOSTS as readonly string[]).includes(u.hostname) ? u : undefined;
}

function roleOf(u: URL): MediaRole {
  const p = u.pathname;
  if (u.hostname === 'video.twimg.com') return 'video';
  if (p.startsWith('/profile_images/')) return 'avatar';
  if (p.startsWith('/profile_banners/')) return 'banner';
  if (p.startsWith('/card_img/')) return 'card';
  if (/^\/(ext_tw_video_thumb|tweet_video_thumb|amplify_video_thumb)\//.test(p)) return 'thumbnail';
  if (p.startsWith('/media/')) return 'photo';
  return u.hostname === 'pbs.twimg.com' ? 'article' : 'file';
}

/**
 * The original size: photos as `?format=<ext>&name=orig`, avatars without their size suffix, banners at their
 * largest rendition. Other files are kept as named.
 */
function originalOf(u: URL, role: MediaRole): string {
  if (role === 'photo') {
    const m = /^\/media\/([A-Za-z0-9_-]+)(?:\.([a-z]+))?$/.exec(u.pathname);
    if (m) {
      const format = m[2] ?? u.searchParams.get('format') ?? 'jpg';
      return `https://${u.hostname}/media/${m[1]}?format=${encodeURIComponent(format)}&name=orig`;
    }
  }
  if (role === 'avatar') return u.href.replace(/_(normal|bigger|mini|200x200|400x400)(\.[a-z]+)$/i, '$2');
  if (role === 'banner' && /^\/profile_banners\/[0-9]+\/[0-9]+$/.test(u.pathname)) return `${u.href}/1500x500`;
  return u.href;
}

export function mediaRef(raw: string): MediaRef | undefined {
  const u = xMediaUrl(raw);
  if (!u) return undefined;
  const role = roleOf(u);
  return { url: raw, original: originalOf(u, role), role };
}

const MEDIA_KEYS = new Set(['url', 'avatarUrl', 'bannerUrl', 'thumbnailUrl', 'imageUrl', 'coverUrl']);
/** Enough nesting for a repost of a post quoting a post with an article; deeper is not a post. */
const MAX_DEPTH = 12;

function walk(value: unknown, depth: number, found: (url: string) => void): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) walk(v, depth + 1, found);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') {
      if (MEDIA_KEYS.has(k)) found(v);
    } else walk(v, depth + 1, found);
  }
}

/**
 * Media of X's hosts that posts hold (photos, videos and GIFs, their stills, avatars, banners, Article cover and
 * images, card images), first mention first, each once. Works on the domain model and on its JSON alike.
 */
export function mediaRefsOf(posts: unknown): MediaRef[] {
  const out = new Map<string, MediaRef>();
  walk(posts, 0, (url) => {
    if (out.has(url)) return;
    const ref = mediaRef(url);
    if (ref) out.set(url, ref);
  });
  return [...out.values()];
}

const URL_IN_TEXT = /https:\/\/(?:pbs|video|abs)\.twimg\.com\/[^\s)<>\]"']+/g;

/** X media URLs a rendered note links, in order, each once. */
export function mediaRefsInText(text: string): MediaRef[] {
  const out = new Map<string, MediaRef>();
  for (const m of text.matchAll(URL_IN_TEXT)) {
    const ref = out.has(m[0]) ? undefined : mediaRef(m[0]);
    if (ref) out.set(m[0], ref);
  }
  return [...out.values()];
}
