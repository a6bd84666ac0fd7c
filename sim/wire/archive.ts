// The simulated platform as X's data export ("Download an archive of your data") would give it to an account's
// owner: tweets.js in X's legacy REST shape with counts and indices as strings, long posts cut at 280 characters
// with their whole text in note-tweet.js, reposts as `RT @handle: …` cut short, account.js and profile.js, and the
// posts' photos and videos in tweets_media/ as `<post id>-<file>`. Each data file assigns its array to window.YTD.
import type { SimCorpus, SimMedia, SimPost, SimUser } from '../corpus-types.ts';
import { authorOf } from '../corpus-queries.ts';
import { mp4For, pngFor } from '../media-bytes.ts';
import { layoutText, escapeLegacy, tcoFor, displayUrl, type LaidOutText } from '../text.ts';
import { legacyDate } from './dates.ts';
import { aspectRatio, mediaDisplayUrl, mediaPermalink, mediaUrl, variants } from './media.ts';

type Json = Record<string, unknown>;

/** Indices, counts and sizes as the archive writes them: strings. */
const s = (n: number) => String(n);
const pair = (p: readonly [number, number]) => [s(p[0]), s(p[1])];
const cp = (t: string) => Array.from(t).length;
/** Characters of a long post that tweets.js keeps. */
const CUT = 280;
/** Characters of a repost's text that X keeps after `RT @handle: `. */
const RT_CUT = 140;

function entities(c: SimCorpus, lay: LaidOutText, upTo = Infinity): Json {
  const within = (e: { indices: [number, number] }) => e.indices[1] <= upTo;
  return {
    hashtags: lay.hashtags.filter(within).map((h) => ({ text: h.text, indices: pair(h.indices) })),
    symbols: lay.cashtags.filter(within).map((h) => ({ text: h.text, indices: pair(h.indices) })),
    user_mentions: lay.mentions.filter(within).map((m) => {
      const u = c.usersByHandle.get(m.handle.toLowerCase());
      return {
        name: u?.name ?? m.handle,
        screen_name: m.handle,
        indices: pair(m.indices),
        id_str: u?.id ?? '0',
        id: u?.id ?? '0',
      };
    }),
    urls: lay.urls
      .filter(within)
      .map((u) => ({ url: u.url, expanded_url: u.expanded, display_url: u.display, indices: pair(u.indices) })),
  };
}

function media(handle: string, p: SimPost, m: SimMedia, i: number, lay: LaidOutText): Json {
  const link = lay.mediaLink!;
  return {
    expanded_url: mediaPermalink(handle, p.id, m, i).replace('https://x.com/', 'https://twitter.com/'),
    indices: pair(link.indices),
    url: link.url,
    media_url: mediaUrl(m).replace('https://', 'http://'),
    id_str: m.id,
    id: m.id,
    media_url_https: mediaUrl(m),
    ...(m.alt ? { ext_alt_text: m.alt } : {}),
    sizes: {
      large: { w: s(m.width), h: s(m.height), resize: 'fit' },
      thumb: { w: '150', h: '150', resize: 'crop' },
    },
    original_info: { width: s(m.width), height: s(m.height) },
    type: m.kind === 'gif' ? 'animated_gif' : m.kind,
    display_url: mediaDisplayUrl(link.url),
    ...(m.kind === 'photo'
      ? {}
      : {
          video_info: {
            aspect_ratio: aspectRatio(m).map(s),
            ...(m.kind === 'video' && m.durationMs ? { duration_millis: s(m.durationMs) } : {}),
            variants: variants(m).map((v) => ({
              ...(v.bitrate !== undefined ? { bitrate: s(v.bitrate) } : {}),
              content_type: v.content_type,
              url: v.url,
            })),
          },
        }),
  };
}

