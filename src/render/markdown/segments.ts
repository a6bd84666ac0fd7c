// Segment[] (post text with facets) → Markdown that keeps the author's line breaks: single newlines become
// CommonMark hard breaks (a trailing backslash, which survives whitespace trimming), blank lines become
// paragraph breaks. Every text piece is escaped; links, mentions, hashtags and cashtags become real links.
import type { Segment } from '../../domain/models.ts';
import type { Dialect } from './dialect.ts';
import { safeHref } from './escape.ts';

/** Segments of a post, falling back to its plain text when the provider gave no facets. */
export function segmentsOf(p: { text: string; segments: Segment[] }): Segment[] {
  return p.segments.length > 0 || p.text === '' ? p.segments : [{ type: 'text', text: p.text }];
}

function stripScheme(u: string): string {
  return u.replace(/^https?:\/\//i, '').replace(/^www\./i, '');
}

/**
 * A link segment. When the visible text is just a shortened form of the target (the usual `example.com/pa…`),
 * the full URL is shown as an autolink: shorter than `[text](href)` and nothing is hidden.
 */
function linkSegment(text: string, href: string, d: Dialect): string {
  const safe = safeHref(href);
  if (!safe) return d.text(text, false);
  const shown = stripScheme(text.trim()).replace(/…$|\.\.\.$/, '');
  if (shown === '' || stripScheme(safe).startsWith(shown) || stripScheme(href).startsWith(shown)) return `<${safe}>`;
  return `[${d.text(text.replace(/\s+/g, ' ').trim(), false) || 'link'}](${safe})`;
}

function renderInlineSegment(seg: Segment, d: Dialect): string {
  switch (seg.type) {
    case 'link':
      return linkSegment(seg.text, seg.href, d);
    case 'mention':
      return d.mention(seg.handle, seg.text);
    case 'hashtag':
      return d.hashtag(seg.tag, seg.text);
    case 'cashtag':
      return d.cashtag(seg.symbol, seg.text);
    default:
      return d.text(seg.text, false);
  }
}

/** Rendered lines (still separate) of the segments; empty strings are blank lines. */
export function segmentLines(segs: Segment[], d: Dialect, firstAtLineStart = true): string[] {
  const lines: string[] = [];
  let cur = '';
  let lineStart = firstAtLineStart;
  for (const seg of segs) {
    if (seg.type !== 'text') {
      cur += renderInlineSegment(seg, d);
      lineStart = false;
      continue;
    }
    const t = seg.text.includes('\r') ? seg.text.replace(/\r\n?/g, '\n') : seg.text;
    let i = 0;
    for (;;) {
      const nl = t.indexOf('\n', i);
      const piece = nl < 0 ? t.slice(i) : t.slice(i, nl);
      if (piece !== '') {
        cur += d.text(piece, lineStart && cur === '');
        lineStart = false;
      }
      if (nl < 0) break;
      lines.push(cur.trimEnd());
      cur = '';
      lineStart = true;
      i = nl + 1;
    }
  }
  lines.push(cur.trimEnd());
  return lines;
}

/** Join rendered lines: hard breaks inside a paragraph, one blank line between paragraphs, none at the ends. */
export function joinLines(lines: string[]): string {
  let out = '';
  let para = false;
  for (const line of lines) {
    if (line === '') {
      para = out !== '';
      continue;
    }
    out = out === '' ? line : out + (para ? '\n\n' : '\\\n') + line;
    para = false;
  }
  return out;
}

/** Post text as a Markdown block (may span several lines). */
export function renderSegments(segs: Segment[], d: Dialect, firstAtLineStart = true): string {
  return joinLines(segmentLines(segs, d, firstAtLineStart));
}

/** Post text squeezed onto one line (bios in summaries). */
export function renderSegmentsLine(segs: Segment[], d: Dialect): string {
  return segmentLines(segs, d, false)
    .filter((l) => l !== '')
    .join(' ');
}

/** Plain user text as a Markdown block. */
export function renderText(text: string, d: Dialect, firstAtLineStart = true): string {
  return renderSegments([{ type: 'text', text }], d, firstAtLineStart);
}
