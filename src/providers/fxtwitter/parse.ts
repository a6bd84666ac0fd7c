import type { Author, Card, Media, Poll, Post, ReplyNode, Segment, UnavailablePost } from '../../domain/models.ts';
import { largerAvatar, toIso } from '../shared/dates.ts';
import { isStatusUrl, permalink } from '../shared/permalinks.ts';
import { compact } from '../shared/compact.ts';
import { segmentsFromRaw, textOf, unescapeHtml, type TextFacet } from '../shared/segments.ts';
import { parseArticle } from '../shared/article.ts';
import { articlePostText, withoutArticleLink } from '../shared/article-post.ts';
import type { FxFacet, FxMedia, FxPhoto, FxPoll, FxStatus, FxTombstone, FxUser, FxVideo } from './wire.ts';

export function isTombstone(x: unknown): x is FxTombstone {
  return !!x && typeof x === 'object' && (x as { type?: unknown }).type === 'tombstone';
}

/** A status we can turn into a Post: it has an id and an author handle. */
export function isUsableStatus(x: unknown): x is FxStatus {
  if (!x || typeof x !== 'object' || isTombstone(x)) return false;
  const s = x as Partial<FxStatus>;
  return typeof s.id === 'string' && s.id !== '' && typeof s.author?.screen_name === 'string';
}

const FACET_TYPES: Record<string, TextFacet['type']> = {
  url: 'url',
  media: 'media',
  mention: 'mention',
  hashtag: 'hashtag',
  symbol: 'cashtag',
  cashtag: 'cashtag',
};

function toTextFacets(facets: FxFacet[] | undefined): TextFacet[] {
  const out: TextFacet[] = [];
  for (const f of facets ?? []) {
    const type = FACET_TYPES[f.type];
    // Styling facets (bold, italic, inline_media...) overlap real entities and carry no text of their own.
    if (!type || !Array.isArray(f.indices)) continue;
    out.push({ type, start: f.indices[0], end: f.indices[1], original: f.original, href: f.replacement });
  }
  return out;
}

export function parseUser(u: FxUser): Author {
  const bio = u.raw_description?.text !== undefined ? u.raw_description : undefined;
  const bioSegments =
    bio && bio.text ? segmentsFromRaw({ text: bio.text, facets: toTextFacets(bio.facets) }) : undefined;
  return compact({
    id: u.id,
    handle: u.screen_name,
    name: u.name ?? u.screen_name,
    avatarUrl: largerAvatar(u.avatar_url),
    bannerUrl: u.banner_url ?? undefined,
    bio: bioSegments ? textOf(bioSegments) : u.description ? unescapeHtml(u.description) : undefined,
    bioSegments: bioSegments && bioSegments.some((s) => s.type !== 'text') ? bioSegments : undefined,
    location: u.location || undefined,
    website: u.website?.url || undefined,
    joined: toIso(u.joined),
    followers: u.followers,
    following: u.following,
    posts: u.statuses ?? u.tweets,
    likes: u.likes,
    mediaCount: u.media_count,
    verified: u.verification ? u.verification.verified : undefined,
    protected: u.protected,
  });
}

const TOMBSTONE_REASONS: ReadonlySet<unknown> = new Set<UnavailablePost['reason']>([
  'deleted',
  'suspended',
  'private',
  'blocked',
  'unavailable',
]);

/** The reason is the upstream's word: one outside the known set is reported as plain unavailable. */
export function parseTombstone(t: FxTombstone): UnavailablePost {
  return compact<UnavailablePost>({
    unavailable: true,
    id: t.id,
    reason: TOMBSTONE_REASONS.has(t.reason) ? t.reason : 'unavailable',
    message: t.message,
  });
}

/** Best mp4 first: FxTwitter's `url` already is, but fall back to the richest mp4 format. */
function videoUrl(v: FxVideo): string {
  if (v.url) return v.url;
  const mp4 = (v.formats ?? [])
    .filter((f) => f.container !== 'm3u8')
    .sort((a, b) => (b.bitrate ?? 0) - (a.bitrate ?? 0));
  return mp4[0]?.url ?? '';
}

