// Corpus records -> cdn.syndication.twimg.com `tweet-result` JSON (react-tweet's `Tweet` type, checked
// against a captured body): ISO dates, v1.1-style entities, mediaDetails/photos/video, one level of
// quoted_tweet and parent, note tweets truncated with only a `note_tweet.id`, polls as pollNchoice cards.
import type { SimCorpus, SimMedia, SimPost, SimUser } from '../corpus-types.ts';
import { authorOf, editControl, isSupersededVersion, replyCount, visibility } from '../corpus-queries.ts';
import { escapeLegacy, layoutText, tcoFor, type LaidOutText } from '../text.ts';
import { isoDate } from './dates.ts';
import { aspectRatio, mediaDisplayUrl, mediaPermalink, mediaUrl, variants } from './media.ts';
import { unifiedCardJson } from './unified-card.ts';

type Json = Record<string, unknown>;

/** Visible characters X keeps in `text` for a long post before cutting it. */
const NOTE_CUT = 275;

export function syndicationToken(id: string): string {
  return ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '');
}

function user(u: SimUser): Json {
  return {
    id_str: u.id,
    name: u.name,
    profile_image_url_https: u.avatarUrl,
    screen_name: u.handle,
    verified: false,
    ...(u.verified === 'organization'
      ? { verified_type: 'Business' }
      : u.verified === 'government'
        ? { verified_type: 'Government' }
        : {}),
    is_blue_verified: u.verified !== null,
    profile_image_shape: u.verified === 'organization' ? 'Square' : 'Circle',
  };
}

function mediaDetail(handle: string, p: SimPost, m: SimMedia, i: number, lay: LaidOutText): Json {
  const link = lay.mediaLink!;
  const sizes = {
    large: { h: m.height, resize: 'fit', w: m.width },
    medium: { h: Math.round(m.height * 0.6), resize: 'fit', w: Math.round(m.width * 0.6) },
    small: { h: Math.round(m.height * 0.4), resize: 'fit', w: Math.round(m.width * 0.4) },
    thumb: { h: 150, resize: 'crop', w: 150 },
  };
  return {
    display_url: mediaDisplayUrl(link.url),
    expanded_url: mediaPermalink(handle, p.id, m, i),
    ...(m.alt ? { ext_alt_text: m.alt } : {}),
    ext_media_availability: { status: 'Available' },
    indices: link.indices,
    media_key: `${m.kind === 'photo' ? 3 : m.kind === 'gif' ? 16 : 7}_${m.id}`,
    media_url_https: mediaUrl(m),
    original_info: { height: m.height, width: m.width },
    sizes,
    type: m.kind === 'gif' ? 'animated_gif' : m.kind,
    url: link.url,
    ...(m.kind === 'photo'
      ? {}
      : {
          video_info: {
            aspect_ratio: aspectRatio(m),
            ...(m.kind === 'video' ? { duration_millis: m.durationMs } : {}),
            variants: variants(m),
          },
        }),
  };
}

function pollCard(p: SimPost): Json {
  const poll = p.poll!;
  const bindings: Json = {};
  poll.choices.forEach((ch, i) => {
    bindings[`choice${i + 1}_label`] = { string_value: ch.label, type: 'STRING' };
    bindings[`choice${i + 1}_count`] = { string_value: String(ch.votes), type: 'STRING' };
  });
  const end = new Date(poll.endsAt).toISOString().replace('.000Z', 'Z');
  Object.assign(bindings, {
    end_datetime_utc: { string_value: end, type: 'STRING' },
    counts_are_final: { boolean_value: poll.final, type: 'BOOLEAN' },
    last_updated_datetime_utc: { string_value: end, type: 'STRING' },
    duration_minutes: { string_value: String(poll.durationMinutes), type: 'STRING' },
    api: { string_value: 'capi://passthrough/1', type: 'STRING' },
    card_url: { scribe_key: 'card_url', string_value: 'https://x.com', type: 'STRING' },
  });
  return { name: `poll${poll.choices.length}choice_text_only`, url: `card://${p.id}00001`, binding_values: bindings };
}

