// Corpus records -> FxTwitter API v2 JSON (FxEmbed `APITwitterStatus`, `APIUser`, `APIStatusTombstone`),
// following what FxEmbed's processor derives from X GraphQL: `text` has t.co links expanded and media links
// removed, `raw_text.text` is the legacy full_text (HTML-escaped) with facets, authors inside statuses get
// `_200x200` avatars.
import type { SimCorpus, SimMedia, SimPost, SimUser } from '../corpus-types.ts';
import { authorOf, replyCount, visibility } from '../corpus-queries.ts';
import { escapeLegacy, layoutText } from '../text.ts';
import { isoDate, legacyDate } from './dates.ts';
import { mediaDisplayUrl, mediaPermalink, mediaUrl, variants } from './media.ts';
import { draftArticle } from './article.ts';
import { simTranslation } from '../corpus-translations.ts';

type Json = Record<string, unknown>;
export type TombstoneReason = 'deleted' | 'suspended' | 'private' | 'blocked' | 'unavailable';

const WEB = 'https://x.com';
const NOTE_LIMIT = 280;

const TOMBSTONE_MESSAGES: Record<TombstoneReason, string> = {
  deleted: 'This post is deleted',
  suspended: 'This post is from a suspended account',
  private: 'This post is from a private account',
  blocked: 'This post has been blocked from view by its author',
  unavailable: 'This post is unavailable',
};

export function fxTombstone(reason: TombstoneReason, id: string): Json {
  return {
    type: 'tombstone',
    provider: 'twitter',
    reason,
    message: TOMBSTONE_MESSAGES[reason],
    id,
    url: `${WEB}/i/status/${id}`,
  };
}

/** Tombstone reason for a post that cannot be shown inside another (quote, thread), or null when it can. */
export function hiddenReason(c: SimCorpus, id: string): TombstoneReason | null {
  const v = visibility(c, id);
  if (v === 'ok') return null;
  if (v === 'protected') return 'private';
  if (v === 'suspended') return 'suspended';
  if (v === 'deleted') return 'deleted';
  return 'unavailable';
}