export function parseMedia(m: FxMedia | undefined): Media[] {
  if (!m) return [];
  const items = m.all ?? [...(m.photos ?? []), ...(m.videos ?? [])];
  const out: Media[] = [];
  for (const item of items) {
    if (item.type === 'mosaic_photo') continue;
    if ('thumbnail_url' in item || 'duration' in item || 'formats' in item) {
      const v = item;
      out.push(
        compact<Media>({
          kind: v.type === 'gif' ? 'gif' : 'video',
          url: videoUrl(v),
          thumbnailUrl: v.thumbnail_url ?? undefined,
          width: v.width,
          height: v.height,
          durationSeconds: typeof v.duration === 'number' && v.duration > 0 ? v.duration : undefined,
        }),
      );
    } else {
      const photo = item as FxPhoto;
      out.push(
        compact<Media>({
          kind: photo.type === 'gif' ? 'gif' : 'photo',
          url: photo.url,
          altText: photo.altText || undefined,
          width: photo.width,
          height: photo.height,
        }),
      );
    }
  }
  return out.filter((x) => x.url);
}

export function parsePoll(p: FxPoll, now: number): Poll {
  const total = p.total_votes ?? p.choices.reduce((n, c) => n + (c.count ?? 0), 0);
  const endsAt = toIso(p.ends_at);
  return compact({
    choices: p.choices.map((c) => ({
      label: c.label,
      votes: c.count ?? 0,
      percent:
        typeof c.percentage === 'number'
          ? c.percentage
          : total > 0
            ? Math.round(((c.count ?? 0) / total) * 1000) / 10
            : 0,
    })),
    totalVotes: total,
    endsAt,
    final: /final/i.test(p.time_left_en ?? '') || (!!endsAt && Date.parse(endsAt) <= now),
  });
}

function parseCard(s: FxStatus): Card | undefined {
  if (s.card?.url) {
    return compact({
      url: s.card.url,
      title: s.card.title || undefined,
      domain: s.card.domain || undefined,
      description: s.card.description || undefined,
      imageUrl: s.card.image?.url || undefined,
    });
  }
  // A YouTube or other player embed has no card of its own; keep it as a link preview.
  const ext = s.media?.external;
  return ext?.url ? compact({ url: ext.url, imageUrl: ext.thumbnail_url || undefined }) : undefined;
}

/**
 * Whom a post answers. X sometimes leaves out the parent's handle: FxTwitter's v2 object is then null (it needs
 * both), while v1 still gives the parent's id in `replying_to_status`; an id alone is kept with an empty handle.
 */
function replyTarget(s: FxStatus): Post['replyTo'] {
  const r = s.replying_to;
  if (r && typeof r === 'object' && (r.screen_name || r.status))
    return compact({ id: r.status || undefined, handle: r.screen_name ?? '' });
  if (typeof r === 'string' && r) return compact({ id: s.replying_to_status || undefined, handle: r });
  if (s.replying_to_status) return { id: s.replying_to_status, handle: '' };
  return undefined;
}

function segmentsOf(s: FxStatus, quoteId: string | undefined): Segment[] {
  if (s.raw_text?.text !== undefined) {
    const segs = segmentsFromRaw({
      text: s.raw_text.text,
      range: s.raw_text.display_text_range,
      facets: toTextFacets(s.raw_text.facets),
    });
    // X appends the quoted post's permalink to the text; the quote itself is shown separately.
    const last = segs[segs.length - 1];
    if (quoteId && last?.type === 'link' && isStatusUrl(last.href, quoteId)) {
      segs.pop();
      const tail = segs[segs.length - 1];
      if (tail?.type === 'text') tail.text = tail.text.trimEnd();
      return segs.filter((x) => x.text.length > 0);
    }
    return segs;
  }
  return s.text ? [{ type: 'text', text: unescapeHtml(s.text) }] : [];
}

