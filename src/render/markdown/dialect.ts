// The few places where plain Markdown and Obsidian-flavoured Markdown differ, so one set of block renderers
// serves both: how user text is escaped and how people, hashtags and cashtags are referenced.
import { OBSIDIAN_EXTRA, escapeInline, escapeLine, link } from './escape.ts';
import { isHandle } from '../../domain/handles.ts';
import { encodePart } from '../../domain/links.ts';

export interface Dialect {
  /** Escape one line of user text (no newlines). */
  text(s: string, atLineStart: boolean): string;
  mention(handle: string, shown: string): string;
  hashtag(tag: string, shown: string): string;
  cashtag(symbol: string, shown: string): string;
  /** A person named in a byline (not in post text): `@handle`, or a wiki link in Obsidian. */
  person(handle: string): string;
}

/** https://x.com/{handle}, or undefined for anything that is not a handle. */
export function xProfileUrl(handle: string): string | undefined {
  return isHandle(handle) ? `https://x.com/${handle}` : undefined;
}

export const markdownDialect: Dialect = {
  text: (s, atLineStart) => escapeInline(s, atLineStart),
  mention: (handle, shown) => link(shown || `@${handle}`, xProfileUrl(handle)),
  hashtag: (tag, shown) => link(shown || `#${tag}`, `https://x.com/hashtag/${encodePart(tag)}`),
  cashtag: (symbol, shown) => link(shown || `$${symbol}`, `https://x.com/search?q=${encodePart('$' + symbol)}`),
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
