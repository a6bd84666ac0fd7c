// The few places where plain Markdown and Obsidian-flavoured Markdown differ, so one set of block renderers
// serves both: how user text is escaped and how people, hashtags and cashtags are referenced.
import { OBSIDIAN_EXTRA, escapeInline, escapeLine, link } from './escape.ts';
import { HANDLE_RE } from '../../domain/handles.ts';

export interface Dialect {
  /** Escape one line of user text (no newlines). */
  text(s: string, atLineStart: boolean): string;
  mention(handle: string, shown: string): string;
  hashtag(tag: string, shown: string): string;
  cashtag(symbol: string, shown: string): string;
  /** A person named in a byline (not in post text): `@handle`, or a wiki link in Obsidian. */
  person(handle: string): string;
}

export function isHandle(h: string): boolean {
  return HANDLE_RE.test(h);
}

/** https://x.com/{handle}, or undefined for anything that is not a handle. */
export function xProfileUrl(handle: string): string | undefined {
  return isHandle(handle) ? `https://x.com/${handle}` : undefined;
}

export const markdownDialect: Dialect = {
  text: (s, atLineStart) => escapeInline(s, atLineStart),
  mention: (handle, shown) => link(shown || `@${handle}`, xProfileUrl(handle)),
  hashtag: (tag, shown) => link(shown || `#${tag}`, `https://x.com/hashtag/${encodeURIComponent(tag)}`),
  cashtag: (symbol, shown) => link(shown || `$${symbol}`, `https://x.com/search?q=${encodeURIComponent('$' + symbol)}`),
  person: (handle) => '@' + escapeLine(handle),
};

// Obsidian tags: letters, digits, `_`, `-`, `/`, and at least one non-digit.
const OBSIDIAN_TAG = /^(?=.*[^0-9])[\p{L}\p{N}_/-]+$/u;

export function obsidianTag(tag: string): string | undefined {
  return OBSIDIAN_TAG.test(tag) ? tag : undefined;
}

/** Obsidian: people become `[[@handle]]` wiki links, hashtags become native `#tags`. */
export const obsidianDialect: Dialect = {
  text: (s, atLineStart) => escapeInline(s, atLineStart, OBSIDIAN_EXTRA),
  mention: (handle, shown) => (isHandle(handle) ? `[[@${handle}]]` : escapeLine(shown, false, OBSIDIAN_EXTRA)),
  hashtag: (tag, shown) => {
    const t = obsidianTag(tag);
    return t ? `#${t}` : escapeLine(shown || `#${tag}`, false, OBSIDIAN_EXTRA);
  },
  cashtag: (symbol, shown) => escapeLine(shown || `$${symbol}`, false, OBSIDIAN_EXTRA),
  person: (handle) => (isHandle(handle) ? `[[@${handle}]]` : '@' + escapeLine(handle, false, OBSIDIAN_EXTRA)),
};
