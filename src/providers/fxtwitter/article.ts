import type { Article, ArticleBlock, ArticleSpan } from '../../domain/models.ts';
import { compact } from '../shared/compact.ts';
import type { FxArticle, FxArticleBlock, FxArticleEntity, FxArticleMedia } from './wire.ts';

// X Articles arrive as Draft.js content: blocks with offsets in UTF-16 code units (plain JS string
// indices), inline style ranges and entity ranges pointing into an entity map.

const HEADING: Record<string, 1 | 2 | 3> = { 'header-one': 1, 'header-two': 2, 'header-three': 3 };

export function parseArticle(a: FxArticle): Article {
  const entities = entityMap(a.content?.entityMap);
  const media = new Map<string, FxArticleMedia>();
  for (const m of a.media_entities ?? []) {
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
    previewText: a.preview_text || undefined,
    coverUrl: imageUrl(a.cover_media),
    blocks,
  });
}

function entityMap(raw: NonNullable<FxArticle['content']>['entityMap']): Map<string, FxArticleEntity> {
  const out = new Map<string, FxArticleEntity>();
  if (Array.isArray(raw)) for (const e of raw) out.set(String(e.key), e.value);
  else if (raw) for (const [k, v] of Object.entries(raw)) out.set(k, v);
  return out;
}

function imageUrl(m: FxArticleMedia | undefined): string | undefined {
  return m?.media_info?.original_img_url ?? m?.media_info?.media_url_https;
}

function toBlock(
  b: FxArticleBlock,
  entities: Map<string, FxArticleEntity>,
  media: Map<string, FxArticleMedia>,
): ArticleBlock | undefined {
  if (b.type === 'atomic') return atomic(b, entities, media);
  const spans = spansOf(b, entities);
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
  b: FxArticleBlock,
  entities: Map<string, FxArticleEntity>,
  media: Map<string, FxArticleMedia>,
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
        ? compact<ArticleBlock>({ type: 'code', text: fence[2] ?? '', language: fence[1] || undefined })
        : md
          ? { type: 'code', text: md }
          : undefined;
    }
    case 'MEDIA':
    case 'IMAGE': {
      const item = e.data?.mediaItems?.[0];
      const m = item?.mediaId ? media.get(item.mediaId) : undefined;
      const url = imageUrl(m);
      const caption = typeof e.data?.caption === 'string' && e.data.caption ? e.data.caption : undefined;
      return url
        ? compact<ArticleBlock>({ type: 'image', url, caption, altText: m?.media_info?.ext_alt_text ?? undefined })
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
    case 'LINK':
      return e.data?.url ? { type: 'paragraph', spans: [{ text: e.data.url, href: e.data.url }] } : undefined;
    default:
      return undefined;
  }
}

/** Cuts a block's text at every style/entity boundary and gives each run its combined styles and link. */
function spansOf(b: FxArticleBlock, entities: Map<string, FxArticleEntity>): ArticleSpan[] {
  const len = b.text.length;
  const cuts = new Set<number>([0, len]);
  const styles = (b.inlineStyleRanges ?? []).map((r) => ({
    from: r.offset,
    to: r.offset + r.length,
    style: r.style.toLowerCase(),
  }));
  const links = (b.entityRanges ?? [])
    .map((r) => ({ from: r.offset, to: r.offset + r.length, entity: entities.get(String(r.key)) }))
    .filter((r) => r.entity?.type === 'LINK' && typeof r.entity.data?.url === 'string');
  for (const r of [...styles, ...links]) {
    cuts.add(Math.max(0, Math.min(len, r.from)));
    cuts.add(Math.max(0, Math.min(len, r.to)));
  }
  const points = [...cuts].sort((x, y) => x - y);
  const spans: ArticleSpan[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const from = points[i]!;
    const to = points[i + 1]!;
    const span: ArticleSpan = { text: b.text.slice(from, to) };
    for (const s of styles) {
      if (s.from <= from && s.to >= to) {
        if (s.style === 'bold') span.bold = true;
        else if (s.style === 'italic') span.italic = true;
        else if (s.style === 'code') span.code = true;
      }
    }
    const link = links.find((l) => l.from <= from && l.to >= to);
    if (link) span.href = link.entity!.data!.url;
    const prev = spans[spans.length - 1];
    if (prev && sameStyle(prev, span)) prev.text += span.text;
    else spans.push(span);
  }
  return spans;
}

function sameStyle(a: ArticleSpan, b: ArticleSpan): boolean {
  return !!a.bold === !!b.bold && !!a.italic === !!b.italic && !!a.code === !!b.code && a.href === b.href;
}
