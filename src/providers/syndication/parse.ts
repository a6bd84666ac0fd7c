import type { Article, Author, Card, Media, Poll, Post, UnavailablePost } from '../../domain/models.ts';
import { largerAvatar, toIso } from '../shared/dates.ts';
import { permalink } from '../shared/permalinks.ts';
import { compact } from '../shared/compact.ts';
import { segmentsFromRaw, textOf, type TextFacet } from '../shared/segments.ts';
import { articlePostText, withoutArticleLink } from '../shared/article-post.ts';
import { parseLinkCard } from '../shared/cards.ts';
import type { SynCard, SynEntities, SynMediaDetail, SynTombstone, SynTweet, SynTweetBase, SynUser } from './wire.ts';
import { parseEditControl } from '../shared/edits.ts';

export function isSynTombstone(x: unknown): x is SynTombstone {
  return !!x && typeof x === 'object' && (x as { __typename?: unknown }).__typename === 'TweetTombstone';
}

/** A body we can render: a Tweet with an id and an author (suspended authors come back without `user`). */
export function isUsableTweet(x: unknown): x is SynTweetBase {
  if (!x || typeof x !== 'object' || isSynTombstone(x)) return false;
  const t = x as Partial<SynTweetBase>;
  return typeof t.id_str === 'string' && typeof t.user?.screen_name === 'string';
}

function facetsOf(e: SynEntities | undefined): TextFacet[] {
  if (!e) return [];
  return [
    ...(e.urls ?? []).map((u): TextFacet => ({
      type: 'url',
      start: u.indices[0],
      end: u.indices[1],
      original: u.url,
      href: u.expanded_url,
    })),
    ...(e.media ?? []).map((m): TextFacet => ({
      type: 'media',
      start: m.indices[0],
      end: m.indices[1],
      original: m.url,
    })),
    ...(e.user_mentions ?? []).map((m): TextFacet => ({
      type: 'mention',
      start: m.indices[0],
      end: m.indices[1],
      original: m.screen_name,
    })),
    ...(e.hashtags ?? []).map((h): TextFacet => ({
      type: 'hashtag',
      start: h.indices[0],
      end: h.indices[1],
      original: h.text,
    })),
    ...(e.symbols ?? []).map((s): TextFacet => ({
      type: 'cashtag',
      start: s.indices[0],
      end: s.indices[1],
      original: s.text,
    })),
  ];
}

/** The media t.co links are not always listed in `entities.media`; `mediaDetails` carries them too. */
function mediaFacets(t: SynTweetBase): TextFacet[] {
  if (t.entities?.media?.length) return [];
  return (t.mediaDetails ?? [])
    .filter((m) => m.indices && m.url)
    .map((m): TextFacet => ({ type: 'media', start: m.indices![0], end: m.indices![1], original: m.url }));
}

export function parseSynUser(u: SynUser): Author {
  const author: Author = {
    id: u.id_str,
    handle: u.screen_name,
    name: u.name || u.screen_name,
    verified: !!(u.verified || u.is_blue_verified || u.verified_type),
  };
  const avatar = largerAvatar(u.profile_image_url_https);
  if (avatar) author.avatarUrl = avatar;
  return author;
}

function parseMediaDetail(m: SynMediaDetail): Media | undefined {
  const base = { width: m.original_info?.width, height: m.original_info?.height, altText: m.ext_alt_text || undefined };
  if (m.type === 'photo') return compact<Media>({ kind: 'photo', url: m.media_url_https, ...base });
  const mp4 = (m.video_info?.variants ?? [])
    .filter((v) => v.content_type === 'video/mp4')
    .sort((a, b) => (b.bitrate ?? 0) - (a.bitrate ?? 0))[0];
  if (!mp4) return undefined;
  const ms = m.video_info?.duration_millis;
  return compact<Media>({
    kind: m.type === 'animated_gif' ? 'gif' : 'video',
    url: mp4.url,
    thumbnailUrl: m.media_url_https,
    ...base,
    durationSeconds: typeof ms === 'number' && ms > 0 ? ms / 1000 : undefined,
  });
}

const str = (c: SynCard, key: string) => c.binding_values?.[key]?.string_value;

