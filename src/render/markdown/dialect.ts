// The few places where plain Markdown and Obsidian-flavoured Markdown differ, so one set of block renderers
// serves both: how user text is escaped and how people, hashtags and cashtags are referenced.
import { OBSIDIAN_EXTRA, escapeInline, escapeLine, link } from './escape.ts';
import { isHandle } from '../../domain/handles.ts';
import { encodePart } from '../../domain/links.ts';
import { isTag, tagPath } from '../../domain/tags.ts';

export interface Dialect {
  /** Escape one line of user text (no newlines). */
  text(s: string, atLineStart: boolean): string;
  mention(handle: string, shown: string): string;
  hashtag(tag: string, shown: string): string;
  cashtag(symbol: string, shown: string): string;
  /** A person named in a byline (not in post text): `@handle`, or a wiki link in Obsidian. */
  person(handle: string): string;
  /** An upstream's link to a hashtag or cashtag on X (inside Articles) as this service's page, when it has one. */
  tagHref?(href: string): string | undefined;
}

const X_HASHTAG = /^https:\/\/x\.com\/hashtag\/([^/?#]+)$/;
const X_CASHTAG = /^https:\/\/x\.com\/search\?q=%24([A-Za-z._]+)$/;

function decoded(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

/** https://x.com/{handle}, or undefined for anything that is not a handle. */
export function xProfileUrl(handle: string): string | undefined {
  return isHandle(handle) ? `https://x.com/${handle}` : undefined;
}

/** Markdown without a service to link to: hashtags and cashtags link to X. */
export const markdownDialect: Dialect = {
  text: (s, atLineStart) => escapeInline(s, atLineStart),
  mention: (handle, shown) => link(shown || `@${handle}`, xProfileUrl(handle)),
  hashtag: (tag, shown) => link(shown || `#${tag}`, `https://x.com/hashtag/${encodePart(tag)}`),
  cashtag: (symbol, shown) => link(shown || `$${symbol}`, `https://x.com/search?q=${encodePart('$' + symbol)}`),
  person: (handle) => '@' + escapeLine(handle),
};

const serviceDialects = new Map<string, Dialect>();

/**
 * Markdown of this service at `baseUrl`: every hashtag and cashtag links to its page here (/hashtag/{tag},
 * /cashtag/{symbol}); one the platform could not have made (a hostile upstream's) keeps X's link.
 */
export function markdownDialectFor(baseUrl: string): Dialect {
  // In-process readers without a service of their own link to x.com itself, where a cashtag page is a search.
  if (baseUrl === 'https://x.com') return markdownDialect;
  let d = serviceDialects.get(baseUrl);
  if (d) return d;
  d = {
    ...markdownDialect,
    hashtag: (tag, shown) =>
      isTag('hashtag', tag)
        ? link(shown || `#${tag}`, baseUrl + tagPath('hashtag', tag))
        : markdownDialect.hashtag(tag, shown),
    cashtag: (symbol, shown) =>
      isTag('cashtag', symbol)
        ? link(shown || `$${symbol}`, baseUrl + tagPath('cashtag', symbol))
        : markdownDialect.cashtag(symbol, shown),
    tagHref: (href) => {
      const tag = decoded(X_HASHTAG.exec(href)?.[1] ?? '');
      if (tag && isTag('hashtag', tag)) return baseUrl + tagPath('hashtag', tag);
      const symbol = X_CASHTAG.exec(href)?.[1];
      return symbol && isTag('cashtag', symbol) ? baseUrl + tagPath('cashtag', symbol) : undefined;
    },
  };
  // One base URL per deployment (tests use a few): the map stays tiny.
  if (serviceDialects.size < 16) serviceDialects.set(baseUrl, d);
  return d;
}

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
