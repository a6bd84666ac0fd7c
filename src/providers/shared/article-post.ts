import type { Article, Segment } from '../../domain/models.ts';
import { textOf } from './segments.ts';

// An Article post's own text is only the link to its article (x.com/i/article/…; FxTwitter drops that URL's
// entity and leaves the bare t.co). The article is rendered from `post.article`, so the link is dropped from
// the segments, and the post's plain `text` says what the article is: its title and preview.

export function withoutArticleLink(segs: Segment[]): Segment[] {
  return segs
    .filter((x) => !(x.type === 'link' && /\/i\/article\//.test(x.href)))
    .map((x) => (x.type === 'text' ? { ...x, text: withoutTrailingTco(x.text) } : x))
    .filter((x) => x.text.length > 0);
}

/** The post's readable text: what the author wrote beside the link, then the article's title and preview. */
export function articlePostText(segments: Segment[], article: Pick<Article, 'title' | 'previewText'>): string {
  return [textOf(segments).trim(), article.title.trim(), article.previewText?.trim()].filter(Boolean).join('\n\n');
}

const TCO = 'https://t.co/';

/**
 * The text without a trailing t.co link and the whitespace around it. Written out rather than as
 * /\s*https:\/\/t\.co\/\w+\s*$/, which backtracks quadratically over long runs of spaces in a 25,000-character post.
 */
export function withoutTrailingTco(text: string): string {
  const trimmed = text.trimEnd();
  const at = trimmed.lastIndexOf(TCO);
  if (at < 0 || at + TCO.length === trimmed.length) return text;
  for (let i = at + TCO.length; i < trimmed.length; i++) if (!isWordChar(trimmed.charCodeAt(i))) return text;
  return trimmed.slice(0, at).trimEnd();
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
