// What the service reads out of X's web app text: the main script's URL, the queryId/operationName pairs, the
// `twitter-site-verification` key, the `loading-x-anim-N` animations, the on-demand script's name and the key
// byte positions it uses. Each reader is a scan (web-scan.ts): linear, pausable, with every value it hands on
// bounded in length; the plain functions run a scan straight through.
import {
  attribute,
  due,
  findMarkup,
  finish,
  isDigit,
  isIdChar,
  isQuote,
  isSpace,
  isWordChar,
  nextTag,
  skipIdChars,
  skipSpaces,
  skipWhile,
  skipWordChars,
  type Scan,
} from './web-scan.ts';

/** Longest main-script `src` considered: X's are well under 200 characters. */
export const MAX_SCRIPT_URL_CHARS = 2048;
/** Longest verification key considered: X's is 64 base64 characters. */
export const MAX_KEY_CHARS = 1024;
/** Longest animation path `d` considered: X's are about 700 characters. */
export const MAX_FRAME_CHARS = 16_384;
/** Longest webpack chunk id considered: X's are a few digits. */
export const MAX_CHUNK_DIGITS = 15;

/** Whether a script path names the main script: `.../main.<hash>.js`, the hash of `[A-Za-z0-9_-]` only. */
export function isMainScriptPath(src: string): boolean {
  const at = src.lastIndexOf('/main.');
  if (at === -1 || !src.endsWith('.js')) return false;
  const hashEnd = src.length - 3;
  return hashEnd > at + 6 && skipWhile(src, at + 6, isIdChar, hashEnd) === hashEnd;
}

function resolve(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).toString();
  } catch {
    return undefined;
  }
}

/** The `src` of the first `<script>` that loads the main script, resolved against the page. */
export function* scanMainScriptUrl(html: string, pageUrl: string): Scan<string | undefined> {
  for (let from = 0; ;) {
    const tag = yield* nextTag(html, 'script', from);
    if (!tag) return undefined;
    const src = yield* attribute(html, tag, 'src');
    if (src !== undefined && src.length <= MAX_SCRIPT_URL_CHARS && isMainScriptPath(src)) {
      const url = resolve(src, pageUrl);
      if (url) return url;
    }
    from = tag.end + 1;
  }
}

/** Reads a quote, a non-empty run of id (or word) characters and a quote at `at`; the closing quote, or -1. */
function quotedRun(text: string, at: number, words: boolean): number {
  if (!isQuote(text.charCodeAt(at))) return -1;
  const end = words ? skipWordChars(text, at + 1) : skipIdChars(text, at + 1);
  return end > at + 1 && isQuote(text.charCodeAt(end)) ? end : -1;
}

/** Reads optional spaces, `literal` and optional spaces at `at`; the index after them, or -1. */
function spacedLiteral(text: string, at: number, literal: string): number {
  const i = skipSpaces(text, at);
  return text.startsWith(literal, i) ? skipSpaces(text, i + literal.length) : -1;
}

/** Every `queryId: "<id>", operationName: "<name>"` pair (either quote), the first id of each name kept. */
export function* scanQueryIds(script: string): Scan<Map<string, string>> {
  const out = new Map<string, string>();
  const KEY = 'queryId';
  const NAME = 'operationName';
  for (let i = script.indexOf(KEY); i !== -1; i = script.indexOf(KEY, i + 1)) {
    if (due()) yield;
    const idAt = spacedLiteral(script, i + KEY.length, ':');
    const idEnd = idAt === -1 ? -1 : quotedRun(script, idAt, false);
    if (idEnd === -1) continue;
    const nameKey = spacedLiteral(script, idEnd + 1, ',');
    if (nameKey === -1 || !script.startsWith(NAME, nameKey)) continue;
    const nameAt = spacedLiteral(script, nameKey + NAME.length, ':');
    const nameEnd = nameAt === -1 ? -1 : quotedRun(script, nameAt, true);
    if (nameEnd === -1) continue;
    const name = script.slice(nameAt + 1, nameEnd);
    if (!out.has(name)) out.set(name, script.slice(idAt + 1, idEnd));
    i = nameEnd;
  }
  return out;
}

/** The `content` of the first `<meta name="twitter-site-verification">`, if it has a plausible length. */
export function* scanVerificationKey(html: string): Scan<string | undefined> {
  for (let from = 0; ;) {
    const tag = yield* nextTag(html, 'meta', from);
    if (!tag) return undefined;
    if ((yield* attribute(html, tag, 'name')) === 'twitter-site-verification') {
      const key = yield* attribute(html, tag, 'content');
      return key && key.length <= MAX_KEY_CHARS ? key : undefined;
    }
    from = tag.end + 1;
  }
}

const ANIMATION_ID = 'loading-x-anim-';

/** N of an `id` that is exactly `loading-x-anim-N` (N in ASCII digits). */
function animationIndex(id: string | undefined): number | undefined {
  if (!id?.startsWith(ANIMATION_ID) || id.length === ANIMATION_ID.length) return undefined;
  const digitsEnd = skipWhile(id, ANIMATION_ID.length, isDigit, id.length);
  return digitsEnd === id.length ? Number(id.slice(ANIMATION_ID.length)) : undefined;
}