function linkCard(p: SimPost, lay: LaidOutText): Json {
  const card = p.card!;
  if (card.kind === 'website')
    return {
      name: 'unified_card',
      url: `card://${p.id}`,
      binding_values: {
        unified_card: { string_value: unifiedCardJson(card), type: 'STRING' },
        card_url: { scribe_key: 'card_url', string_value: 'https://twitter.com', type: 'STRING' },
      },
    };
  const tco = lay.urls.find((u) => u.expanded === card.url)?.url ?? tcoFor(`${p.id}:${card.url}`);
  const image = {
    image_value: { alt: card.imageAlt ?? '', height: card.imageHeight, width: card.imageWidth, url: card.imageUrl },
    type: 'IMAGE',
  };
  return {
    name: 'summary_large_image',
    url: tco,
    binding_values: {
      photo_image_full_size_large: image,
      thumbnail_image_large: image,
      summary_photo_image_large: image,
      description: { string_value: card.description, type: 'STRING' },
      domain: { string_value: card.domain, type: 'STRING' },
      title: { string_value: card.title, type: 'STRING' },
      vanity_url: { scribe_key: 'vanity_url', string_value: card.domain, type: 'STRING' },
      card_url: { scribe_key: 'card_url', string_value: tco, type: 'STRING' },
    },
  };
}

/** Fields shared by the main tweet, its parent and its quoted tweet (react-tweet `TweetBase`). */
function base(c: SimCorpus, p: SimPost): Json {
  const author = authorOf(c, p);
  const lay = layoutText(p.id, p.text, p.replyPrefix, p.media.length > 0);
  const visible = Array.from(lay.fullText).slice(0, lay.displayRange[1]).length;
  let text = lay.fullText;
  let range = lay.displayRange;
  let urls = lay.urls;
  let hashtags = lay.hashtags;
  let mentions = lay.mentions;
  let cashtags = lay.cashtags;
  const isNote = !p.article && visible > 280;
  if (isNote) {
    // Long posts: the syndication body keeps only the start of the text; the rest is behind note_tweet.id.
    const cut = Array.from(lay.fullText)
      .slice(0, NOTE_CUT)
      .join('')
      .replace(/\s+\S*$/, '');
    text = `${cut}…`;
    range = [lay.displayRange[0], Array.from(text).length];
    const within = (e: { indices: [number, number] }) => e.indices[1] <= Array.from(cut).length;
    urls = urls.filter(within);
    hashtags = hashtags.filter(within);
    mentions = mentions.filter(within);
    cashtags = cashtags.filter(within);
  }
  const entities: Json = {
    hashtags: hashtags.map((h) => ({ indices: h.indices, text: h.text })),
    urls: urls.map((u) => ({ display_url: u.display, expanded_url: u.expanded, indices: u.indices, url: u.url })),
    user_mentions: mentions.map((m) => {
      const u = c.usersByHandle.get(m.handle.toLowerCase());
      return { id_str: u?.id ?? '0', indices: m.indices, name: u?.name ?? m.handle, screen_name: m.handle };
    }),
    symbols: cashtags.map((s) => ({ indices: s.indices, text: s.text })),
  };
  if (p.media.length) {
    entities.media = p.media.map((m, i) => ({
      display_url: mediaDisplayUrl(lay.mediaLink!.url),
      expanded_url: mediaPermalink(author.handle, p.id, m, i),
      indices: lay.mediaLink!.indices,
      url: lay.mediaLink!.url,
    }));
  }
  return {
    lang: p.lang,
    created_at: isoDate(p.createdAt),
    display_text_range: range,
    entities,
    id_str: p.id,
    text: isNote ? text : escapeLegacy(text),
    user: user(author),
    edit_control: editControl(p),
    isEdited: (p.editVersions?.length ?? 1) > 1,
    isStaleEdit: isSupersededVersion(p),
    ...(isNote ? { note_tweet: { id: Buffer.from(`NoteTweet:${p.id}`).toString('base64') } } : {}),
    ...(p.poll ? { card: pollCard(p) } : p.card ? { card: linkCard(p, lay) } : {}),
    ...(p.media.length ? { mediaDetails: p.media.map((m, i) => mediaDetail(author.handle, p, m, i, lay)) } : {}),
    // Syndication carries an Article's title, preview and cover, never its body.
    ...(p.article
      ? {
          article: {
            rest_id: p.article.id,
            title: p.article.title,
            preview_text: p.article.previewText,
            cover_media: { media_info: { original_img_url: p.article.cover.url } },
          },
        }
      : {}),
  };
}