/** The archive file name of a post's media: `<post id>-<file name of its URL>`. */
export function archiveMediaFiles(p: SimPost): Array<{ name: string; bytes: Buffer }> {
  return p.media.map((m) => {
    const url =
      m.kind === 'photo'
        ? mediaUrl(m)
        : variants(m)
            .filter((v) => v.bitrate !== undefined)
            .at(-1)!.url;
    const file = new URL(url).pathname.split('/').pop()!;
    return { name: `${p.id}-${file}`, bytes: m.kind === 'photo' ? pngFor(m.key) : mp4For(m.key) };
  });
}

function base(p: SimPost, at: number): Json {
  return {
    edit_info: {
      initial: {
        editTweetIds: [p.id],
        editableUntil: new Date(at + 3_600_000).toISOString(),
        editsRemaining: '5',
        isEditEligible: true,
      },
    },
    retweeted: false,
    source: `<a href="https://mobile.twitter.com" rel="nofollow">${p.source}</a>`,
    favorited: false,
    id_str: p.id,
    id: p.id,
    created_at: legacyDate(at),
    lang: p.lang,
    truncated: false,
  };
}

export interface ArchivedPost {
  tweet: Json;
  /** The note-tweet.js element of a long post. */
  note?: Json;
}

/** A post of the account as tweets.js holds it (and its note, when it is long). */
export function archiveTweet(c: SimCorpus, p: SimPost): ArchivedPost {
  const author = authorOf(c, p);
  // X ends a quoting post's text with the quoted post's link; the archive keeps nothing else of the quote.
  const quoted = p.quoteId ? c.posts.get(p.quoteId) : undefined;
  const quoteLink = quoted ? ` https://twitter.com/${authorOf(c, quoted).handle}/status/${quoted.id}` : '';
  const lay = layoutText(p.id, p.text + quoteLink, p.replyPrefix, p.media.length > 0);
  const parent = p.replyToId ? c.posts.get(p.replyToId) : undefined;
  const parentAuthor = parent ? authorOf(c, parent) : undefined;
  const tweet: Json = {
    ...base(p, p.createdAt),
    favorite_count: s(p.likes),
    retweet_count: s(p.reposts),
    possibly_sensitive: p.sensitive,
    ...(parent && parentAuthor
      ? {
          in_reply_to_status_id_str: parent.id,
          in_reply_to_status_id: parent.id,
          in_reply_to_user_id_str: parentAuthor.id,
          in_reply_to_user_id: parentAuthor.id,
          in_reply_to_screen_name: parentAuthor.handle,
        }
      : {}),
  };
  const visible = lay.displayRange[1] - lay.displayRange[0];
  if (visible > CUT && !p.article) {
    // A long post: the first words up to 280 characters, an ellipsis and a link to the whole post.
    const cut = Array.from(lay.fullText)
      .slice(0, lay.displayRange[0] + CUT - 25)
      .join('')
      .replace(/\s+\S*$/, '');
    const link = tcoFor(`${p.id}:note`);
    const text = `${cut}… ${link}`;
    const start = cp(`${cut}… `);
    tweet.full_text = escapeLegacy(text);
    tweet.display_text_range = pair([lay.displayRange[0], cp(text)]);
    tweet.entities = entities(c, lay, cp(cut));
    (tweet.entities as { urls: Json[] }).urls.push({
      url: link,
      expanded_url: `https://twitter.com/i/web/status/${p.id}`,
      display_url: displayUrl(`https://twitter.com/i/web/status/${p.id}`),
      indices: pair([start, start + cp(link)]),
    });
    const written = layoutText(p.id, p.text, [], false);
    const note: Json = {
      noteTweet: {
        noteTweetId: String(BigInt(p.id) + 7n),
        updatedAt: new Date(p.createdAt).toISOString(),
        lifecycle: { value: '0', name: 'Created', originalValue: '0', value2: '0' },
        createdAt: new Date(p.createdAt + 412).toISOString(),
        core: {
          styletags: (p.boldRanges ?? []).map(([from, to]) => ({
            styleTypes: [{ value: '0', name: 'Bold' }],
            fromIndex: s(from),
            toIndex: s(to),
          })),
          // The note keeps its links as written, with their t.co form beside them.
          urls: written.urls.map((u) => {
            const from = cp(p.text.slice(0, p.text.indexOf(u.expanded)));
            return {
              shortUrl: u.url,
              displayUrl: u.display,
              expandedUrl: u.expanded,
              fromIndex: s(from),
              toIndex: s(from + cp(u.expanded)),
            };
          }),
          text: p.text,
          mentions: written.mentions.map((m) => ({
            screenName: m.handle,
            fromIndex: s(m.indices[0]),
            toIndex: s(m.indices[1]),
          })),
          cashtags: written.cashtags.map((m) => ({
            text: m.text,
            fromIndex: s(m.indices[0]),
            toIndex: s(m.indices[1]),
          })),
          hashtags: written.hashtags.map((m) => ({
            text: m.text,
            fromIndex: s(m.indices[0]),
            toIndex: s(m.indices[1]),
          })),
        },
      },
    };
    return { tweet, note };
  }
  tweet.full_text = escapeLegacy(lay.fullText);
  tweet.display_text_range = pair(lay.displayRange);
  tweet.entities = entities(c, lay);
  if (p.media.length) {
    const all = p.media.map((m, i) => media(author.handle, p, m, i, lay));
    (tweet.entities as Json).media = [all[0]];
    tweet.extended_entities = { media: all };
  }
  return { tweet };
}

