// Entity tags (RFC 9110 §8.8.3) and the If-None-Match comparison (§13.1.2). Pure functions.
import { hash } from 'node:crypto';

/**
 * A strong tag from the body bytes. sha1 is not used for security here, only as a fast digest whose
 * collisions are negligible for distinguishing two versions of one resource.
 */
export function entityTagOf(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/** Content codings the compressor may apply; each gets its own strong tag (see withCoding). */
const CODINGS = ['br', 'gzip', 'deflate', 'zstd'] as const;
const CODING_SUFFIX = /-(br|gzip|deflate|zstd)"$/;

/**
 * A gzip body and the identity body are different representations, so a strong validator must differ
 * between them: the coding is appended inside the quotes (`"abc"` → `"abc-br"`).
 */
export function withCoding(tag: string, coding: string | undefined): string {
  if (!coding || coding === 'identity' || !(CODINGS as readonly string[]).includes(coding)) return tag;
  if (!tag.endsWith('"') || CODING_SUFFIX.test(tag)) return tag;
  return `${tag.slice(0, -1)}-${coding}"`;
}

/** The coding a tag was marked with by withCoding, if any. */
export function codingOf(tag: string): string | undefined {
  return CODING_SUFFIX.exec(tag)?.[1];
}

/** Weak comparison ignores W/; the coding suffix is ignored too because the content is the same. */
function opaque(tag: string): string {
  const t = tag.startsWith('W/') ? tag.slice(2) : tag;
  return t.replace(CODING_SUFFIX, '"');
}

/** `*`, or the entity tags listed in If-None-Match (malformed members are skipped). */
export function parseIfNoneMatch(value: string): '*' | string[] {
  if (value.trim() === '*') return '*';
  return value.match(/(?:W\/)?"[\x21\x23-\x7e\x80-\xff]*"/g) ?? [];
}

/**
 * The member of If-None-Match that matches `current` under weak comparison, `*` when the header is `*`,
 * or undefined when none does (the request is then served normally).
 */
export function noneMatchHit(header: string, current: string): string | undefined {
  const tags = parseIfNoneMatch(header);
  if (tags === '*') return '*';
  const want = opaque(current);
  return tags.find((t) => opaque(t) === want);
}

/**
 * The tag a 304 carries: the validator the 200 would have had for that request. The client's matching
 * member tells which coding it holds, so a cache can find the stored response to freshen.
 */
export function tagFor304(current: string, matched: string): string {
  return withCoding(current, matched === '*' ? undefined : codingOf(matched));
}

// Routes send a handful of distinct Vary values; remembering the merges keeps the split off the hot path.
const merged = new Map<string, string>();

/** Merges one field name into a Vary value, case-insensitively, without duplicates. */
export function mergeVary(existing: string | undefined, field: string): string {
  const key = `${existing ?? ''}\n${field}`;
  let out = merged.get(key);
  if (out === undefined) {
    out = mergeVaryOnce(existing, field);
    if (merged.size < 256) merged.set(key, out);
  }
  return out;
}

function mergeVaryOnce(existing: string | undefined, field: string): string {
  const parts = (existing ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.includes('*')) return '*';
  const out: string[] = [];
  const seen = new Set<string>();
  for (const p of [...parts, field]) {
    const lower = p.toLowerCase();
    if (seen.has(lower)) continue;
    seen.add(lower);
    out.push(lower === field.toLowerCase() ? field : p);
  }
  return out.join(', ');
}