/** Polls ride on `pollNchoice_*` cards whose bindings hold `choiceN_label` / `choiceN_count`. */
function pollFromCard(c: SynCard, now: number): Poll | undefined {
  const m = /^poll(\d)choice/.exec(c.name);
  if (!m) return undefined;
  const choices = [];
  for (let i = 1; i <= Number(m[1]); i++) {
    const label = str(c, `choice${i}_label`);
    if (label === undefined) continue;
    choices.push({ label, votes: Number(str(c, `choice${i}_count`) ?? 0) || 0 });
  }
  const total = choices.reduce((n, ch) => n + ch.votes, 0);
  const endsAt = toIso(str(c, 'end_datetime_utc'));
  return {
    choices: choices.map((ch) => ({ ...ch, percent: total > 0 ? Math.round((ch.votes / total) * 1000) / 10 : 0 })),
    totalVotes: total,
    endsAt,
    final: c.binding_values?.counts_are_final?.boolean_value === true || (!!endsAt && Date.parse(endsAt) <= now),
  };
}

function linkCard(c: SynCard, e: SynEntities | undefined): Card | undefined {
  return parseLinkCard(
    c.name,
    c.url,
    (k) => c.binding_values?.[k],
    (short) => e?.urls?.find((u) => u.url === short)?.expanded_url,
  );
}

export interface SynParseOptions {
  now?: number;
}

export function parseTweet(
  t: SynTweetBase & { quoted_tweet?: SynTweetBase | SynTombstone },
  opts: SynParseOptions = {},
): Post {
  const now = opts.now ?? Date.now();
  const author = parseSynUser(t.user!);
  const article = t.article?.title ? articlePreview(t.article) : undefined;
  const allSegments = segmentsFromRaw({
    text: t.text ?? '',
    range: t.display_text_range,
    facets: [...facetsOf(t.entities), ...mediaFacets(t)],
  });
  const segments = article ? withoutArticleLink(allSegments) : allSegments;
  let quote: Post | UnavailablePost | undefined;
  if (isSynTombstone(t.quoted_tweet))
    quote = { unavailable: true, reason: 'unavailable', message: t.quoted_tweet.tombstone?.text?.text };
  else if (isUsableTweet(t.quoted_tweet)) quote = parseTweet(t.quoted_tweet, opts);
  const poll = t.card ? pollFromCard(t.card, now) : undefined;
  const card = t.card && !poll ? linkCard(t.card, t.entities) : undefined;
  const post: Post = compact({
    id: t.id_str,
    url: permalink(author.handle, t.id_str),
    author,
    createdAt: toIso(t.created_at) ?? new Date(0).toISOString(),
    text: article ? articlePostText(segments, article) : textOf(segments),
    segments,
    media: (t.mediaDetails ?? []).map(parseMediaDetail).filter((m): m is Media => !!m),
    quote,
    poll,
    card,
    article,
    metrics: compact({
      likes: t.favorite_count,
      replies: t.conversation_count ?? t.reply_count,
      reposts: t.retweet_count,
    }),
    lang: t.lang && t.lang !== 'und' && t.lang !== 'zxx' ? t.lang : undefined,
    // X may leave out the parent's handle and keep its id.
    replyTo:
      t.in_reply_to_screen_name || t.in_reply_to_status_id_str
        ? compact({ id: t.in_reply_to_status_id_str, handle: t.in_reply_to_screen_name ?? '' })
        : undefined,
    sensitive: t.possibly_sensitive || undefined,
    // Long posts: syndication sends only the first ~280 characters and a note id, never the full text.
    // Articles come as a preview only.
    truncated: t.note_tweet || article ? true : undefined,
    edits: parseEditControl(t.id_str, t.edit_control),
  });
  return post;
}

function articlePreview(a: NonNullable<SynTweetBase['article']>): Article {
  return compact<Article>({
    id: a.rest_id,
    title: a.title!,
    previewText: a.preview_text || undefined,
    coverUrl: a.cover_media?.media_info?.original_img_url,
    blocks: a.preview_text ? [{ type: 'paragraph', spans: [{ text: a.preview_text }] }] : [],
  });
}

export function parseParent(t: SynTweet, opts: SynParseOptions = {}): Post | undefined {
  return isUsableTweet(t.parent) ? parseTweet(t.parent, opts) : undefined;
}