/** The owner's repost of `p` at `at`, under its own id: X keeps the start of the text after `RT @handle: `. */
export function archiveRepost(c: SimCorpus, p: SimPost, id: string, at: number): ArchivedPost {
  const author = authorOf(c, p);
  const lay = layoutText(p.id, p.text, [], false);
  const prefix = `RT @${author.handle}: `;
  const chars = Array.from(lay.fullText);
  const kept =
    chars.length > RT_CUT
      ? `${chars
          .slice(0, RT_CUT - 1)
          .join('')
          .replace(/\s+\S*$/, '')}…`
      : lay.fullText;
  const shift = cp(prefix);
  const shifted: LaidOutText = {
    ...lay,
    urls: lay.urls.map((u) => ({ ...u, indices: [u.indices[0] + shift, u.indices[1] + shift] })),
    mentions: [
      { handle: author.handle, indices: [3, 4 + author.handle.length] },
      ...lay.mentions.map((m) => ({ ...m, indices: [m.indices[0] + shift, m.indices[1] + shift] as [number, number] })),
    ],
    hashtags: lay.hashtags.map((h) => ({ ...h, indices: [h.indices[0] + shift, h.indices[1] + shift] })),
    cashtags: lay.cashtags.map((h) => ({ ...h, indices: [h.indices[0] + shift, h.indices[1] + shift] })),
  };
  const text = prefix + kept;
  return {
    tweet: {
      ...base({ ...p, id }, at),
      favorite_count: '0',
      retweet_count: s(p.reposts),
      full_text: escapeLegacy(text),
      display_text_range: pair([0, cp(text)]),
      entities: entities(c, shifted, cp(text)),
    },
  };
}

/** account.js and profile.js of an account. */
export function archiveAccount(u: SimUser): { account: Json; profile: Json } {
  return {
    account: {
      account: {
        email: `${u.handle}@example.com`,
        createdVia: 'web',
        username: u.handle,
        accountId: u.id,
        createdAt: new Date(u.createdAt).toISOString(),
        accountDisplayName: u.name,
      },
    },
    profile: {
      profile: {
        description: { bio: u.bio, website: u.website ?? '', location: u.location },
        avatarMediaUrl: u.avatarUrl,
        ...(u.bannerUrl ? { headerMediaUrl: u.bannerUrl } : {}),
      },
    },
  };
}

/** A data file: `window.YTD.<name>.part<N> = [ … ]`, laid out as X writes it. */
export function ytdFile(name: string, part: number, elements: unknown[]): string {
  return `window.YTD.${name}.part${part} = ${JSON.stringify(elements, null, 2)}`;
}