export function fxUser(u: SimUser, avatarSize: 'normal' | '200x200' = 'normal'): Json {
  const bio = layoutText(`bio:${u.id}`, u.bio, [], false);
  const facets = [
    ...bio.hashtags.map((h) => ({ type: 'hashtag', indices: h.indices, original: h.text })),
    ...bio.cashtags.map((h) => ({ type: 'symbol', indices: h.indices, original: h.text })),
    ...bio.urls.map((x) => ({
      type: 'url',
      indices: x.indices,
      original: x.url,
      replacement: x.expanded,
      display: x.display,
    })),
    ...bio.mentions.map((m) => ({ type: 'mention', indices: m.indices, original: m.handle })),
  ].sort((a, b) => a.indices[0] - b.indices[0]);
  return {
    type: 'profile',
    screen_name: u.handle,
    url: `${WEB}/${u.handle}`,
    id: u.id,
    followers: u.followers,
    following: u.following,
    likes: u.likes,
    media_count: u.mediaCount,
    statuses: u.statuses,
    name: u.name,
    description: bio.expandedText,
    raw_description: { text: bio.fullText, facets },
    location: u.location,
    banner_url: u.bannerUrl,
    avatar_url: avatarSize === 'normal' ? u.avatarUrl : u.avatarUrl.replace('_normal', '_200x200'),
    joined: legacyDate(u.createdAt),
    protected: u.protected,
    website: u.website ? { url: u.website, display_url: u.website.replace(/^https?:\/\//, '') } : null,
    verification: {
      verified: u.verified !== null,
      verified_at: u.verified !== null && u.about?.verifiedSince ? new Date(u.about.verifiedSince).toISOString() : null,
      type: u.verified,
    },
  };
}

function fxMedia(m: SimMedia): Json {
  if (m.kind === 'photo') {
    return {
      type: 'photo',
      id: m.id,
      url: `${mediaUrl(m)}?name=orig`,
      width: m.width,
      height: m.height,
      altText: m.alt,
    };
  }
  const formats = variants(m).map((v) => ({
    url: v.url,
    bitrate: v.bitrate,
    container: v.url.includes('.m3u8') ? 'm3u8' : 'mp4',
    codec: v.url.includes('.m3u8') ? undefined : 'h264',
  }));
  const best = formats
    .filter((f) => f.container === 'mp4')
    .reduce((a, b) => ((a.bitrate ?? 0) >= (b.bitrate ?? 0) ? a : b));
  return {
    id: m.id,
    url: best.url,
    thumbnail_url: mediaUrl(m),
    duration: (m.durationMs ?? 0) / 1000,
    width: m.width,
    height: m.height,
    format: 'video/mp4',
    type: m.kind === 'gif' ? 'gif' : 'video',
    formats,
    publisher: null,
  };
}

function fxPoll(p: SimPost): Json | undefined {
  if (!p.poll) return undefined;
  const total = p.poll.choices.reduce((s, ch) => s + ch.votes, 0);
  return {
    choices: p.poll.choices.map((ch) => ({
      label: ch.label,
      count: ch.votes,
      percentage: total ? Math.round((ch.votes / total) * 1000) / 10 : 0,
    })),
    total_votes: total,
    ends_at: new Date(p.poll.endsAt).toISOString().replace('.000Z', 'Z'),
    time_left_en: p.poll.final ? 'Final results' : '1 day left',
  };
}

function fxArticle(p: SimPost): Json | undefined {
  const a = p.article;
  if (!a) return undefined;
  const d = draftArticle(a);
  return {
    created_at: isoDate(a.createdAt),
    modified_at: isoDate(a.modifiedAt),
    id: a.id,
    title: a.title,
    preview_text: a.previewText,
    cover_media: d.cover_media,
    content: d.content_state,
    media_entities: d.media_entities,
  };
}

/** The corpus's deliberately malformed facets, placed over the legacy text (code-point indices, as X counts). */
function quirkFacets(fullText: string, p: SimPost): Json[] {
  return (p.wireQuirks?.facets ?? []).map((f) => {
    const at = fullText.indexOf(f.covers);
    const start = Array.from(fullText.slice(0, at)).length;
    return { type: f.type, indices: [start, start + Array.from(f.covers).length], original: f.original };
  });
}

function overlaps(a: Json, b: Json): boolean {
  const [s, e] = a.indices as [number, number];
  const [t, f] = b.indices as [number, number];
  return s < f && t < e;
}

export interface FxStatusOptions {
  repostedBy?: SimUser;
  /** Thread members are built without a mosaic, as FxEmbed does when it passes the thread author. */
  inThread?: boolean;
  /** Quotes are one level deep on X; a quoted post carries no quote of its own. */
  isQuote?: boolean;
}

export function fxStatus(c: SimCorpus, p: SimPost, opts: FxStatusOptions = {}): Json {
  const author = authorOf(c, p);
  const isNote = !p.article && Array.from(p.text).length > NOTE_LIMIT;
  const lay = layoutText(p.id, p.text, p.replyPrefix, p.media.length > 0);
  // FxEmbed drops the x.com/i/article link entity, so the article post's own t.co is then stripped.
  const urls = p.article ? [] : lay.urls;
  const text = p.article ? '' : lay.expandedText;

  const generated: Json[] = [
    ...lay.hashtags.map((h) => ({ type: 'hashtag', indices: h.indices, original: h.text })),
    ...lay.cashtags.map((h) => ({ type: 'symbol', indices: h.indices, original: h.text })),
    ...urls.map((u) => ({
      type: 'url',
      indices: u.indices,
      original: u.url,
      replacement: u.expanded,
      display: u.display,
    })),
    ...lay.mentions.map((m) => ({
      type: 'mention',
      indices: m.indices,
      original: m.handle,
      id: c.usersByHandle.get(m.handle.toLowerCase())?.id,
    })),
    ...(p.boldRanges ?? []).map(([from, to]) => ({ type: 'bold', indices: [from, to] })),
    ...p.media.map((m, i) => ({
      type: 'media',
      indices: lay.mediaLink!.indices,
      id: m.id,
      display: mediaDisplayUrl(lay.mediaLink!.url),
      original: lay.mediaLink!.url,
      replacement: mediaPermalink(author.handle, p.id, m, i),
    })),
  ];
  const quirky = quirkFacets(lay.fullText, p);
  const facets = [...generated.filter((f) => !quirky.some((q) => overlaps(q, f))), ...quirky];
  facets.sort((a, b) => (a.indices as number[])[0]! - (b.indices as number[])[0]!);

  let embedCard = 'tweet';
  let quote: Json | undefined;
  if (p.quoteId && !opts.isQuote) {
    const reason = hiddenReason(c, p.quoteId);
    quote = reason
      ? { ...fxTombstone(reason, p.quoteId), ...p.wireQuirks?.quoteTombstone }
      : fxStatus(c, c.posts.get(p.quoteId)!, { isQuote: true, inThread: opts.inThread });
    if (!reason) embedCard = quote.embed_card as string;
  }

  const media: Json = {};
  const all = p.media.map(fxMedia);
  if (all.length) media.all = all;
  const photos = all.filter((m) => m.type === 'photo');
  const videos = all.filter((m) => m.type !== 'photo');
  if (photos.length) {
    media.photos = photos;
    embedCard = 'summary_large_image';
  }
  if (videos.length) {
    media.videos = videos;
    embedCard = 'player';
  }
  if (photos.length > 1 && !opts.inThread) {
    const keys = p.media
      .filter((m) => m.kind === 'photo')
      .map((m) => m.key)
      .join('/');
    media.mosaic = {
      type: 'mosaic_photo',
      formats: {
        webp: `https://mosaic.fxtwitter.com/webp/${p.id}/${keys}`,
        jpeg: `https://mosaic.fxtwitter.com/jpeg/${p.id}/${keys}`,
      },
    };
  }

  const parent = p.replyToId ? c.posts.get(p.replyToId) : undefined;
  const parentAuthor = parent ? authorOf(c, parent) : undefined;
  const noteLink = p.communityNote;

  return {
    type: 'status',
    url: `${WEB}/${author.handle}/status/${p.id}`,
    id: p.id,
    text,
    raw_text: {
      text: isNote ? lay.fullText : escapeLegacy(lay.fullText),
      display_text_range: isNote ? [0, lay.fullText.length] : lay.displayRange,
      facets,
    },
    author: {
      ...fxUser(author, '200x200'),
      ...(p.wireQuirks?.authorHandle ? { screen_name: p.wireQuirks.authorHandle } : {}),
    },
    replies: replyCount(c, p.id),
    reposts: p.reposts,
    likes: p.likes,
    bookmarks: p.bookmarks,
    quotes: p.quotes,
    embed_card: embedCard,
    created_at: legacyDate(p.createdAt),
    created_timestamp: Math.floor(p.createdAt / 1000),
    possibly_sensitive: p.sensitive,
    views: p.views,
    is_note_tweet: isNote,
    community_note: noteLink
      ? {
          text: noteLink.text,
          facets: noteLink.links.map((l) => ({
            type: 'url',
            indices: [l.from, l.to],
            display: noteLink.text.slice(l.from, l.to),
            replacement: l.url,
          })),
        }
      : null,
    lang: p.lang,
    replying_to:
      parent && parentAuthor && !p.replyHandleHidden
        ? {
            screen_name: parentAuthor.handle,
            status: parent.id,
            url: `${WEB}/${parentAuthor.handle}/status/${parent.id}`,
            profile_url: `${WEB}/${parentAuthor.handle}`,
          }
        : null,
    media,
    ...(quote ? { quote } : {}),
    source: p.source,
    // FxEmbed turns a unified card into media only; its destination is not passed on.
    ...(p.card && p.card.kind !== 'website'
      ? {
          card: {
            url: p.card.url,
            title: p.card.title,
            description: p.card.description,
            domain: p.card.domain,
            card_name: 'summary_large_image',
            image: { width: p.card.imageWidth, height: p.card.imageHeight, url: p.card.imageUrl, alt: p.card.imageAlt },
          },
        }
      : {}),
    ...(p.poll ? { poll: fxPoll(p) } : {}),
    ...(p.article ? { article: fxArticle(p) } : {}),
    provider: 'twitter',
    reposted_by: opts.repostedBy
      ? {
          id: opts.repostedBy.id,
          name: opts.repostedBy.name,
          screen_name: opts.repostedBy.handle,
          avatar_url: opts.repostedBy.avatarUrl.replace('_normal', '_200x200'),
          url: `${WEB}/${opts.repostedBy.handle}`,
        }
      : null,
  };
}

/** A status, or the tombstone FxTwitter puts in its place inside threads. */
export function fxStatusOrTombstone(c: SimCorpus, id: string, opts: FxStatusOptions = {}): Json {
  const reason = hiddenReason(c, id);
  return reason ? fxTombstone(reason, id) : fxStatus(c, c.posts.get(id)!, opts);
}

/**
 * The status with FxEmbed's `translation` object when `lang` asks for one and the simulated translators give it:
 * text, source_lang (the post's), source_lang_en (its English name), target_lang (normalised) and provider.
 */
export function withFxTranslation(status: Json, p: SimPost, lang: string | null): Json {
  if (!lang) return status;
  const t = simTranslation(p, lang);
  if (!t) return status;
  const target = lang.toLowerCase();
  const sourceName = new Intl.DisplayNames(['en'], { type: 'language' }).of(p.lang) ?? p.lang;
  return {
    ...status,
    translation: {
      text: t.text,
      source_lang: p.lang,
      source_lang_en: sourceName,
      target_lang: target,
      provider: t.provider,
    },
  };
}
