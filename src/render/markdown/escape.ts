// Escaping of user text for CommonMark/GFM output.
//
// Why not an npm package: `markdown-escape` (the usual pick) backslashes a fixed character list everywhere and
// knows nothing about line starts, so `1. x`, `- x`, `+ x`, `=`/`-` setext underlines, `|` tables, `~~`
// strikethrough and `&amp;` entity references all slip through, while harmless characters such as `(`, `#`
// and `/` get escaped mid-line. The rules below follow the CommonMark spec instead: every ASCII punctuation
// character may be backslash-escaped (spec §2.4), so we escape exactly the ones that can start syntax where
// they stand, and keep the rest readable for people and cheap for LLM token budgets.

/** Characters that are escaped wherever they appear. `[`/`]` kill links and images, `<` kills HTML and autolinks. */
const ALWAYS = '\\`*[]<|~';
/** Characters that only mean something as the first character of a line (block syntax). */
const LINE_START = new Set(['#', '>', '-', '+', '=']);
/** Extra characters with meaning in Obsidian: tags, highlights, comments, math. */
export const OBSIDIAN_EXTRA: ReadonlySet<string> = new Set(['#', '=', '%', '$']);

// Per-character classes for the hot loop (it runs over every character of every post).
const PLAIN = 0;
const ESCAPE = 1;
const UNDERSCORE = 2;
const AMP = 3;
const CONTROL = 4;
const BASE_CLASS = new Uint8Array(128);
for (let c = 0; c < 32; c++) BASE_CLASS[c] = CONTROL;
BASE_CLASS[127] = CONTROL;
for (const ch of ALWAYS) BASE_CLASS[ch.charCodeAt(0)] = ESCAPE;
BASE_CLASS[95] = UNDERSCORE;
BASE_CLASS[38] = AMP;
const OBSIDIAN_CLASS = BASE_CLASS.slice();
for (const ch of OBSIDIAN_EXTRA) OBSIDIAN_CLASS[ch.charCodeAt(0)] = ESCAPE;

function classTable(extra: ReadonlySet<string> | undefined): Uint8Array {
  if (extra === undefined) return BASE_CLASS;
  if (extra === OBSIDIAN_EXTRA) return OBSIDIAN_CLASS;
  const t = BASE_CLASS.slice();
  for (const ch of extra) if (ch.charCodeAt(0) < 128) t[ch.charCodeAt(0)] = ESCAPE;
  return t;
}

function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `&name;`, `&#123;` or `&#x1F;` starting at i: a character reference CommonMark would decode. */
function isEntityAt(s: string, i: number): boolean {
  let j = i + 1;
  if (s.charCodeAt(j) === 35 /* # */) {
    j++;
    const hex = s.charCodeAt(j) === 120 || s.charCodeAt(j) === 88;
    if (hex) j++;
    const start = j;
    while (j < s.length && j - start < 8 && isAsciiAlnum(s.charCodeAt(j))) j++;
    return j > start && s.charCodeAt(j) === 59;
  }
  const start = j;
  while (j < s.length && j - start < 32 && isAsciiAlnum(s.charCodeAt(j))) j++;
  return j > start && s.charCodeAt(j) === 59;
}

/**
 * Escape one line of user text so it renders literally. `atLineStart` says the text begins a Markdown line
 * (block constructs are then neutralised too). Newlines and control characters become spaces: callers that
 * want line breaks split lines first (see segments.ts).
 */
