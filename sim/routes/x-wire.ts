// Corpus records -> X web GraphQL shapes (the provider's own wire types), nested as the real captures
// are: Tweet with core.user_results, legacy text with entities, note_tweet for long posts, cards for polls
// and links, TweetTombstone for posts that cannot be shown, users in the 2026 split shape plus `legacy`.
import type { SimCorpus, SimMedia, SimPost, SimUser } from '../corpus-types.ts';
import { authorOf, editControl, replyCount, visibility } from '../corpus-queries.ts';
import { escapeLegacy, layoutText, type LaidOutText } from '../text.ts';
import { legacyDate } from '../wire/dates.ts';
import { draftArticle } from '../wire/article.ts';
import { unifiedCardJson } from '../wire/unified-card.ts';
import { aspectRatio, mediaDisplayUrl, mediaPermalink, mediaUrl, variants } from '../wire/media.ts';
import type {
  XCardBinding,
  XEntitySet,
  XEntry,
  XMedia,
  XModuleItem,
  XTweet,
  XTweetResult,
  XUser,
  XUserResult,
} from '../../src/providers/x/wire.ts';

const NOTE_LIMIT = 280;
const X_EPOCH = 1288834974657n;

const TOMBSTONES = {
  suspended: 'This Post is from a suspended account. Learn more',
  protected: 'You’re unable to view this Post because this account owner limits who can view their Posts. Learn more',
  deleted: 'This Post was deleted by the Post author. Learn more',
} as const;

export function xUser(u: SimUser): XUserResult {
  if (u.suspended) return { __typename: 'UserUnavailable', reason: 'Suspended', message: 'User is suspended' };
  const bio = layoutText(`bio:${u.id}`, u.bio, [], false);
  const site = u.website ? layoutText(`site:${u.id}`, u.website, [], false).urls[0] : undefined;
  const user: XUser = {
    __typename: 'User',
    id: Buffer.from(`User:${u.id}`).toString('base64'),
    rest_id: u.id,
    is_blue_verified: u.verified !== null,
    core: { created_at: legacyDate(u.createdAt), name: u.name, screen_name: u.handle },
    avatar: { image_url: u.avatarUrl },
    location: { location: u.location },
    privacy: { protected: u.protected },
    profile_bio: { description: bio.fullText },
    verification: { verified: false },
    legacy: {
      description: bio.fullText,
      entities: {
        description: {
          urls: bio.urls.map((x) => ({
            url: x.url,
            expanded_url: x.expanded,
            display_url: x.display,
            indices: x.indices,
          })),
        },
        ...(site
          ? {
              url: {
                urls: [
                  {
                    url: site.url,
                    expanded_url: site.expanded,
                    display_url: site.display,
                    indices: [0, site.url.length] as [number, number],
                  },
                ],
              },
            }
          : {}),
      },
      followers_count: u.followers,
      friends_count: u.following,
      statuses_count: u.statuses,
      media_count: u.mediaCount,
      favourites_count: u.likes,
      ...(u.bannerUrl ? { profile_banner_url: u.bannerUrl } : {}),
      ...(site ? { url: site.url } : {}),
    },
  };
  return user;
}

function entitySet(lay: LaidOutText): XEntitySet {
  return {
    hashtags: lay.hashtags.map((h) => ({ text: h.text, indices: h.indices })),
    symbols: lay.cashtags.map((h) => ({ text: h.text, indices: h.indices })),
    urls: lay.urls.map((x) => ({ url: x.url, expanded_url: x.expanded, display_url: x.display, indices: x.indices })),
    user_mentions: lay.mentions.map((m) => ({ screen_name: m.handle, indices: m.indices })),
  };
}

