// An X Article rendered as a document inside its post: title heading, cover, then every block in order.
import type { Article, ArticleBlock, ArticleSpan } from '../../domain/models.ts';
import type { Dialect } from './dialect.ts';
import { codeBlock, codeSpan, escapeHeading, escapeLine, image, protectHeadingEnd, safeHref } from './escape.ts';
import { joinLines } from './segments.ts';

type Delim = '**' | '*';

/** Punctuation, symbols and spaces: what CommonMark's flanking rules look at on either side of a delimiter run. */
const EDGE_LEAD = /^[\p{P}\p{S}\s]+/u;
const EDGE_TRAIL = /[\p{P}\p{S}\s]+$/u;

/** Rendered text split into its leading and trailing punctuation and what lies between (escapes stay whole). */
function edges(rendered: string): { lead: string; core: string; trail: string } {
  const lead = EDGE_LEAD.exec(rendered)?.[0] ?? '';
  if (lead.length === rendered.length) return { lead, core: '', trail: '' };
  const trail = EDGE_TRAIL.exec(rendered)?.[0] ?? '';
  return { lead, core: rendered.slice(lead.length, rendered.length - trail.length), trail };
}

/**
 * Emphasis as a small state machine: delimiters are written only where the style changes, closed innermost
 * first, and whitespace is kept outside them (`** a**` would not be emphasis in CommonMark). Punctuation at
 * the edge of a styled run goes outside the delimiters too: `**WSL2:**این` does not close in CommonMark (a
 * closing run after punctuation must be followed by a space or punctuation), `**WSL2**:این` closes in every
 * parser. A newline inside a span closes everything and starts a new rendered line.
 */
function styledLines(spans: ArticleSpan[], d: Dialect, lines: string[], cur: { line: string }): void {
  const open: Delim[] = [];
  // Where closing delimiters go: right after the last styled text, before the punctuation that followed it.
  let mark: number | undefined;
  const closeTo = (keep: number): void => {
    if (open.length <= keep) return;
    const trimmed = cur.line.trimEnd().length;
    const at = mark !== undefined && mark <= trimmed ? mark : trimmed;
    const closers = open.splice(keep).reverse().join('');
    cur.line = cur.line.slice(0, at) + closers + cur.line.slice(at);
    mark = at + closers.length;
  };
  for (const span of spans) {
    const want: Delim[] = [];
    if (span.bold) want.push('**');
    if (span.italic) want.push('*');
    const parts =
      span.text.includes('\n') || span.text.includes('\r')
        ? span.text.replace(/\r\n?/g, '\n').split('\n')
        : [span.text];
    for (let idx = 0; idx < parts.length; idx++) {
      if (idx > 0) {
        closeTo(0);
        lines.push(cur.line.trimEnd());
        cur.line = '';
        mark = undefined;
      }
      const raw = parts[idx]!;
      const body = raw.trim();
      if (body === '') {
        if (raw !== '' && cur.line !== '' && !cur.line.endsWith(' ')) cur.line += ' ';
        continue;
      }
      let keep = 0;
      while (keep < open.length && want.includes(open[keep]!)) keep++;
      closeTo(keep);
      if (raw[0] !== body[0] && cur.line !== '' && !cur.line.endsWith(' ')) cur.line += ' ';
      const atStart = cur.line === '';
      const rendered = span.code ? codeSpan(body) : d.text(body, atStart);
      const { lead, core, trail } = span.code ? { lead: '', core: rendered, trail: '' } : edges(rendered);
      cur.line += lead;
      // Punctuation alone is written in the styles already open: new delimiters around it would not close.
      if (core !== '') {
        for (const m of want) {
          if (!open.includes(m)) {
            open.push(m);
            cur.line += m;
          }
        }
        cur.line += core;
        mark = cur.line.length;
      }
      cur.line += trail;
      if (raw[raw.length - 1] !== body[body.length - 1]) cur.line += ' ';
    }
  }
  closeTo(0);
}

/** Group consecutive spans sharing a link target, so one link can hold several styled runs. */
function groups(spans: ArticleSpan[]): { href?: string; spans: ArticleSpan[] }[] {
  const out: { href?: string; spans: ArticleSpan[] }[] = [];
  for (const s of spans) {
    const prev = out[out.length - 1];
    if (prev && prev.href === s.href) prev.spans.push(s);
    else out.push({ href: s.href, spans: [s] });
  }
  return out;
}

/** Inline article text → rendered lines (hard-break joined by the caller). */
function spanLines(spans: ArticleSpan[], d: Dialect): string[] {
  const lines: string[] = [];
  const cur = { line: '' };
  for (const g of groups(spans)) {
    const href = safeHref(g.href === undefined ? undefined : (d.tagHref?.(g.href) ?? g.href));
    if (!href) {
      styledLines(g.spans, d, lines, cur);
      continue;
    }
    // Link text stays on one line: a link cannot span a hard break.
    const inner = { line: '' };
    const innerLines: string[] = [];
    styledLines(
      g.spans.map((s) => ({ ...s, text: s.text.replace(/\s+/g, ' ') })),
      d,
      innerLines,
      inner,
    );
    const label = inner.line.trim();
    const lead = g.spans[0]?.text.startsWith(' ') && cur.line !== '' && !cur.line.endsWith(' ') ? ' ' : '';
    const trail = g.spans[g.spans.length - 1]?.text.endsWith(' ') ? ' ' : '';
    cur.line += `${lead}[${label || escapeLine(g.href ?? 'link')}](${href})${trail}`;
  }
  lines.push(cur.line.trimEnd());
  return lines;
}

function renderSpans(spans: ArticleSpan[], d: Dialect): string {
  return joinLines(spanLines(spans, d));
}

function indent(s: string, by: string): string {
  return s.replace(/\n(?=.)/g, '\n' + by);
}

function headingPrefix(level: number): string {
  return '#'.repeat(Math.min(6, Math.max(1, level)));
}

function renderBlock(b: ArticleBlock, titleLevel: number, d: Dialect): string {
  switch (b.type) {
    case 'heading':
      return `${headingPrefix(titleLevel + b.level)} ${protectHeadingEnd(spanLines(b.spans, d).filter(Boolean).join(' '))}`;
    case 'paragraph':
      return renderSpans(b.spans, d);
    case 'list':
      return b.items
        .map((item, i) => {
          const marker = b.ordered ? `${i + 1}. ` : '- ';
          return marker + indent(renderSpans(item, d), ' '.repeat(marker.length));
        })
        .join('\n');
    case 'quote':
      return renderSpans(b.spans, d)
        .split('\n')
        .map((l) => (l === '' ? '>' : '> ' + l))
        .join('\n');
    case 'code':
      return codeBlock(b.text, b.language);
    case 'image': {
      const img = image(b.altText || b.caption || 'Image', b.url);
      return b.caption ? `${img}\\\n*${escapeLine(b.caption)}*` : img;
    }
    case 'divider':
      return '---';
  }
}

/** The article as Markdown parts (to be joined by blank lines). `titleLevel` is the heading level of its title. */
export function articleParts(a: Article, titleLevel: number, d: Dialect): string[] {
  const parts = [`${headingPrefix(titleLevel)} ${escapeHeading(a.title || 'Untitled article')}`];
  if (a.coverUrl) parts.push(image('Cover image', a.coverUrl));
  if (a.blocks.length === 0 && a.previewText) parts.push(joinLines([escapeLine(a.previewText, true)]));
  for (const b of a.blocks) {
    const r = renderBlock(b, titleLevel, d);
    if (r !== '') parts.push(r);
  }
  return parts;
}
