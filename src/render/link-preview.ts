// What a pasted permalink shows as a preview card: Open Graph (https://ogp.me) and Twitter-card metadata for the
// HTML page of a post or a profile. Pure functions of the domain models; html.ts escapes and emits the tags.
import { isHandle } from '../domain/handles.ts';
import type { Author, Media, Post } from '../domain/models.ts';

export interface PreviewImage {
  url: string;
  alt?: string;
  width?: number;
  height?: number;
}

export interface PreviewVideo {
  url: string;
  type: string;
  width?: number;
  height?: number;
}

export interface LinkPreview {
  type: 'article' | 'profile';
  /** Twitter card kind: a large image for media, a small square for an avatar. */
  card: 'summary' | 'summary_large_image';
  title: string;
  description: string;
  /** Our permalink (og:url). */
  url: string;
  image?: PreviewImage;
  video?: PreviewVideo;
  /** Platform handle of the author, for twitter:creator (absent when the upstream's is not a handle). */
  creator?: string;
  /** ISO 8601, posts only. */
  publishedTime?: string;
  /** An Author for profile pages (profile:username). */
  username?: string;
}

/** Chat apps cut descriptions at a few hundred characters; cut at a word boundary ourselves. */
export const DESCRIPTION_MAX = 300;

function clip(text: string, max = DESCRIPTION_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** X serves 48 px avatars under `_normal`; a card wants the 400 px rendition of the same image. */
export function largeAvatar(url: string | undefined): string | undefined {
  if (!url || !/^https:\/\/pbs\.twimg\.com\/profile_images\//.test(url)) return url;
  return url.replace(/_(normal|bigger|mini|200x200)(\.[a-z]+)$/i, '_400x400$2');
}

function photoOf(m: Media): PreviewImage {
  return { url: m.url, alt: m.altText, width: m.width, height: m.height };
}

function stillOf(m: Media): PreviewImage | undefined {
  return m.thumbnailUrl ? { url: m.thumbnailUrl, alt: m.altText, width: m.width, height: m.height } : undefined;
}

/** An upstream's handle names an account in the card only when it is one (it may be anything on the wire). */
function handleOf<K extends 'creator' | 'username'>(a: Author, key: K): Partial<Record<K, string>> {
  return isHandle(a.handle) ? ({ [key]: a.handle } as Record<K, string>) : {};
}

function byline(a: Author): string {
  return `${a.name} (@${a.handle})`;
}

/** The post's own media first, then a quoted post's, then the article cover, then the author's avatar. */
function imageFor(post: Post): PreviewImage | undefined {
  const quoted = post.quote && !('unavailable' in post.quote) ? post.quote.media : [];
  for (const m of [...post.media, ...quoted]) {
    const img = m.kind === 'photo' ? photoOf(m) : stillOf(m);
    if (img) return img;
  }
  if (post.article?.coverUrl) return { url: post.article.coverUrl, alt: post.article.title };
  if (post.card?.imageUrl) return { url: post.card.imageUrl, alt: post.card.title };
  const avatar = largeAvatar(post.author.avatarUrl);
  return avatar ? { url: avatar, alt: byline(post.author) } : undefined;
}

function videoFor(post: Post): PreviewVideo | undefined {
  const v = post.media.find((m) => m.kind === 'video' || m.kind === 'gif');
  if (!v || !/\.mp4(\?|$)/i.test(v.url)) return undefined;
  return { url: v.url, type: 'video/mp4', width: v.width, height: v.height };
}

function postDescription(post: Post): string {
  const text = post.article ? `${post.article.title}. ${post.article.previewText ?? post.text}` : post.text;
  if (text.trim()) return clip(text);
  const kinds = post.media.map((m) => m.kind);
  return kinds.length ? `${kinds.length} ${kinds.length === 1 ? kinds[0] : 'media items'}` : 'Post on X';
}

export function postPreview(post: Post, permalink: string): LinkPreview {
  const image = imageFor(post);
  return {
    type: 'article',
    card: image && image.url !== largeAvatar(post.author.avatarUrl) ? 'summary_large_image' : 'summary',
    title: `${byline(post.author)} on X`,
    description: postDescription(post),
    url: permalink,
    image,
    video: videoFor(post),
    ...handleOf(post.author, 'creator'),
    publishedTime: post.createdAt,
  };
}

function count(n: number | undefined, what: string): string | undefined {
  return n === undefined ? undefined : `${n.toLocaleString('en-US')} ${what}`;
}

export function profilePreview(author: Author, permalink: string): LinkPreview {
  const counts = [
    count(author.followers, 'followers'),
    count(author.following, 'following'),
    count(author.posts, 'posts'),
  ]
    .filter(Boolean)
    .join(' · ');
  const bio = author.bio?.trim();
  const avatar = largeAvatar(author.avatarUrl);
  return {
    type: 'profile',
    card: 'summary',
    title: `${byline(author)} on X`,
    description: clip([bio, counts].filter(Boolean).join(' — ') || `@${author.handle} on X`),
    url: permalink,
    image: avatar ? { url: avatar, alt: byline(author) } : undefined,
    ...handleOf(author, 'creator'),
    ...handleOf(author, 'username'),
  };
}
