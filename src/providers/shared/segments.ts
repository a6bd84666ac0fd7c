import { isHandle } from '../../domain/handles.ts';
import type { Segment } from '../../domain/models.ts';

/** Provider-neutral description of one entity inside a post's raw text (X entity indices). */
export interface TextFacet {
  type: 'url' | 'media' | 'mention' | 'hashtag' | 'cashtag';
  start: number;
  end: number;
  /** What the raw text holds at [start,end): the t.co link, or the tag/handle without its sigil. */
  original?: string;
  /** Expanded link target. */
  href?: string;
}

export interface RawText {
  /** Text exactly as the upstream stored it (X keeps &amp; &lt; &gt; escaped here). */
  text: string;
  /** X display range; the leading reply mentions and trailing media link sit outside it. */
  range?: readonly [number, number];
  facets: TextFacet[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

export function unescapeHtml(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|apos|#39);/g, (_, name: string) => ENTITIES[name] ?? _);
}

const SIGIL: Record<TextFacet['type'], string> = { url: '', media: '', mention: '@', hashtag: '#', cashtag: '$' };

/**
 * X entity indices count Unicode code points of the HTML-escaped raw text, while JS strings are UTF-16,
 * and some relays hand out UTF-16 offsets instead. So every facet is checked against what it should
 * cover: code-point reading first, then UTF-16, then the nearest literal occurrence; a facet that matches
 * nowhere is dropped and its text stays plain.
 */
function locate(points: string[], utf16: string, f: TextFacet): [number, number] | undefined {
  const expected = f.original === undefined ? undefined : (SIGIL[f.type] + f.original).toLowerCase();
  const fits = (s: number, e: number) => {
    if (s < 0 || e > points.length || s >= e) return false;
    if (expected === undefined) return true;
    const got = points.slice(s, e).join('').toLowerCase();
    // Fullwidth ＠/＃ are valid sigils on X, so only the part after the sigil must match exactly.
    return got === expected || (SIGIL[f.type] !== '' && got.slice(1) === expected.slice(1));
  };
  if (fits(f.start, f.end)) return [f.start, f.end];
  const cpStart = codePointIndex(utf16, f.start);
  const cpEnd = codePointIndex(utf16, f.end);
  if (fits(cpStart, cpEnd)) return [cpStart, cpEnd];
  if (expected === undefined) return undefined;
  const needleLen = Array.from(expected).length;
  let best: number | undefined;
  const lower = points.map((c) => c.toLowerCase());
  for (let i = 0; i + needleLen <= lower.length; i++) {
    if (
      lower.slice(i, i + needleLen).join('') === expected &&
      (best === undefined || Math.abs(i - f.start) < Math.abs(best - f.start))
    ) {
      best = i;
    }
  }
  return best === undefined ? undefined : [best, best + needleLen];
}

function codePointIndex(utf16: string, unitIndex: number): number {
  return Array.from(utf16.slice(0, Math.max(0, unitIndex))).length;
}

/**
 * Splits raw post text into segments: plain text is unescaped, links carry their expanded target as
 * both text and href (the visible text is the full URL, never a t.co), media links are dropped (the
 * media list carries them) and everything outside the display range is left out.
 */
export function segmentsFromRaw(raw: RawText, dropHrefs: ReadonlySet<string> = new Set()): Segment[] {
  const points = Array.from(raw.text);
  const placed = raw.facets
    .map((f) => ({ f, at: locate(points, raw.text, f) }))
    .filter((x): x is { f: TextFacet; at: [number, number] } => !!x.at)
    .sort((a, b) => a.at[0] - b.at[0]);
  const [from, to] = displayRange(
    raw.range,
    points,
    placed.map((p) => p.at),
  );

  const out: Segment[] = [];
  let cursor = from;
  const pushText = (s: number, e: number) => {
    if (e > s) out.push({ type: 'text', text: unescapeHtml(points.slice(s, e).join('')) });
  };
  for (const { f, at } of placed) {
    const [s, e] = at;
    // Media links are removed wherever they sit; other facets only count inside the display range.
    if (f.type !== 'media' && (s < from || e > to)) continue;
    if (s < cursor) continue;
    const shown = points.slice(s, e).join('');
    if (f.type === 'media') {
      pushText(cursor, Math.min(s, to));
      cursor = Math.max(cursor, Math.min(e, to));
      continue;
    }
    pushText(cursor, s);
    cursor = e;
    if (f.type === 'url') {
      const href = f.href ?? f.original ?? shown;
      if (dropHrefs.has(href)) continue;
      out.push({ type: 'link', text: href, href });
    } else if (f.type === 'mention') {
      const handle = f.original ?? shown.slice(1);
      // A "mention" of something that is not a handle stays text: it must never become a profile link.
      if (isHandle(handle)) out.push({ type: 'mention', text: unescapeHtml(shown), handle });
      else pushText(s, e);
    } else if (f.type === 'hashtag') {
      out.push({ type: 'hashtag', text: unescapeHtml(shown), tag: f.original ?? shown.slice(1) });
    } else {
      out.push({ type: 'cashtag', text: unescapeHtml(shown), symbol: f.original ?? shown.slice(1) });
    }
  }
  pushText(cursor, to);
  return tidy(out);
}

/**
 * The display range in escaped code points. Sources disagree on whether X counts the range over the
 * escaped or the unescaped text (each `&amp;` is 5 or 1), so the end is read both ways and the later
 * one wins: cutting the author's words is worse than keeping a few trailing characters, and those
 * trailing characters are entity links that are removed anyway. An end that lands inside an entity
 * is moved to that entity's start.
 */
function displayRange(
  range: readonly [number, number] | undefined,
  points: string[],
  entities: Array<[number, number]>,
): [number, number] {
  const length = points.length;
  if (!range) return [0, length];
  const s = Math.min(Math.max(0, range[0]), length);
  let e = Math.min(Math.max(s, range[1], escapedIndex(points, range[1])), length);
  for (const [a, b] of entities) if (a < e && e < b && a >= s) e = a;
  return [s, e];
}

/** Escaped code-point index of the `unescaped`-th character, counting `&amp;`, `&lt;`, `&gt;` as one each. */
function escapedIndex(points: string[], unescaped: number): number {
  let i = 0;
  for (let n = 0; n < unescaped && i < points.length; n++) {
    const ent = points[i] === '&' ? /^&(amp|lt|gt|quot|#39);/.exec(points.slice(i, i + 6).join('')) : null;
    i += ent ? ent[0].length : 1;
  }
  return i;
}

/** Merges neighbouring text pieces and trims the whitespace left where links were cut off at the ends. */
function tidy(segs: Segment[]): Segment[] {
  const merged: Segment[] = [];
  for (const s of segs) {
    const last = merged[merged.length - 1];
    if (s.type === 'text' && last?.type === 'text') last.text += s.text;
    else merged.push({ ...s });
  }
  const first = merged[0];
  if (first?.type === 'text') first.text = first.text.trimStart();
  const last = merged[merged.length - 1];
  if (last?.type === 'text') last.text = last.text.trimEnd(); // not /\s+$/: quadratic on long inner runs of spaces
  return merged.filter((s) => s.text.length > 0);
}

export function textOf(segments: Segment[]): string {
  return segments.map((s) => s.text).join('');
}
