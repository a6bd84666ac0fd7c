// X GraphQL tweet result → domain Post (or UnavailablePost for tombstones).
import type { Card, Media, Poll, Post, UnavailablePost } from '../../domain/models.ts';
import { toIso } from '../shared/dates.ts';
import { permalink } from '../shared/permalinks.ts';
import { segmentsFromRaw, textOf, type RawText, type TextFacet } from '../shared/segments.ts';
import { parseUser } from './user.ts';
import type { XCardBinding, XCardLegacy, XEntitySet, XMedia, XTweet, XTweetResult } from './wire.ts';
import { parseEditControl } from '../shared/edits.ts';
import { parseArticle } from '../shared/article.ts';
import { parseLinkCard } from '../shared/cards.ts';
import { articlePostText, withoutArticleLink } from '../shared/article-post.ts';

/** Quotes of quotes of reposts...: X nests at most a couple of levels; more is a malformed answer. */
const MAX_DEPTH = 3;

/** Unwraps TweetWithVisibilityResults; undefined for tombstones and missing results. */
export function unwrapTweet(result: XTweetResult | undefined): XTweet | undefined {
  if (!result) return undefined;
  if (result.__typename === 'TweetWithVisibilityResults') return result.tweet;
  if (result.__typename === 'TweetTombstone' || result.__typename === 'TweetUnavailable') return undefined;
  return result;
}

export function parseTweetResult(result: XTweetResult | undefined, depth = 0): Post | UnavailablePost | undefined {
  if (!result) return undefined;
  if (result.__typename === 'TweetTombstone') {
    const message = result.tombstone?.text?.text;
    return { unavailable: true, reason: tombstoneReason(message), ...(message ? { message } : {}) };
  }
  if (result.__typename === 'TweetUnavailable') {
    const reason =
      result.reason === 'Suspended' ? 'suspended' : result.reason === 'Protected' ? 'private' : 'unavailable';
    return { unavailable: true, reason, ...(result.reason ? { message: result.reason } : {}) };
  }
  const tweet = unwrapTweet(result);
  return tweet ? parseTweet(tweet, depth) : undefined;
}

/** A result that is a readable post (not a tombstone, not missing). */
export function parsePost(result: XTweetResult | undefined): Post | undefined {
  const p = parseTweetResult(result);
  return p && !('unavailable' in p) ? p : undefined;
}

function tombstoneReason(text: string | undefined): UnavailablePost['reason'] {
  if (!text) return 'unavailable';
  if (/suspended/i.test(text)) return 'suspended';
  if (/protected|approved followers|limits who can view/i.test(text)) return 'private';
  if (/deleted|doesn.t exist|no longer/i.test(text)) return 'deleted';
  return 'unavailable';
}

export function parseTweet(tweet: XTweet, depth = 0): Post | undefined {
  const legacy = tweet.legacy;
  const id = tweet.rest_id ?? legacy?.id_str;
  const author = parseUser(tweet.core?.user_results?.result);
  if (!legacy || !id || !author) return undefined;

  const urls = legacy.entities?.urls ?? [];
  const quoteLinks = new Set<string>();
  const qp = legacy.quoted_status_permalink?.expanded;
  if (qp) {
    quoteLinks.add(qp);
    quoteLinks.add(qp.replace('://twitter.com/', '://x.com/'));
  }
  const note = tweet.note_tweet?.note_tweet_results?.result;
  const raw: RawText = note?.text
    ? { text: note.text, facets: facetsOf(note.entity_set) }
    : { text: legacy.full_text ?? '', range: legacy.display_text_range, facets: facetsOf(legacy.entities) };
  const segments = segmentsFromRaw(raw, quoteLinks);

  const post: Post = {
    id,
    url: permalink(author.handle, id),
    author,
    createdAt: toIso(legacy.created_at) ?? snowflakeTime(id),
    text: textOf(segments),
    segments,
    media: (legacy.extended_entities?.media ?? legacy.entities?.media ?? [])
      .map(parseMedia)
      .filter((m): m is Media => !!m),
    metrics: {
      likes: legacy.favorite_count,
      reposts: legacy.retweet_count,
      quotes: legacy.quote_count,
      replies: legacy.reply_count,
      bookmarks: legacy.bookmark_count,
      ...(tweet.views?.count ? { views: Number(tweet.views.count) } : {}),
    },
  };
  if (legacy.lang) post.lang = legacy.lang;
  const source = tweet.source === undefined ? undefined : withoutTags(tweet.source).trim();
  if (source) post.source = source;
  if (legacy.in_reply_to_screen_name || legacy.in_reply_to_status_id_str) {
    post.replyTo = {
      handle: legacy.in_reply_to_screen_name ?? '',
      ...(legacy.in_reply_to_status_id_str ? { id: legacy.in_reply_to_status_id_str } : {}),
    };
  }
  if (legacy.conversation_id_str) post.conversationId = legacy.conversation_id_str;
  if (legacy.possibly_sensitive !== undefined) post.sensitive = legacy.possibly_sensitive;
  const edits = parseEditControl(id, tweet.edit_control);
  if (edits) post.edits = edits;
  const communityNote = tweet.birdwatch_pivot?.subtitle?.text ?? tweet.birdwatch_pivot?.note?.summary?.text;
  if (communityNote) post.communityNote = communityNote;

  if (depth < MAX_DEPTH) {
    const quoted = parseTweetResult(tweet.quoted_status_result?.result, depth + 1);
    if (quoted) post.quote = quoted;
    else if (legacy.quoted_status_id_str)
      post.quote = { unavailable: true, id: legacy.quoted_status_id_str, reason: 'unavailable' };
    const reposted = parseTweetResult(legacy.retweeted_status_result?.result, depth + 1);
    if (reposted && !('unavailable' in reposted)) post.repostOf = reposted;
  }

  const card = tweet.card?.legacy;
  if (card) {
    const poll = parsePoll(card);
    if (poll) post.poll = poll;
    else {
      const c = parseCard(card, urls);
      if (c) post.card = c;
    }
  }
  const article = tweet.article?.article_results?.result;
  if (article?.title) {
    post.article = parseArticle({
      id: article.rest_id,
      title: article.title,
      previewText: article.preview_text,
      cover: article.cover_media,
      content: article.content_state,
      mediaEntities: article.media_entities,
    });
    post.segments = withoutArticleLink(post.segments);
    post.text = articlePostText(post.segments, post.article);
  }
  return post;
}