function xMedia(p: SimPost, handle: string, lay: LaidOutText): XMedia[] {
  return p.media.map((m: SimMedia, i) => {
    const tco = lay.mediaLink!;
    const out: XMedia = {
      id_str: m.id,
      media_key: `${m.kind === 'photo' ? 3 : m.kind === 'gif' ? 16 : 7}_${m.id}`,
      type: m.kind === 'gif' ? 'animated_gif' : m.kind,
      url: tco.url,
      media_url_https: mediaUrl(m),
      indices: tco.indices,
      display_url: mediaDisplayUrl(tco.url),
      expanded_url: mediaPermalink(handle, p.id, m, i),
      original_info: { width: m.width, height: m.height },
      ...(m.alt ? { ext_alt_text: m.alt } : {}),
    };
    if (m.kind !== 'photo') {
      out.video_info = {
        aspect_ratio: aspectRatio(m),
        variants: variants(m),
        ...(m.durationMs ? { duration_millis: m.durationMs } : {}),
      };
    }
    return out;
  });
}

function binding(key: string, value: XCardBinding['value']): XCardBinding {
  return { key, value };
}

function card(p: SimPost, lay: LaidOutText): XTweet['card'] | undefined {
  if (p.poll) {
    const n = p.poll.choices.length;
    return {
      rest_id: `card://${p.id}`,
      legacy: {
        name: `poll${n}choice_text_only`,
        url: `card://${p.id}`,
        binding_values: [
          ...p.poll.choices.flatMap((c, i) => [
            binding(`choice${i + 1}_label`, { type: 'STRING', string_value: c.label }),
            binding(`choice${i + 1}_count`, { type: 'STRING', string_value: String(c.votes) }),
          ]),
          binding('end_datetime_utc', {
            type: 'STRING',
            string_value: new Date(p.poll.endsAt).toISOString().replace('.000Z', 'Z'),
          }),
          binding('counts_are_final', { type: 'BOOLEAN', boolean_value: p.poll.final }),
          binding('duration_minutes', { type: 'STRING', string_value: String(p.poll.durationMinutes) }),
        ],
      },
    };
  }
  if (p.card?.kind === 'website') {
    return {
      rest_id: `card://${p.id}`,
      legacy: {
        name: 'unified_card',
        url: `card://${p.id}`,
        binding_values: [
          binding('unified_card', { type: 'STRING', string_value: unifiedCardJson(p.card) }),
          binding('card_url', { type: 'STRING', string_value: 'https://twitter.com' }),
        ],
      },
    };
  }
  if (p.card) {
    const tco = lay.urls.find((u) => u.expanded === p.card!.url)?.url ?? p.card.url;
    return {
      rest_id: `card://${p.id}`,
      legacy: {
        name: 'summary_large_image',
        url: tco,
        binding_values: [
          binding('title', { type: 'STRING', string_value: p.card.title }),
          binding('description', { type: 'STRING', string_value: p.card.description }),
          binding('domain', { type: 'STRING', string_value: p.card.domain }),
          binding('card_url', { type: 'STRING', string_value: tco }),
          binding('thumbnail_image_original', {
            type: 'IMAGE',
            image_value: {
              url: p.card.imageUrl,
              width: p.card.imageWidth,
              height: p.card.imageHeight,
              ...(p.card.imageAlt ? { alt: p.card.imageAlt } : {}),
            },
          }),
        ],
      },
    };
  }
  return undefined;
}

function tombstone(text: string): XTweetResult {
  return {
    __typename: 'TweetTombstone',
    tombstone: { __typename: 'TextTombstone', text: { text, entities: [], rtl: false } },
  };
}

/**
 * One post as a tweet result: a Tweet, a TweetTombstone (suspended author, protected account, deleted post
 * shown inside a conversation), or undefined when the post does not exist at all.
 */
export function xTweetResult(c: SimCorpus, id: string, depth = 0): XTweetResult | undefined {
  const v = visibility(c, id);
  if (v === 'missing') return undefined;
  if (v !== 'ok') return tombstone(TOMBSTONES[v]);
  return xTweet(c, c.posts.get(id)!, depth);
}

