// X's data files assign one JSON array to a global: `window.YTD.tweets.part0 = [ {…}, {…} ]`. The arrays of a large
// account run to hundreds of megabytes, so they are never read whole: this splitter walks the text as it arrives,
// finds where each array element begins and ends (tracking strings, escapes and nesting), and hands each element's
// text to JSON.parse on its own. Nothing is evaluated; anything but that one assignment is refused.
import { ArchiveError } from './errors.ts';

/** `window.YTD.<name>.part<N> =`, then the array. */
const ASSIGNMENT = /^\s*window\.YTD\.([A-Za-z0-9_]+)\.part([0-9]+)\s*=\s*$/;
/** Longest text accepted before the `=` of the assignment. */
const MAX_HEAD = 200;
/** Largest single element: a post with its entities is a few kilobytes; far more is not a post. */
export const MAX_ELEMENT_CHARS = 8 * 1024 * 1024;

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff;

type State = 'head' | 'open' | 'between' | 'element' | 'after';

/** The `<name>` the file assigns (`tweets`, `note_tweet`, `account`…), as the first thing a caller may check. */
export interface YtdHead {
  name: string;
  part: number;
}

/**
 * The parsed elements of one data file, in order. `file` names it in errors. Throws ArchiveError
 * `invalid_archive_file` for anything but the assignment of an array of JSON objects (or arrays), a text that
 * ends before the array does, or an element that is not JSON.
 */
export async function* ytdElements(
  chunks: AsyncIterable<string>,
  file: string,
  onHead?: (head: YtdHead) => void,
): AsyncGenerator<unknown, void, void> {
  const bad = (why: string) =>
    new ArchiveError('invalid_archive_file', `${file} is not a window.YTD data file (${why})`);
  let state: State = 'head';
  let head = '';
  let parts: string[] = [];
  let size = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for await (const chunk of chunks) {
    let i = 0;
    const n = chunk.length;
    while (i < n) {
      if (state === 'head') {
        const eq = chunk.indexOf('=', i);
        head += chunk.slice(i, eq < 0 ? n : eq + 1);
        if (head.length > MAX_HEAD) throw bad('it does not start with window.YTD.<name>.part<N> =');
        if (eq < 0) break;
        const m = ASSIGNMENT.exec(head);
        if (!m) throw bad('it does not start with window.YTD.<name>.part<N> =');
        onHead?.({ name: m[1]!, part: Number(m[2]) });
        state = 'open';
        i = eq + 1;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (state === 'open') {
        if (c === OPEN_BRACKET) state = 'between';
        else if (!isSpace(c)) throw bad('the assigned value is not an array');
        i++;
      } else if (state === 'between') {
        if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          state = 'element';
          parts = [];
          size = 0;
          depth = 0;
          inString = false;
          escaped = false;
          // The element is scanned from here, its opening character included.
          continue;
        }
        if (c === CLOSE_BRACKET) state = 'after';
        else if (c !== COMMA && !isSpace(c)) throw bad('an element of the array is not a JSON object');
        i++;
      } else if (state === 'element') {
        const start = i;
        for (; i < n; i++) {
          const d = chunk.charCodeAt(i);
          if (inString) {
            if (escaped) escaped = false;
            else if (d === BACKSLASH) escaped = true;
            else if (d === QUOTE) inString = false;
          } else if (d === QUOTE) inString = true;
          else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
          else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
            if (--depth === 0) {
              i++;
              break;
            }
          }
        }
        parts.push(chunk.slice(start, i));
        size += i - start;
        if (size > MAX_ELEMENT_CHARS) throw bad(`an element is larger than ${MAX_ELEMENT_CHARS} characters`);
        if (depth === 0) {
          const text = parts.join('');
          parts = [];
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch (e) {
            throw bad(`an element is not JSON: ${(e as Error).message}`);
          }
          state = 'between';
          yield value;
        }
      } else {
        // After the array: only a semicolon and white space may follow.
        if (c !== SEMICOLON && !isSpace(c)) throw bad('text follows the array');
        i++;
      }
    }
  }
  if (state !== 'after') throw bad('it ends before its array does');
}
