// Archive posts → domain Posts, as every other provider's: text with t.co links expanded and media links dropped,
// mentions, hashtags and cashtags as segments, photos and videos as media, replies with the post they answer,
// reposts as reposts of @handle with the text X kept, long posts whole from their note. Counts arrive as strings.
import type { Author, Media, Post } from '../../domain/models.ts';
import { toIso } from '../shared/dates.ts';
import { permalink } from '../shared/permalinks.ts';
import { segmentsFromRaw, textOf, unescapeHtml, type RawText, type TextFacet } from '../shared/segments.ts';
import { ArchiveError } from './errors.ts';
import type { NoteIndex } from './notes.ts';
import { parseMedia as parseLegacyMedia, withoutTags } from '../x/post.ts';
import type { XMedia } from '../x/wire.ts';
import type { ArchiveAccount, ArchiveEntities, ArchiveMedia, ArchiveProfile, ArchiveTweet, Num } from './wire.ts';

/** The account the archive is of: every post's author. */
export type ArchiveOwner = Author;

const num = (v: Num | undefined): number | undefined => {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** account.js's first element, with profile.js's avatar when there is one. */
export function parseOwner(account: unknown, profile: unknown): ArchiveOwner {
  const a = (account as { account?: ArchiveAccount } | null)?.account;
  const id = str(a?.accountId);
  const handle = str(a?.username);
  if (!id || !handle || !/^[0-9]+$/.test(id))
    throw new ArchiveError('no_account', 'data/account.js names no account (accountId, username)');
  const p = (profile as { profile?: ArchiveProfile } | null)?.profile;
  const avatar = str(p?.avatarMediaUrl);
  return { id, handle, name: str(a?.accountDisplayName) ?? handle, ...(avatar ? { avatarUrl: avatar } : {}) };
}

function facetsOf(e: ArchiveEntities | undefined): TextFacet[] {
  if (!e) return [];
  const out: TextFacet[] = [];
  const at = (indices: Num[] | undefined): [number, number] | undefined => {
    const s = num(indices?.[0]);
    const t = num(indices?.[1]);
    return s === undefined || t === undefined ? undefined : [s, t];
  };
  for (const u of e.urls ?? []) {
    const i = at(u.indices);
    if (i && u.url) out.push({ type: 'url', start: i[0], end: i[1], original: u.url, href: u.expanded_url ?? u.url });
  }
  for (const m of e.media ?? []) {
    const i = at(m.indices);
    if (i && m.url) out.push({ type: 'media', start: i[0], end: i[1], original: m.url });
  }
  for (const m of e.user_mentions ?? []) {
    const i = at(m.indices);
    if (i) out.push({ type: 'mention', start: i[0], end: i[1], original: m.screen_name });
  }
  for (const h of e.hashtags ?? []) {
    const i = at(h.indices);
    if (i) out.push({ type: 'hashtag', start: i[0], end: i[1], original: h.text });
  }
  for (const s of e.symbols ?? []) {
    const i = at(s.indices);
    if (i) out.push({ type: 'cashtag', start: i[0], end: i[1], original: s.text });
  }
  return out;
}

const MEDIA_TYPES = new Set(['photo', 'video', 'animated_gif']);

/**
 * The archive's media are X's legacy media with strings for numbers: read as X's own, then photos linked at their
 * original size (the file the archive holds beside the post).
 */
function parseMedia(m: ArchiveMedia): Media | undefined {
  if (!MEDIA_TYPES.has(m.type ?? '')) return undefined;
  const width = num(m.original_info?.width) ?? num(m.sizes?.large?.w);
  const height = num(m.original_info?.height) ?? num(m.sizes?.large?.h);
  const ms = num(m.video_info?.duration_millis);
  const media = parseLegacyMedia({
    type: m.type as XMedia['type'],
    ...(str(m.media_url_https) ? { media_url_https: m.media_url_https } : {}),
    ...(str(m.ext_alt_text) ? { ext_alt_text: m.ext_alt_text } : {}),
    original_info: { ...(width ? { width } : {}), ...(height ? { height } : {}) },
    video_info: {
      ...(ms ? { duration_millis: ms } : {}),
      variants: (m.video_info?.variants ?? []).flatMap((v) =>
        str(v.url) ? [{ url: v.url!, content_type: v.content_type, bitrate: num(v.bitrate) }] : [],
      ),
    },
  });
  if (media?.kind === 'photo' && !media.url.includes('?')) media.url = `${media.url}?name=orig`;
  return media;
}

/** The text of X's `source` anchor (`<a href="…">Twitter Web App</a>`). */
function sourceName(html: string | undefined): string | undefined {
  return html ? withoutTags(html).trim() || undefined : undefined;
}

const REPOST = /^RT @([A-Za-z0-9_]{1,15}): /;

/** The tweet of a tweets.js element (`{ "tweet": { … } }`, or the post itself in the oldest exports). */
export function tweetOf(element: unknown): ArchiveTweet | undefined {
  if (element === null || typeof element !== 'object' || Array.isArray(element)) return undefined;
  const t = (element as { tweet?: unknown }).tweet ?? element;
  return t !== null && typeof t === 'object' && !Array.isArray(t) ? t : undefined;
}

/** The post's id, or undefined for an element that is not a post. */
export function tweetId(t: ArchiveTweet): string | undefined {
  const id = str(t.id_str) ?? (t.id !== undefined ? String(t.id) : undefined);
  return id && /^[0-9]{1,20}$/.test(id) ? id : undefined;
}

/** Whether the post answers one of the owner's own posts: the next part of a self-thread. */
export function answersOwner(t: ArchiveTweet, owner: ArchiveOwner): boolean {
  if (!str(t.in_reply_to_status_id_str)) return false;
  const user = str(t.in_reply_to_user_id_str);
  return user ? user === owner.id : t.in_reply_to_screen_name?.toLowerCase() === owner.handle.toLowerCase();
}

export const isRepost = (t: ArchiveTweet) => REPOST.test(t.full_text ?? '');

/** One post of the archive, or undefined for an element that is not one. */
export function parseArchiveTweet(t: ArchiveTweet, owner: ArchiveOwner, notes: NoteIndex): Post | undefined {
  const id = tweetId(t);
  const createdAt = toIso(t.created_at);
  if (!id || !createdAt || typeof t.full_text !== 'string') return undefined;
  const full = t.full_text;
  const facets = facetsOf(t.entities);
  const mediaFacets = facetsOf({ media: t.extended_entities?.media ?? [] });
  const media = (t.extended_entities?.media ?? t.entities?.media ?? []).map(parseMedia).filter((m): m is Media => !!m);
  const metrics = {
    ...(num(t.favorite_count) !== undefined ? { likes: num(t.favorite_count) } : {}),
    ...(num(t.retweet_count) !== undefined ? { reposts: num(t.retweet_count) } : {}),
  };
  const repost = REPOST.exec(full);
  if (repost) {
    const handle = repost[1]!;
    const mention = t.entities?.user_mentions?.find((m) => m.screen_name?.toLowerCase() === handle.toLowerCase());
    const start = Array.from(repost[0]).length;
    const raw: RawText = { text: full, range: [start, Array.from(full).length], facets: [...facets, ...mediaFacets] };
    const segments = segmentsFromRaw(raw);
    const shown = textOf(segments);
    // X keeps a repost's text cut at the length of a post, ending in an ellipsis: it is the start of the original.
    const reposted: Post = {
      id,
      url: permalink(handle, id),
      author: { id: str(mention?.id_str) ?? '', handle, name: str(mention?.name) ?? handle },
      createdAt,
      text: shown,
      segments,
      media,
      metrics: {},
      ...(shown.endsWith('…') ? { truncated: true } : {}),
    };
    return {
      id,
      url: permalink(owner.handle, id),
      author: owner,
      createdAt,
      text: '',
      segments: [],
      media: [],
      metrics: {},
      repostOf: reposted,
    };
  }
  const range = t.display_text_range?.map(num);
  const display: [number, number] | undefined =
    range && range[0] !== undefined && range[1] !== undefined ? [range[0], range[1]] : undefined;
  const visible = Array.from(full)
    .slice(display?.[0] ?? 0)
    .join('');
  const long = notes.take(createdAt, visible);
  const raw: RawText = long
    ? { text: long.text, facets: long.facets }
    : { text: full, ...(display ? { range: display } : {}), facets: [...facets, ...mediaFacets] };
  // A note's text is stored as written; the post's is HTML-escaped, as X's legacy text always is.
  const segments = segmentsFromRaw(
    long ? { ...raw, text: raw.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') } : raw,
  );
  const post: Post = {
    id,
    url: permalink(owner.handle, id),
    author: owner,
    createdAt,
    text: textOf(segments),
    segments,
    media,
    metrics,
  };
  if (str(t.lang)) post.lang = t.lang;
  const source = sourceName(t.source);
  if (source) post.source = source;
  const parent = str(t.in_reply_to_status_id_str);
  if (parent) {
    const self = answersOwner(t, owner);
    post.replyTo = { id: parent, handle: self ? owner.handle : (str(t.in_reply_to_screen_name) ?? '') };
  } else if (str(t.in_reply_to_screen_name)) {
    post.replyTo = { handle: t.in_reply_to_screen_name! };
  }
  if (t.possibly_sensitive === true) post.sensitive = true;
  if (!long && /…\s*https:\/\/t\.co\/\S+$/.test(unescapeHtml(visible)) && Array.from(full).length >= 280)
    post.truncated = true;
  return post;
}