export function xTweet(c: SimCorpus, p: SimPost, depth = 0): XTweet {
  const author = authorOf(c, p);
  const lay = layoutText(p.id, p.text, p.replyPrefix, p.media.length > 0);
  const points = Array.from(lay.fullText);
  const isNote = Array.from(p.text).length > NOTE_LIMIT;
  // Long posts: legacy keeps a cut-off preview, the whole text lives in note_tweet (as on X).
  const cut = isNote ? lay.displayRange[0] + NOTE_LIMIT - 5 : points.length;
  const inCut = <T extends { indices: [number, number] }>(xs: T[]) => xs.filter((x) => x.indices[1] <= cut);
  const entities = entitySet(lay);
  const media = xMedia(p, author.handle, lay);
  const quoted = p.quoteId ? c.posts.get(p.quoteId) : undefined;
  const tweet: XTweet = {
    __typename: 'Tweet',
    rest_id: p.id,
    core: { user_results: { result: xUser(author) } },
    views: { count: String(p.views), state: 'EnabledWithCount' },
    edit_control: editControl(p),
    source: `<a href="https://mobile.twitter.com" rel="nofollow">${p.source}</a>`,
    legacy: {
      id_str: p.id,
      user_id_str: author.id,
      created_at: legacyDate(p.createdAt),
      conversation_id_str: p.conversationId,
      full_text: escapeLegacy(isNote ? points.slice(0, cut).join('') : lay.fullText),
      display_text_range: [lay.displayRange[0], Math.min(lay.displayRange[1], cut)],
      entities: isNote
        ? {
            hashtags: inCut(entities.hashtags!),
            symbols: inCut(entities.symbols!),
            urls: inCut(entities.urls!),
            user_mentions: inCut(entities.user_mentions!),
          }
        : { ...entities, ...(media.length ? { media } : {}) },
      ...(media.length ? { extended_entities: { media } } : {}),
      favorite_count: p.likes,
      retweet_count: p.reposts,
      quote_count: p.quotes,
      reply_count: replyCount(c, p.id),
      bookmark_count: p.bookmarks,
      lang: p.lang,
      possibly_sensitive: p.sensitive,
      is_quote_status: !!p.quoteId,
      ...(p.replyToId
        ? {
            in_reply_to_status_id_str: p.replyToId,
            ...(p.replyHandleHidden ? {} : { in_reply_to_screen_name: replyTarget(c, p) }),
            in_reply_to_user_id_str: c.posts.get(p.replyToId)?.authorId,
          }
        : {}),
      ...(p.quoteId
        ? {
            quoted_status_id_str: p.quoteId,
            quoted_status_permalink: {
              url: `https://t.co/q${p.quoteId.slice(-8)}`,
              expanded: `https://twitter.com/${quoted ? authorOf(c, quoted).handle : 'i'}/status/${p.quoteId}`,
              display: `x.com/${quoted ? authorOf(c, quoted).handle : 'i'}/status/…`,
            },
          }
        : {}),
    },
  };
  if (isNote) {
    const note = layoutText(p.id, p.text, [], false);
    tweet.note_tweet = {
      is_expandable: true,
      note_tweet_results: {
        result: {
          id: Buffer.from(`NoteTweet:${p.id}`).toString('base64'),
          text: note.fullText,
          entity_set: entitySet(note),
          ...(p.boldRanges?.length
            ? {
                richtext: {
                  richtext_tags: p.boldRanges.map(([from, to]) => ({
                    from_index: from,
                    to_index: to,
                    richtext_types: ['Bold'],
                  })),
                },
              }
            : {}),
        },
      },
    };
  }
  if (p.quoteId && depth < 2) {
    const q = xTweetResult(c, p.quoteId, depth + 1);
    if (q) tweet.quoted_status_result = { result: q };
  }
  const cd = card(p, lay);
  if (cd) tweet.card = cd;
  if (p.communityNote)
    tweet.birdwatch_pivot = {
      title: 'Readers added context they thought people might want to know',
      subtitle: { text: p.communityNote.text },
    };
  if (p.article) {
    tweet.article = {
      article_results: {
        result: {
          rest_id: p.article.id,
          title: p.article.title,
          preview_text: p.article.previewText,
          ...draftArticle(p.article),
        },
      },
    };
  }
  return tweet;
}

