// Scanning X's web app text (home page, main and on-demand scripts) in time linear in its size, in slices.
// The text comes from a server the service does not control and may be several MiB. Regular expressions with
// unanchored starts, `[^>]*` before a literal or lazy bodies re-scan the rest of the text from every candidate
// start: quadratic, and the event loop is blocked for every other request meanwhile. These scanners move
// forward with indexOf and fixed-string searches and never revisit a character more than a constant number of
// times.
// Linear is not enough on its own: a hostile page can make every character a candidate, and per-candidate
// work in JavaScript over 5 MiB still adds up to a noticeable pause. So every scan is a generator that yields
// after a fixed number of steps; `finishSliced` runs it in short slices with a turn of the event loop in
// between; `finish` runs it straight through (the plain reader functions of web-parse.ts, for tests).

/** A scan in progress: yields (nothing) when it can be paused, returns its result. */
export type Scan<T> = Generator<void, T, void>;

/** Steps between two pause points (a power of two minus one, used as a mask). */
const PAUSE_MASK = 0x1fff;
let steps = 0;

/** Counts one step of work; true when the scan should yield (a pause point). */
export function due(): boolean {
  return (++steps & PAUSE_MASK) === 0;
}

/** Runs a scan to its end without giving the event loop a turn. */
export function finish<T>(scan: Scan<T>): T {
  for (;;) {
    const r = scan.next();
    if (r.done) return r.value;
  }
}

/** Longest stretch a scan runs before other work gets a turn. */
export const SLICE_MS = 2;

/** Runs a scan in slices of about `sliceMs`, letting pending I/O and timers run between slices. */
export async function finishSliced<T>(scan: Scan<T>, sliceMs = SLICE_MS): Promise<T> {
  let started = performance.now();
  for (;;) {
    const r = scan.next();
    if (r.done) return r.value;
    if (performance.now() - started >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = performance.now();
    }
  }
}

/** `\s` of JavaScript regular expressions. */
export function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** `\w`: ASCII letters, digits and `_`. */
export function isWordChar(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** `[A-Za-z0-9_-]`: the characters of webpack chunk hashes, query ids and script names. */
export function isIdChar(c: number): boolean {
  return isWordChar(c) || c === 0x2d;
}

export function isQuote(c: number): boolean {
  return c === 0x22 || c === 0x27;
}

// Long runs are skipped with one-character searches: a pattern of a single character class has nothing to
// backtrack over, and the regular expression engine walks a long run far faster than a JavaScript loop. Short
// runs (the usual case) are walked by hand first, which costs less than a call into the engine.
const NOT_SPACE = /\S/g;
const NOT_ID = /[^A-Za-z0-9_-]/g;
const NOT_WORD = /\W/g;
const BY_HAND = 32;

function skipRun(text: string, from: number, ok: (c: number) => boolean, rest: RegExp): number {
  const near = Math.min(text.length, from + BY_HAND);
  let i = from;
  while (i < near && ok(text.charCodeAt(i))) i++;
  if (i < near || i === text.length) return i;
  rest.lastIndex = i;
  return rest.test(text) ? rest.lastIndex - 1 : text.length;
}

/** First index at or after `from` that is not `\s` (or the text's length). */
export function skipSpaces(text: string, from: number): number {
  return skipRun(text, from, isSpace, NOT_SPACE);
}

/** First index at or after `from` that is not in `[A-Za-z0-9_-]`. */
export function skipIdChars(text: string, from: number): number {
  return skipRun(text, from, isIdChar, NOT_ID);
}

/** First index at or after `from` that is not `\w`. */
export function skipWordChars(text: string, from: number): number {
  return skipRun(text, from, isWordChar, NOT_WORD);
}

/** First index in [from, to) whose character fails `ok`, or `to` (for short, bounded stretches). */
export function skipWhile(text: string, from: number, ok: (c: number) => boolean, to: number): number {
  let i = from;
  while (i < to && ok(text.charCodeAt(i))) i++;
  return i;
}

/** Whether `text` holds `lower` (ASCII, lower case) at `at`, ignoring ASCII case. */
export function startsWithIgnoreCase(text: string, lower: string, at: number): boolean {
  if (at < 0 || at + lower.length > text.length) return false;
  for (let k = 0; k < lower.length; k++) {
    let c = text.charCodeAt(at + k);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== lower.charCodeAt(k)) return false;
  }
  return true;
}

const markupPatterns = new Map<string, RegExp>();

/**
 * Case-insensitive search for markup (ASCII lower-case letters, `<`, `/` and `>` only) in [from, to); -1 if
 * absent. A fixed string cannot make the engine backtrack, and its search skips text that holds no candidate
 * much faster than stopping at every `<` would.
 */
export function* findMarkup(text: string, lower: string, from: number, to = text.length): Scan<number> {
  let re = markupPatterns.get(lower);
  if (!re) {
    if (!/^[a-z</>]+$/.test(lower)) throw new Error(`not a markup needle: ${lower}`);
    re = new RegExp(lower, 'gi');
    markupPatterns.set(lower, re);
  }
  if (due()) yield;
  // Cut at `to` (a slice shares the text, it copies nothing): a bounded search must not run on to the end of
  // the text, or a search repeated for many small ranges would be quadratic after all.
  re.lastIndex = from;
  return re.test(to < text.length ? text.slice(0, to) : text) ? re.lastIndex - lower.length : -1;
}

/** One start tag: `<name` at `start`, its closing `>` at `end`. */
export interface Tag {
  start: number;
  end: number;
}

/**
 * The first start tag `<name ...>` in [from, to) (`name` in lower case, matched ignoring case and followed by
 * a non-word character, as `<name\b` would). Undefined when there is none, or when the first candidate has
 * no `>`: then no later tag can close either.
 */
export function* nextTag(text: string, name: string, from: number, to = text.length): Scan<Tag | undefined> {
  const open = `<${name}`;
  for (let i = from; i < to;) {
    const start = yield* findMarkup(text, open, i, to);
    if (start === -1) return undefined;
    const after = start + open.length;
    if (after < to && isWordChar(text.charCodeAt(after))) {
      i = after;
      continue;
    }
    const end = text.indexOf('>', after);
    return end === -1 || end >= to ? undefined : { start, end };
  }
  return undefined;
}

/**
 * The value of attribute `name` (lower case) in a tag: the first `\sname=` followed by a quote, up to the next
 * quote of either kind, as `\sname=["']([^"']*)["']` reads it (case-insensitive name).
 */
export function* attribute(text: string, tag: Tag, name: string): Scan<string | undefined> {
  const head = `${name}=`;
  for (let i = tag.start + 1; i + head.length < tag.end; i++) {
    if (due()) yield;
    if (!isSpace(text.charCodeAt(i - 1)) || !startsWithIgnoreCase(text, head, i)) continue;
    const open = i + head.length;
    if (!isQuote(text.charCodeAt(open))) continue;
    for (let close = open + 1; close < tag.end; close++) {
      if (isQuote(text.charCodeAt(close))) return text.slice(open + 1, close);
      if (due()) yield;
    }
    // No quote left in the tag: no later candidate can find one either.
    return undefined;
  }
  return undefined;
}

/** The numbers written in `text` as runs of ASCII digits, in order (what `/\d+/g` would find). */
export function digitRuns(text: string): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < text.length) {
    if (!isDigit(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const end = skipWhile(text, i, isDigit, text.length);
    out.push(Number(text.slice(i, end)));
    i = end;
  }
  return out;
}