/** The `d` of the second path of each `loading-x-anim-N` element, in N order (the animated path). */
export function* scanAnimationFrames(html: string): Scan<string[]> {
  const frames: Array<[number, string]> = [];
  for (let from = 0; ;) {
    const tag = yield* nextTag(html, 'svg', from);
    if (!tag) break;
    from = tag.end + 1;
    const n = animationIndex(yield* attribute(html, tag, 'id'));
    if (n === undefined) continue;
    const close = yield* findMarkup(html, '</svg>', tag.end + 1);
    // No closing tag: neither this nor any later animation is complete.
    if (close === -1) break;
    const first = yield* nextTag(html, 'path', tag.end + 1, close);
    const second = first && (yield* nextTag(html, 'path', first.end + 1, close));
    const d = second && (yield* attribute(html, second, 'd'));
    if (d && d.length <= MAX_FRAME_CHARS) frames.push([n, d]);
    from = close + '</svg>'.length;
  }
  return frames.sort((a, b) => a[0] - b[0]).map(([, d]) => d);
}

/**
 * The webpack chunk id the runtime names `"ondemand.s"`: the first `<digits>["']?\s*:\s*["']ondemand.s["']`,
 * read backwards from each quoted `ondemand.s`.
 */
export function* scanOnDemandChunk(html: string): Scan<string | undefined> {
  const NAME = 'ondemand.s';
  for (let i = html.indexOf(NAME); i !== -1; i = html.indexOf(NAME, i + 1)) {
    if (due()) yield;
    if (!isQuote(html.charCodeAt(i - 1)) || !isQuote(html.charCodeAt(i + NAME.length))) continue;
    let j = i - 2;
    // Backwards over spaces: each stretch is walked once, since it ends at the previous candidate's text.
    for (; j >= 0 && isSpace(html.charCodeAt(j)); j--) if (due()) yield;
    if (html.charCodeAt(j) !== 0x3a) continue; // ':'
    for (j--; j >= 0 && isSpace(html.charCodeAt(j)); j--) if (due()) yield;
    if (isQuote(html.charCodeAt(j))) j--;
    const end = j + 1;
    while (j >= 0 && end - j <= MAX_CHUNK_DIGITS + 1 && isDigit(html.charCodeAt(j))) j--;
    const digits = end - j - 1;
    if (digits > 0 && digits <= MAX_CHUNK_DIGITS) return html.slice(j + 1, end);
  }
  return undefined;
}

/**
 * The hash the runtime maps `chunk` to: the first `["']?<chunk>["']?\s*:\s*["']<hash>["']` (chunk not
 * preceded by a word character) whose hash is not `ondemand`.
 */
export function* scanOnDemandHash(html: string, chunk: string): Scan<string | undefined> {
  for (let i = html.indexOf(chunk); i !== -1; i = html.indexOf(chunk, i + 1)) {
    if (due()) yield;
    if (i > 0 && isWordChar(html.charCodeAt(i - 1))) continue;
    let at = i + chunk.length;
    if (isQuote(html.charCodeAt(at))) at++;
    at = spacedLiteral(html, at, ':');
    const end = at === -1 ? -1 : quotedRun(html, at, false);
    if (end === -1) continue;
    const hash = html.slice(at + 1, end);
    if (hash !== 'ondemand') return hash;
  }
  return undefined;
}

/** The on-demand script sits next to the main script, named by the chunk hash the runtime maps it to. */
export function* scanOnDemandScriptUrl(html: string, mainUrl: string): Scan<string | undefined> {
  const chunk = yield* scanOnDemandChunk(html);
  const hash = chunk === undefined ? undefined : yield* scanOnDemandHash(html, chunk);
  return hash === undefined || hash.length > MAX_SCRIPT_URL_CHARS
    ? undefined
    : resolve(`ondemand.s.${hash}a.js`, mainUrl);
}

/** The NN of every `(x[NN],\s*16)`: one word character before the bracket, one or two digits. */
export function* scanKeyByteIndices(script: string): Scan<number[]> {
  const out: number[] = [];
  for (let i = script.indexOf('('); i !== -1; i = script.indexOf('(', i + 1)) {
    if (due()) yield;
    if (!isWordChar(script.charCodeAt(i + 1)) || script.charCodeAt(i + 2) !== 0x5b) continue; // '['
    const digitsEnd = skipWhile(script, i + 3, isDigit, Math.min(script.length, i + 6));
    const digits = digitsEnd - (i + 3);
    if (digits < 1 || digits > 2 || !script.startsWith('],', digitsEnd)) continue;
    if (script.startsWith('16)', skipSpaces(script, digitsEnd + 2))) out.push(Number(script.slice(i + 3, digitsEnd)));
  }
  return out;
}

export const mainScriptUrl = (html: string, pageUrl: string) => finish(scanMainScriptUrl(html, pageUrl));
export const queryIdsIn = (script: string) => finish(scanQueryIds(script));
export const verificationKey = (html: string) => finish(scanVerificationKey(html));
export const animationFrames = (html: string) => finish(scanAnimationFrames(html));
export const onDemandScriptUrl = (html: string, mainUrl: string) => finish(scanOnDemandScriptUrl(html, mainUrl));
export const keyByteIndices = (script: string) => finish(scanKeyByteIndices(script));