function facetsOf(e: XEntitySet | undefined): TextFacet[] {
  if (!e) return [];
  const out: TextFacet[] = [];
  for (const u of e.urls ?? [])
    out.push({ type: 'url', start: u.indices[0], end: u.indices[1], original: u.url, href: u.expanded_url ?? u.url });
  for (const m of e.media ?? [])
    if (m.indices && m.url) out.push({ type: 'media', start: m.indices[0], end: m.indices[1], original: m.url });
  for (const m of e.user_mentions ?? [])
    out.push({ type: 'mention', start: m.indices[0], end: m.indices[1], original: m.screen_name });
  for (const h of e.hashtags ?? [])
    out.push({ type: 'hashtag', start: h.indices[0], end: h.indices[1], original: h.text });
  for (const s of e.symbols ?? [])
    out.push({ type: 'cashtag', start: s.indices[0], end: s.indices[1], original: s.text });
  return out;
}

export function parseMedia(m: XMedia): Media | undefined {
  const still = m.media_url_https;
  const size = {
    ...(m.original_info?.width ? { width: m.original_info.width } : {}),
    ...(m.original_info?.height ? { height: m.original_info.height } : {}),
  };
  const alt = m.ext_alt_text ? { altText: m.ext_alt_text } : {};
  if (m.type === 'photo') return still ? { kind: 'photo', url: still, ...size, ...alt } : undefined;
  const mp4 = (m.video_info?.variants ?? [])
    .filter((v) => v.content_type === 'video/mp4')
    .sort((a, b) => (b.bitrate ?? 0) - (a.bitrate ?? 0))[0];
  const url = mp4?.url ?? still;
  if (!url) return undefined;
  const duration =
    m.type === 'video' && m.video_info?.duration_millis ? { durationSeconds: m.video_info.duration_millis / 1000 } : {};
  return {
    kind: m.type === 'animated_gif' ? 'gif' : 'video',
    url,
    ...(still ? { thumbnailUrl: still } : {}),
    ...size,
    ...alt,
    ...duration,
  };
}

function bindings(card: XCardLegacy): Map<string, NonNullable<XCardBinding['value']>> {
  return new Map((card.binding_values ?? []).filter((b) => b.value).map((b) => [b.key, b.value!]));
}

/**
 * Poll cards are named poll2choice_text_only, poll4choice_image...; counts arrive as strings. A poll past its
 * end time is final even when `counts_are_final` was still false when X built the answer.
 */
export function parsePoll(card: XCardLegacy, now = Date.now()): Poll | undefined {
  const n = Number(/^poll(\d)choice/.exec(card.name ?? '')?.[1] ?? NaN);
  if (!Number.isFinite(n)) return undefined;
  const b = bindings(card);
  const raw = Array.from({ length: n }, (_, i) => ({
    label: b.get(`choice${i + 1}_label`)?.string_value ?? '',
    votes: Number(b.get(`choice${i + 1}_count`)?.string_value ?? 0) || 0,
  }));
  const totalVotes = raw.reduce((s, c) => s + c.votes, 0);
  const endsAt = toIso(b.get('end_datetime_utc')?.string_value);
  return {
    choices: raw.map((c) => ({ ...c, percent: totalVotes ? Math.round((c.votes / totalVotes) * 1000) / 10 : 0 })),
    totalVotes,
    final: b.get('counts_are_final')?.boolean_value === true || (!!endsAt && Date.parse(endsAt) <= now),
    ...(endsAt ? { endsAt } : {}),
  };
}

function parseCard(card: XCardLegacy, urls: NonNullable<XEntitySet['urls']>): Card | undefined {
  const b = bindings(card);
  return parseLinkCard(
    card.name,
    card.url,
    (k) => b.get(k),
    (short) => urls.find((u) => u.url === short)?.expanded_url,
  );
}

/** Post ids are snowflakes: milliseconds since X's epoch in the high bits. */
function snowflakeTime(id: string): string {
  try {
    return new Date(Number((BigInt(id) >> 22n) + 1288834974657n)).toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}

/** The text of X's `source` anchor. A scan, not /<[^>]*>/g, which is quadratic on a run of unclosed `<`. */
export function withoutTags(html: string): string {
  let out = '';
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open < 0) break;
    const close = html.indexOf('>', open + 1);
    if (close < 0) break;
    out += html.slice(i, open);
    i = close + 1;
  }
  return out + html.slice(i);
}
