// Finds the entities X would detect in a post's visible text and lays out the legacy `full_text`.
// Indices are in Unicode code points over the unescaped text, as X computes them; the corpus keeps
// entity-bearing text ASCII so UTF-16 and code-point offsets agree for every consumer.
import { slug } from './prng.ts';

export interface UrlEntity {
  url: string;
  expanded: string;
  display: string;
  indices: [number, number];
}
export interface MentionEntity {
  handle: string;
  indices: [number, number];
}
export interface TagEntity {
  text: string;
  indices: [number, number];
}

export interface LaidOutText {
  /** Legacy full_text before HTML escaping: reply prefix + text with t.co links (+ media link). */
  fullText: string;
  /** Visible text with expanded links, reply prefix included (what FxTwitter calls `text`). */
  expandedText: string;
  displayRange: [number, number];
  urls: UrlEntity[];
  mentions: MentionEntity[];
  hashtags: TagEntity[];
  cashtags: TagEntity[];
  /** t.co link and indices shared by all attached media, when there is media. */
  mediaLink?: { url: string; indices: [number, number] };
}

const TOKEN = /https?:\/\/[^\s)\]]+|@[A-Za-z0-9_]{1,15}|#[A-Za-z][A-Za-z0-9_]*|\$[A-Z]{1,6}\b/g;

const cpLen = (s: string) => Array.from(s).length;

export function tcoFor(seed: string): string {
  return `https://t.co/${slug(seed, 10)}`;
}

export function displayUrl(expanded: string): string {
  const bare = expanded.replace(/^https?:\/\//, '').replace(/^www\./, '');
  return bare.length > 26 ? `${bare.slice(0, 25)}…` : bare;
}

export function layoutText(postId: string, text: string, replyPrefix: string[], hasMedia: boolean): LaidOutText {
  const prefix = replyPrefix.map((h) => `@${h} `).join('');
  let full = '';
  let expanded = '';
  const urls: UrlEntity[] = [];
  const mentions: MentionEntity[] = [];
  const hashtags: TagEntity[] = [];
  const cashtags: TagEntity[] = [];

  const append = (s: string) => {
    full += s;
    expanded += s;
  };
  for (const h of replyPrefix) {
    const start = cpLen(full);
    append(`@${h}`);
    mentions.push({ handle: h, indices: [start, start + h.length + 1] });
    append(' ');
  }
  const displayStart = cpLen(prefix);

  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    const token = m[0];
    const at = m.index ?? 0;
    append(text.slice(last, at));
    last = at + token.length;
    const start = cpLen(full);
    if (token.startsWith('http')) {
      const tco = tcoFor(`${postId}:${token}`);
      full += tco;
      expanded += token;
      urls.push({ url: tco, expanded: token, display: displayUrl(token), indices: [start, start + tco.length] });
    } else if (token.startsWith('@')) {
      append(token);
      mentions.push({ handle: token.slice(1), indices: [start, start + token.length] });
    } else if (token.startsWith('#')) {
      append(token);
      hashtags.push({ text: token.slice(1), indices: [start, start + token.length] });
    } else {
      append(token);
      cashtags.push({ text: token.slice(1), indices: [start, start + token.length] });
    }
  }
  append(text.slice(last));
  const displayEnd = cpLen(full);

  let mediaLink: LaidOutText['mediaLink'];
  if (hasMedia) {
    const tco = tcoFor(`${postId}:media`);
    const start = cpLen(full) + 1;
    full += ` ${tco}`;
    mediaLink = { url: tco, indices: [start, start + tco.length] };
  }
  return {
    fullText: full,
    expandedText: expanded,
    displayRange: [displayStart, displayEnd],
    urls,
    mentions,
    hashtags,
    cashtags,
    mediaLink,
  };
}

/** X escapes exactly these three characters in legacy text fields. */
export function escapeLegacy(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