export interface ParseOptions {
  /** Clock for deciding whether a poll has ended. */
  now?: number;
}

export function parseStatus(s: FxStatus, opts: ParseOptions = {}): Post {
  const now = opts.now ?? Date.now();
  const author = parseUser(s.author);
  const quote = s.quote
    ? isTombstone(s.quote)
      ? parseTombstone(s.quote)
      : isUsableStatus(s.quote)
        ? parseStatus(s.quote, opts)
        : undefined
    : undefined;
  const quoteId = quote?.id;
  const article = s.article?.title
    ? parseArticle({
        id: s.article.id,
        title: s.article.title,
        previewText: s.article.preview_text,
        cover: s.article.cover_media,
        content: s.article.content,
        mediaEntities: s.article.media_entities,
      })
    : undefined;
  const segments = article ? withoutArticleLink(segmentsOf(s, quoteId)) : segmentsOf(s, quoteId);
  const post = compact<Post>({
    id: s.id,
    url: permalink(author.handle, s.id),
    author,
    createdAt: toIso(s.created_timestamp) ?? toIso(s.created_at) ?? new Date(0).toISOString(),
    text: article ? articlePostText(segments, article) : textOf(segments),
    segments,
    media: parseMedia(s.media),
    quote,
    poll: s.poll?.choices?.length ? parsePoll(s.poll, now) : undefined,
    article,
    card: parseCard(s),
    metrics: compact({
      likes: s.likes,
      reposts: s.reposts ?? s.retweets,
      quotes: s.quotes,
      replies: s.replies,
      views: s.views ?? undefined,
      bookmarks: s.bookmarks ?? undefined,
    }),
    lang: s.lang || undefined,
    source: s.source || undefined,
    replyTo: replyTarget(s),
    communityNote: s.community_note?.text ? unescapeHtml(s.community_note.text) : undefined,
    sensitive: s.possibly_sensitive || undefined,
  });
  if (s.reposted_by?.screen_name) return repostWrapper(s.reposted_by, post);
  return post;
}

/**
 * FxTwitter delivers a repost as the original status plus `reposted_by`. The domain model wants the
 * reposter as author and the original under `repostOf`; the repost's own id is not given, so the
 * wrapper reuses the original's id and permalink.
 */
function repostWrapper(by: NonNullable<FxStatus['reposted_by']>, original: Post): Post {
  const author: Author = { id: by.id, handle: by.screen_name, name: by.name || by.screen_name };
  const avatar = largerAvatar(by.avatar_url);
  if (avatar) author.avatarUrl = avatar;
  return {
    id: original.id,
    url: original.url,
    author,
    createdAt: original.createdAt,
    text: '',
    segments: [],
    media: [],
    metrics: {},
    repostOf: original,
  };
}

/**
 * Nests a flat reply list into trees: a reply whose parent is another listed reply goes under it,
 * everything else (direct replies to the focal post, or parents we were not given) stays top level.
 * Upstream order is kept at every level.
 */
export function nestReplies(replies: Post[]): ReplyNode[] {
  const nodes = new Map<string, ReplyNode>();
  for (const p of replies) if (!nodes.has(p.id)) nodes.set(p.id, { post: p, children: [] });
  const roots: ReplyNode[] = [];
  for (const node of nodes.values()) {
    const parentId = node.post.replyTo?.id;
    const parent = parentId && parentId !== node.post.id ? nodes.get(parentId) : undefined;
    if (parent && !isAncestor(node, parent, nodes)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Guards against a cycle in bad data (a reply chain that loops back on itself). */
function isAncestor(node: ReplyNode, candidateParent: ReplyNode, nodes: Map<string, ReplyNode>): boolean {
  let cur: ReplyNode | undefined = candidateParent;
  for (let i = 0; cur && i < nodes.size; i++) {
    if (cur === node) return true;
    const pid: string | undefined = cur.post.replyTo?.id;
    cur = pid ? nodes.get(pid) : undefined;
  }
  return false;
}