function replyTarget(c: SimCorpus, p: SimPost): string {
  const parent = p.replyToId ? c.posts.get(p.replyToId) : undefined;
  return parent ? authorOf(c, parent).handle : (p.replyPrefix[0] ?? '');
}

/** A repost row: the reposter's own Tweet ("RT @x: ...") wrapping the original in retweeted_status_result. */
export function xRepost(c: SimCorpus, original: SimPost, reposter: SimUser, at: number): XTweet {
  const id = String(((BigInt(at) - X_EPOCH) << 22n) + (BigInt(reposter.id) % 4096n));
  const inner = xTweet(c, original);
  const text = `RT @${authorOf(c, original).handle}: ${inner.legacy!.full_text ?? ''}`;
  return {
    __typename: 'Tweet',
    rest_id: id,
    core: { user_results: { result: xUser(reposter) } },
    legacy: {
      id_str: id,
      user_id_str: reposter.id,
      created_at: legacyDate(at),
      conversation_id_str: original.conversationId,
      full_text: text,
      display_text_range: [0, Array.from(text).length],
      entities: { hashtags: [], symbols: [], urls: [], user_mentions: [] },
      favorite_count: 0,
      retweet_count: original.reposts,
      quote_count: 0,
      reply_count: 0,
      lang: original.lang,
      retweeted_status_result: { result: inner },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Entries

export function tweetEntry(entryId: string, sortIndex: string, result: XTweetResult, displayType = 'Tweet'): XEntry {
  return {
    entryId,
    sortIndex,
    content: {
      entryType: 'TimelineTimelineItem',
      __typename: 'TimelineTimelineItem',
      itemContent: {
        itemType: 'TimelineTweet',
        __typename: 'TimelineTweet',
        tweet_results: { result },
        tweetDisplayType: displayType,
      },
    },
  };
}

export function moduleItem(entryId: string, result: XTweetResult, displayType = 'Tweet'): XModuleItem {
  return {
    entryId,
    item: {
      itemContent: {
        itemType: 'TimelineTweet',
        __typename: 'TimelineTweet',
        tweet_results: { result },
        tweetDisplayType: displayType,
      },
    },
  };
}

export function moduleEntry(
  entryId: string,
  sortIndex: string,
  items: XModuleItem[],
  displayType = 'VerticalConversation',
): XEntry {
  return {
    entryId,
    sortIndex,
    content: { entryType: 'TimelineTimelineModule', __typename: 'TimelineTimelineModule', items, displayType },
  };
}

export function userEntry(u: SimUser, sortIndex: string): XEntry {
  return {
    entryId: `user-${u.id}`,
    sortIndex,
    content: {
      entryType: 'TimelineTimelineItem',
      __typename: 'TimelineTimelineItem',
      itemContent: {
        itemType: 'TimelineUser',
        __typename: 'TimelineUser',
        userDisplayType: 'User',
        user_results: { result: xUser(u) },
      },
    },
  };
}

/** Cursor as timelines, follow lists and search carry it: directly in the entry content. */
export function cursorEntry(type: 'Top' | 'Bottom', value: string, sortIndex: string): XEntry {
  return {
    entryId: `cursor-${type.toLowerCase()}-${sortIndex}`,
    sortIndex,
    content: { entryType: 'TimelineTimelineCursor', __typename: 'TimelineTimelineCursor', cursorType: type, value },
  };
}

/** Cursor as TweetDetail carries it: inside an item. */
export function cursorItemEntry(type: 'Top' | 'Bottom', value: string, sortIndex: string): XEntry {
  return {
    entryId: `cursor-${type.toLowerCase()}-${sortIndex}`,
    sortIndex,
    content: {
      entryType: 'TimelineTimelineItem',
      __typename: 'TimelineTimelineItem',
      itemContent: {
        itemType: 'TimelineTimelineCursor',
        __typename: 'TimelineTimelineCursor',
        cursorType: type,
        value,
      },
    },
  };
}