function photos(handle: string, p: SimPost): Json[] | undefined {
  const list = p.media.filter((m) => m.kind === 'photo');
  if (!list.length) return undefined;
  return list.map((m, i) => ({
    backgroundColor: { red: 204, green: 214, blue: 221 },
    cropCandidates: [{ x: 0, y: 0, w: m.width, h: m.height }],
    expandedUrl: mediaPermalink(handle, p.id, m, i),
    url: mediaUrl(m),
    width: m.width,
    height: m.height,
  }));
}

function video(p: SimPost): Json | undefined {
  const m = p.media.find((x) => x.kind !== 'photo');
  if (!m) return undefined;
  return {
    aspectRatio: aspectRatio(m),
    contentType: m.kind === 'gif' ? 'gif' : 'media_entity',
    durationMs: m.durationMs ?? 0,
    mediaAvailability: { status: 'available' },
    poster: mediaUrl(m),
    variants: variants(m).map((v) => ({ type: v.content_type, src: v.url })),
    videoId: { type: 'tweet', id: p.id },
    viewCount: 0,
  };
}

const counts = (c: SimCorpus, p: SimPost) => ({
  reply_count: replyCount(c, p.id),
  retweet_count: p.reposts,
  favorite_count: p.likes,
});

export function syndicationTweet(c: SimCorpus, p: SimPost): Json {
  const author = authorOf(c, p);
  const parent = p.replyToId ? c.posts.get(p.replyToId) : undefined;
  const quoted = p.quoteId && visibility(c, p.quoteId) === 'ok' ? c.posts.get(p.quoteId) : undefined;
  const body: Json = {
    __typename: 'Tweet',
    ...base(c, p),
    favorite_count: p.likes,
    possibly_sensitive: p.sensitive,
    conversation_count: replyCount(c, p.id),
    news_action_type: 'conversation',
  };
  const ph = photos(author.handle, p);
  if (ph) body.photos = ph;
  const v = video(p);
  if (v) body.video = v;
  if (parent) {
    const parentAuthor = authorOf(c, parent);
    Object.assign(body, {
      ...(p.replyHandleHidden ? {} : { in_reply_to_screen_name: parentAuthor.handle }),
      in_reply_to_status_id_str: parent.id,
      in_reply_to_user_id_str: parentAuthor.id,
    });
    if (visibility(c, parent.id) === 'ok') body.parent = { ...base(c, parent), ...counts(c, parent) };
  }
  if (quoted)
    body.quoted_tweet = { ...base(c, quoted), ...counts(c, quoted), self_thread: { id_str: quoted.conversationId } };
  return body;
}

/** Body for a post hidden from logged-out embed viewers. */
export function syndicationTombstone(reason: 'deleted' | 'protected'): Json {
  const text =
    reason === 'deleted'
      ? 'This Post was deleted by the Post author. Learn more'
      : "You're unable to view this Post because this account owner limits who can view their Posts. Learn more";
  const from = text.indexOf('Learn more');
  return {
    __typename: 'TweetTombstone',
    tombstone: {
      text: {
        text,
        entities: [
          {
            from_index: from,
            to_index: from + 10,
            ref: {
              __typename: 'TimelineUrl',
              url: 'https://help.x.com/rules-and-policies/notices-on-x',
              url_type: 'ExternalUrl',
            },
          },
        ],
        rtl: false,
      },
    },
  };
}
