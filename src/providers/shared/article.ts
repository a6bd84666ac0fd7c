import type { Article, ArticleBlock, ArticleSpan } from '../../domain/models.ts';
import { isHandle } from '../../domain/handles.ts';
import { encodePart } from '../../domain/links.ts';
import { compact } from './compact.ts';

// X Articles as X stores them (GraphQL `content_state`) and as FxTwitter passes them on (`content`): Draft.js
// blocks whose offsets (style ranges, entity ranges and the `data` link ranges) count code points, not UTF-16
// units — an emoji before a bold word shifts it by one. Links X recognised in the text (URLs, mentions,
// hashtags, cashtags) come in each block's `data`. The entity map holds the atomic blocks' content (DIVIDER,
// MARKDOWN code, MEDIA images, embedded TWEETs) and TWEMOJI images, which the text already carries as emoji.

export interface DraftBlock {
  key?: string;
  type: string;
  text: string;
  data?: Partial<Record<DraftLinkKind, DraftLinkRange[]>> & Record<string, unknown>;
  entityRanges?: Array<{ key: number; offset: number; length: number }>;
  inlineStyleRanges?: Array<{ offset: number; length: number; style: string }>;
}

export type DraftLinkKind = 'urls' | 'mentions' | 'hashtags' | 'cashtags';

export interface DraftLinkRange {
  fromIndex: number;
  toIndex: number;
  text?: string;
}

export interface DraftEntity {
  type: string;
  mutability?: string;
  data?: {
    url?: string;
    markdown?: string;
    tweetId?: string;
    mediaItems?: Array<{ mediaId?: string; localMediaId?: string; mediaCategory?: string }>;
    [k: string]: unknown;
  };
}

export interface ArticleMediaEntity {
  id?: string;
  media_id?: string;
  media_key?: string;
  media_info?: {
    __typename?: string;
    original_img_url?: string;
    original_img_width?: number;
    original_img_height?: number;
    media_url_https?: string;
    ext_alt_text?: string | null;
  };
}

export interface DraftContent {
  blocks?: DraftBlock[];
  /** Live payloads use a keyed array; Draft.js itself uses an object keyed by entity key. */
  entityMap?: Array<{ key: string; value: DraftEntity }> | Record<string, DraftEntity>;
}

/** The article fields both upstreams share; `content` is X's `content_state` under FxTwitter's name. */
export interface ArticleSource {
  id?: string;
  title: string;
  previewText?: string;
  cover?: ArticleMediaEntity;
  content?: DraftContent;
  mediaEntities?: ArticleMediaEntity[];
}

const HEADING: Record<string, 1 | 2 | 3> = { 'header-one': 1, 'header-two': 2, 'header-three': 3 };

export function parseArticle(a: ArticleSource): Article {
  const entities = entityMap(a.content?.entityMap);
  const media = new Map<string, ArticleMediaEntity>();
  for (const m of a.mediaEntities ?? []) {
    for (const id of [m.media_id, m.id, m.media_key]) if (id) media.set(id, m);
  }
  const blocks: ArticleBlock[] = [];
  for (const b of a.content?.blocks ?? []) {
    const block = toBlock(b, entities, media);
    if (!block) continue;
    const prev = blocks[blocks.length - 1];
    // Consecutive list items of one kind form one list.
    if (block.type === 'list' && prev?.type === 'list' && prev.ordered === block.ordered)
      prev.items.push(...block.items);
    else blocks.push(block);
  }
  return compact({
    id: a.id,
    title: a.title,
    previewText: a.previewText || undefined,
    coverUrl: imageUrl(a.cover),
    blocks,
  });
}

function entityMap(raw: DraftContent['entityMap']): Map<string, DraftEntity> {
  const out = new Map<string, DraftEntity>();
  if (Array.isArray(raw)) for (const e of raw) out.set(String(e.key), e.value);
  else if (raw) for (const [k, v] of Object.entries(raw)) out.set(k, v);
  return out;
}

function imageUrl(m: ArticleMediaEntity | undefined): string | undefined {
  return m?.media_info?.original_img_url ?? m?.media_info?.media_url_https;
}

function toBlock(
  b: DraftBlock,
  entities: Map<string, DraftEntity>,
  media: Map<string, ArticleMediaEntity>,
): ArticleBlock | undefined {
  if (b.type === 'atomic') return atomic(b, entities, media);
  const spans = spansOf(b);
  const heading = HEADING[b.type];
  if (heading) return { type: 'heading', level: heading, spans };
  switch (b.type) {
    case 'unordered-list-item':
      return { type: 'list', ordered: false, items: [spans] };
    case 'ordered-list-item':
      return { type: 'list', ordered: true, items: [spans] };
    case 'blockquote':
      return { type: 'quote', spans };
    case 'code-block':
      return { type: 'code', text: b.text };
    default:
      // Empty unstyled blocks are Draft.js spacing, not content.
      return b.text.trim() === '' ? undefined : { type: 'paragraph', spans };
  }
}

