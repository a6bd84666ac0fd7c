// Feed filters: which posts of a feed a reader keeps. Terms are plain words or quoted phrases matched
// case-insensitively on whole words; no reader-supplied pattern is ever compiled, so a filter cannot be made to
// backtrack or to read anything but the post.
import type { Post } from './models.ts';

export const MEDIA_FILTERS = ['only', 'none'] as const;
export type MediaFilter = (typeof MEDIA_FILTERS)[number];

export const TITLE_STYLES = ['text', 'author'] as const;
export type TitleStyle = (typeof TITLE_STYLES)[number];

/** Terms one `include` or `exclude` takes, and the longest term. */
export const MAX_FILTER_TERMS = 20;
export const MAX_TERM_LENGTH = 100;

export interface FeedFilter {
  /** A post must match at least one of these (lower-cased); empty = every post. */
  include: string[];
  /** A post matching any of these (lower-cased) is left out. */
  exclude: string[];
  media?: MediaFilter;
  minLikes?: number;
  minReposts?: number;
  /** Primary language subtags (lower-cased); a post must be in one of them. */
  lang: string[];
}

export const NO_FILTER: FeedFilter = { include: [], exclude: [], lang: [] };

export class FilterSyntaxError extends Error {}

/**
 * `word "a phrase" other` → ['word', 'a phrase', 'other'], lower-cased, repeats once. Whitespace inside a phrase
 * is collapsed. An unbalanced quote, an empty phrase, too many or too long terms are refused.
 */
export function parseTerms(raw: string): string[] {
  const terms: string[] = [];
  let i = 0;
  while (i < raw.length) {
    const ch = raw[i]!;
    if (/\s/u.test(ch) || ch === ',') {
      i++;
      continue;
    }
    let term: string;
    if (ch === '"') {
      const end = raw.indexOf('"', i + 1);
      if (end < 0) throw new FilterSyntaxError('a quoted phrase is not closed');
      term = raw.slice(i + 1, end);
      i = end + 1;
    } else {
      let end = i;
      while (end < raw.length && !/[\s,"]/u.test(raw[end]!)) end++;
      term = raw.slice(i, end);
      i = end;
    }
    term = term.replace(/\s+/gu, ' ').trim().toLowerCase();
    if (!term) throw new FilterSyntaxError('a quoted phrase is empty');
    if (term.length > MAX_TERM_LENGTH)
      throw new FilterSyntaxError(`a term is longer than ${MAX_TERM_LENGTH} characters`);
    if (!terms.includes(term)) terms.push(term);
  }
  if (terms.length === 0) throw new FilterSyntaxError('no word or phrase given');
  if (terms.length > MAX_FILTER_TERMS) throw new FilterSyntaxError(`more than ${MAX_FILTER_TERMS} terms`);
  return terms;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** `term` occurs in `hay` without a letter, digit or underscore touching either end. */
function hasWord(hay: string, term: string): boolean {
  for (let at = hay.indexOf(term); at >= 0; at = hay.indexOf(term, at + 1)) {
    const before = at > 0 ? hay[at - 1]! : '';
    const after = hay[at + term.length] ?? '';
    const edgeOk = (edge: string, inner: string) => !edge || !WORD_CHAR.test(edge) || !WORD_CHAR.test(inner);
    if (edgeOk(before, term[0]!) && edgeOk(after, term[term.length - 1]!)) return true;
  }
  return false;
}

/** What a term is matched on: the text, every link target and every alt text of the post shown. */
export function haystack(p: Post): string {
  const shown = p.repostOf ?? p;
  const parts = [shown.text];
  for (const s of shown.segments) if (s.type === 'link') parts.push(s.href);
  if (shown.card) parts.push(shown.card.url);
  for (const m of shown.media) if (m.altText) parts.push(m.altText);
  if (shown.article) parts.push(shown.article.title);
  return parts.join('\n').toLowerCase();
}

function primaryLang(tag: string | undefined): string | undefined {
  return tag?.split('-')[0]?.toLowerCase();
}

export function isNoFilter(f: FeedFilter): boolean {
  return (
    f.include.length === 0 &&
    f.exclude.length === 0 &&
    f.lang.length === 0 &&
    f.media === undefined &&
    f.minLikes === undefined &&
    f.minReposts === undefined
  );
}

/** Whether a post passes every filter (a repost is judged by the post it shows). */
export function keeps(f: FeedFilter, p: Post): boolean {
  const shown = p.repostOf ?? p;
  if (f.media === 'only' && shown.media.length === 0) return false;
  if (f.media === 'none' && shown.media.length > 0) return false;
  if (f.minLikes !== undefined && (shown.metrics.likes ?? 0) < f.minLikes) return false;
  if (f.minReposts !== undefined && (shown.metrics.reposts ?? 0) < f.minReposts) return false;
  if (f.lang.length > 0) {
    const lang = primaryLang(shown.lang);
    if (!lang || !f.lang.includes(lang)) return false;
  }
  if (f.include.length === 0 && f.exclude.length === 0) return true;
  const hay = haystack(p);
  if (f.include.length > 0 && !f.include.some((t) => hasWord(hay, t))) return false;
  return !f.exclude.some((t) => hasWord(hay, t));
}

export function applyFilter(f: FeedFilter, posts: Post[]): Post[] {
  return isNoFilter(f) ? posts : posts.filter((p) => keeps(f, p));
}