export function escapeInline(s: string, atLineStart: boolean, extra?: ReadonlySet<string>): string {
  let out = '';
  let last = 0;
  let i = 0;
  if (atLineStart) {
    // Leading blanks would be stripped or start an indented code block; no-break spaces keep the indent visible.
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
    if (i > 0) {
      out = '\u00a0'.repeat(i);
      last = i;
    }
    const c = s[i];
    // (Characters the loop below escapes anyway must not get a second backslash: `\\#` would re-arm the `#`.)
    if (c !== undefined && LINE_START.has(c) && !(extra !== undefined && extra.has(c))) {
      out += '\\';
    } else if (c !== undefined && c >= '0' && c <= '9') {
      // Ordered list marker: up to 9 digits followed by `.` or `)`.
      let j = i;
      while (j < s.length && j - i < 9 && s[j]! >= '0' && s[j]! <= '9') j++;
      if (s[j] === '.' || s[j] === ')') {
        out += s.slice(last, j) + '\\';
        last = j;
      }
    }
  }
  const table = classTable(extra);
  for (; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code >= 128) continue;
    const cls = table[code]!;
    if (cls === PLAIN) continue;
    let rep: string | undefined;
    if (cls === ESCAPE) rep = '\\' + s[i];
    else if (cls === CONTROL) rep = ' ';
    else if (cls === UNDERSCORE) {
      // Intraword underscores can neither open nor close emphasis (CommonMark flanking rules): keep snake_case.
      if (!(i > 0 && i + 1 < s.length && isAsciiAlnum(s.charCodeAt(i - 1)) && isAsciiAlnum(s.charCodeAt(i + 1))))
        rep = '\\_';
    } else if (isEntityAt(s, i)) rep = '\\&';
    if (rep !== undefined) {
      out += s.slice(last, i) + rep;
      last = i + 1;
    }
  }
  return out + s.slice(last);
}

/** Collapse every run of whitespace (newlines included) to one space: for names, labels, alt text. */
export function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** User text for a single-line slot (names, link text, alt text, list labels). */
export function escapeLine(s: string, atLineStart = false, extra?: ReadonlySet<string>): string {
  return escapeInline(oneLine(s), atLineStart, extra);
}

/** Heading content: one line, and a trailing `#` run is escaped so it is not eaten as a closing sequence. */
export function escapeHeading(s: string, extra?: ReadonlySet<string>): string {
  return protectHeadingEnd(escapeLine(s, true, extra));
}

/** Escape the start of a trailing `#` run preceded by a blank (ATX closing sequence) in rendered heading text. */
export function protectHeadingEnd(rendered: string): string {
  if (!rendered.endsWith('#')) return rendered;
  let j = rendered.length - 1;
  while (j > 0 && rendered[j - 1] === '#') j--;
  if (j > 0 && rendered[j - 1] === '\\') return rendered;
  return rendered.slice(0, j) + '\\' + rendered.slice(j);
}

/**
 * A URL that may become a link or image target, or undefined. Only absolute http(s) URLs pass; the result is
 * the WHATWG-normalised href with `(`, `)` and `\` percent-encoded so it cannot end the destination early or
 * act as a Markdown escape.
 */
export function safeHref(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return undefined;
  return u.href.replace(/[()\\]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : '%5C'));
}

/** `[text](href)` when the href is safe, else the escaped text alone. */
export function link(text: string, href: string | undefined): string {
  const safe = safeHref(href);
  const label = escapeLine(text) || 'link';
  return safe ? `[${label}](${safe})` : label;
}

/** A bare URL shown in full: `<href>` when safe, else escaped text. */
export function urlLink(url: string): string {
  const safe = safeHref(url);
  return safe ? `<${safe}>` : escapeLine(url);
}

/** `![alt](src)` when the source is safe, else the escaped alt text in brackets-free form. */
export function image(alt: string, src: string | undefined): string {
  const safe = safeHref(src);
  const label = escapeLine(alt);
  return safe ? `![${label}](${safe})` : `${label || 'image'} (unavailable)`;
}

/** An inline code span that shows `text` verbatim, whatever backticks it contains. */
export function codeSpan(text: string): string {
  const t = text.replace(/[\r\n]+/g, ' ');
  let longest = 0;
  let run = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '`') longest = Math.max(longest, ++run);
    else run = 0;
  }
  const fence = '`'.repeat(longest + 1);
  const pad =
    t.startsWith('`') || t.endsWith('`') || (t.startsWith(' ') && t.endsWith(' ') && t.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** `s` without its trailing newlines; a loop, since /\n+$/ is quadratic on a long run of newlines that is not at the end. */
function withoutTrailingNewlines(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 10) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** A fenced code block whose fence is longer than any backtick run inside. */
export function codeBlock(text: string, language?: string): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '`') longest = Math.max(longest, ++run);
    else run = 0;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const lang = language ? language.replace(/[^A-Za-z0-9_+#.-]/g, '') : '';
  return `${fence}${lang}\n${withoutTrailingNewlines(text.replace(/\r\n?/g, '\n'))}\n${fence}`;
}