function atomic(
  b: DraftBlock,
  entities: Map<string, DraftEntity>,
  media: Map<string, ArticleMediaEntity>,
): ArticleBlock | undefined {
  const key = b.entityRanges?.[0]?.key;
  const e = key === undefined ? undefined : entities.get(String(key));
  switch (e?.type) {
    case 'DIVIDER':
      return { type: 'divider' };
    case 'MARKDOWN': {
      const md = (e.data?.markdown ?? '').trim();
      const fence = /^```([\w+-]*)\n([\s\S]*?)\n?```$/.exec(md);
      return fence
        ? compact<ArticleBlock>({ type: 'code', text: (fence[2] ?? '').trimEnd(), language: fence[1] || undefined })
        : md
          ? { type: 'code', text: md }
          : undefined;
    }
    case 'MEDIA': {
      const item = e.data?.mediaItems?.[0];
      const m = item?.mediaId ? media.get(item.mediaId) : undefined;
      const url = imageUrl(m);
      return url
        ? compact<ArticleBlock>({ type: 'image', url, altText: m?.media_info?.ext_alt_text ?? undefined })
        : undefined;
    }
    case 'TWEET':
      return e.data?.tweetId
        ? {
            type: 'paragraph',
            spans: [
              { text: `https://x.com/i/status/${e.data.tweetId}`, href: `https://x.com/i/status/${e.data.tweetId}` },
            ],
          }
        : undefined;
    default:
      return undefined;
  }
}

interface Range {
  from: number;
  to: number;
}

/** Cuts a block's text at every style/link boundary and gives each run its combined styles and link. */
function spansOf(b: DraftBlock): ArticleSpan[] {
  const chars = Array.from(b.text);
  const len = chars.length;
  const cuts = new Set<number>([0, len]);
  const styles = (b.inlineStyleRanges ?? []).map((r) => ({
    from: r.offset,
    to: r.offset + r.length,
    style: r.style.toLowerCase(),
  }));
  const links: (Range & { href: string })[] = [];
  for (const kind of ['urls', 'mentions', 'hashtags', 'cashtags'] as const) {
    const ranges = b.data?.[kind];
    if (!Array.isArray(ranges)) continue;
    for (const r of ranges) {
      if (!Number.isInteger(r?.fromIndex) || !Number.isInteger(r?.toIndex) || r.toIndex <= r.fromIndex) continue;
      const shown = chars.slice(r.fromIndex, r.toIndex).join('');
      const href = linkTarget(kind, typeof r.text === 'string' && r.text ? r.text : shown);
      if (href && !links.some((l) => l.from < r.toIndex && r.fromIndex < l.to))
        links.push({ from: r.fromIndex, to: r.toIndex, href });
    }
  }
  for (const r of [...styles, ...links]) {
    cuts.add(Math.max(0, Math.min(len, r.from)));
    cuts.add(Math.max(0, Math.min(len, r.to)));
  }
  const points = [...cuts].sort((x, y) => x - y);
  const spans: ArticleSpan[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i]!;
    const to = points[i + 1]!;
    const span: ArticleSpan = { text: chars.slice(from, to).join('') };
    for (const s of styles) {
      if (s.from <= from && s.to >= to) {
        if (s.style === 'bold') span.bold = true;
        else if (s.style === 'italic') span.italic = true;
        else if (s.style === 'code') span.code = true;
      }
    }
    const link = links.find((l) => l.from <= from && l.to >= to);
    if (link) span.href = link.href;
    const prev = spans[spans.length - 1];
    if (prev && sameStyle(prev, span)) prev.text += span.text;
    else spans.push(span);
  }
  return spans;
}

/** Where a recognised piece of article text leads; `text` is X's (URL as shown, handle or tag without its sign). */
function linkTarget(kind: DraftLinkKind, text: string): string | undefined {
  const bare = text.replace(/^[@#$＃＄]/, '');
  if (!bare) return undefined;
  switch (kind) {
    case 'urls':
      return /^https?:\/\//i.test(bare) ? bare : `https://${bare}`;
    case 'mentions':
      return isHandle(bare) ? `https://x.com/${bare}` : undefined;
    case 'hashtags':
      return `https://x.com/hashtag/${encodePart(bare)}`;
    case 'cashtags':
      return `https://x.com/search?q=${encodePart(`$${bare}`)}`;
  }
}

function sameStyle(a: ArticleSpan, b: ArticleSpan): boolean {
  return !!a.bold === !!b.bold && !!a.italic === !!b.italic && !!a.code === !!b.code && a.href === b.href;
}
