// Note templates: the file name of a note from placeholders, and the front matter fields added to an Obsidian
// note. Without options a note is exactly the default one.
import type { Metrics } from '../domain/models.ts';

export const NAME_PLACEHOLDERS = ['handle', 'id', 'date', 'title'] as const;
/** Today's names: `<handle> <id> <first words>`. */
export const DEFAULT_NOTE_NAME = '{handle} {id} {title}';
/** Longest template accepted; the name it makes is bounded separately. */
const MAX_TEMPLATE = 200;
/** Bytes of text `{title}` takes at most. */
export const TITLE_BYTES = 60;

/** Front matter beyond the default fields. */
export interface FrontMatterOptions {
  /** The post's counts (likes, reposts, replies, quotes, views, bookmarks) as numbers. */
  metrics?: boolean;
  /** Added to the post's own hashtags in `tags`. */
  tags?: string[];
  /** Obsidian's `cssclasses` list. */
  cssclasses?: string[];
  /** ISO time the post was fetched, as `fetched`. */
  fetched?: string;
  /** Fixed fields, in order, as strings. */
  fields?: Array<[string, string]>;
}

/** Fields the note itself writes: a custom field may not take their names. */
export const RESERVED_FIELDS = new Set([
  'id',
  'url',
  'author',
  'author_name',
  'created',
  'thread_length',
  'thread',
  'thread_position',
  'tags',
  'source',
  'cssclasses',
  'fetched',
  'likes',
  'reposts',
  'quotes',
  'replies',
  'views',
  'bookmarks',
]);

export const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
/** Tags and CSS classes: Obsidian tag characters (letters, digits, `_`, `-`, `/`), not only digits. */
export const TAG = /^(?=.*[^0-9/])[\p{L}\p{N}_/-]{1,60}$/u;
export const CSS_CLASS = /^[A-Za-z_-][A-Za-z0-9_-]{0,59}$/;
const MAX_FIELD_VALUE = 500;
const MAX_LIST = 20;

/** Why a file-name template is refused, or undefined when it is fine. */
export function nameTemplateProblem(t: string): string | undefined {
  if (t.trim() === '') return 'the note name template is empty';
  if (t.length > MAX_TEMPLATE) return `the note name template is longer than ${MAX_TEMPLATE} characters`;
  const stripped = t.replace(/\{([a-z]+)\}/g, (all, name: string) =>
    (NAME_PLACEHOLDERS as readonly string[]).includes(name) ? '' : all,
  );
  const bad = /\{[^}]*\}?|\}/.exec(stripped);
  if (bad) return `the note name template has ${JSON.stringify(bad[0])}: use {${NAME_PLACEHOLDERS.join('}, {')}}`;
  if (!/\{(id|title|date|handle)\}/.test(t)) return 'the note name template names no placeholder';
  return undefined;
}

/** Why front matter options are refused, or undefined when they are fine. */
export function frontMatterProblem(o: FrontMatterOptions): string | undefined {
  for (const t of o.tags ?? []) if (!TAG.test(t)) return `${JSON.stringify(t)} is not a tag (letters, digits, _ - /)`;
  for (const c of o.cssclasses ?? [])
    if (!CSS_CLASS.test(c)) return `${JSON.stringify(c)} is not a CSS class (letters, digits, _ -)`;
  if ((o.tags?.length ?? 0) > MAX_LIST || (o.cssclasses?.length ?? 0) > MAX_LIST || (o.fields?.length ?? 0) > MAX_LIST)
    return `at most ${MAX_LIST} tags, classes or fields`;
  const seen = new Set<string>();
  for (const [k, v] of o.fields ?? []) {
    if (!FIELD_NAME.test(k)) return `${JSON.stringify(k)} is not a field name (a letter, then letters, digits, _ -)`;
    if (RESERVED_FIELDS.has(k.toLowerCase())) return `${k} is a field the note writes itself`;
    if (seen.has(k.toLowerCase())) return `${k} is given twice`;
    seen.add(k.toLowerCase());
    if (v.length > MAX_FIELD_VALUE) return `the value of ${k} is longer than ${MAX_FIELD_VALUE} characters`;
  }
  return undefined;
}

/** The first `max` bytes of `s`, whole graphemes only (an emoji sequence or accented letter is never cut). */
export function truncateBytes(s: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const { segment } of new Intl.Segmenter().segment(s)) {
    const n = Buffer.byteLength(segment);
    if (bytes + n > max) break;
    out += segment;
    bytes += n;
  }
  return out;
}

/** `{title}`: the first words of the text, links left out. */
export function titleOf(text: string | undefined): string {
  const words = (text ?? '')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return truncateBytes(words, TITLE_BYTES).trim();
}

export interface NamedPost {
  id: string;
  author: { handle: string };
  text?: string;
  createdAt?: string;
}

/** The template filled in; the caller makes it a safe file name. */
export function fillNameTemplate(template: string, post: NamedPost): string {
  const values: Record<(typeof NAME_PLACEHOLDERS)[number], string> = {
    handle: post.author.handle,
    id: post.id,
    date: /^\d{4}-\d{2}-\d{2}/.exec(post.createdAt ?? '')?.[0] ?? '',
    title: titleOf(post.text),
  };
  return template.replace(/\{(handle|id|date|title)\}/g, (_, k: keyof typeof values) => values[k]);
}

const METRIC_FIELDS: Array<keyof Metrics> = ['likes', 'reposts', 'quotes', 'replies', 'views', 'bookmarks'];

/** The metrics lines of a post's front matter (counts the source did not give are left out). */
export function metricLines(m: Metrics): string[] {
  return METRIC_FIELDS.filter((k) => typeof m[k] === 'number').map((k) => `${k}: ${m[k]}`);
}

/** Longest file name stem in UTF-8 bytes; with ` (99).md` it stays far below the 255-byte limit of file systems. */
export const MAX_NAME_BYTES = 120;

// Windows forbids \ / : * ? " < > |; Obsidian links break on # ^ [ ] |.
const RESERVED = /[\\/:*?"<>|#^[\]]/g;
// Control characters, zero-width characters and bidirectional overrides (which can disguise an extension).
// The zero-width joiner stays: emoji sequences need it.
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const DEVICE_NAMES = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** A file-name stem (no extension) with no path separators, no reserved or invisible characters, bounded length. */
export function safeFileName(raw: string, maxBytes = MAX_NAME_BYTES): string {
  let s = raw.normalize('NFC').replace(INVISIBLE, ' ').replace(RESERVED, ' ').replace(/\s+/g, ' ').trim();
  s = s.replace(/^[.\s]+/, ''); // no hidden files, no `..`
  s = truncateBytes(s, maxBytes).replace(/[.\s]+$/, ''); // Windows drops trailing dots and spaces
  if (!s) s = 'note';
  if (DEVICE_NAMES.test(s)) s = `_${s}`;
  return s;
}

/** A note's file name (no extension) from a template, safe on every OS and inside Obsidian links. */
export function noteFileName(post: NamedPost, template = DEFAULT_NOTE_NAME): string {
  return safeFileName(fillNameTemplate(template, post));
}
