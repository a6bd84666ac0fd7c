// The few places where plain Markdown and Obsidian-flavoured Markdown differ, so one set of block renderers
// serves both: how user text is escaped and how people, hashtags and cashtags are referenced.
import { OBSIDIAN_EXTRA, escapeInline, escapeLine, link, safeHref } from './escape.ts';
import { isHandle } from '../../domain/handles.ts';
import { encodePart, statusPath } from '../../domain/links.ts';
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
  /**
   * Where a post's quotes or its reposts are read, linked from their counts in the expanded representation;
   * undefined leaves the count as text (a post whose author's handle is not one has no such page).
   */
  postList(handle: string, id: string, list: PostList): string | undefined;
  /**
   * Whether "Replying to @bob" also links the post answered: a note kept apart from its conversation (a vault, an
   * archive) keeps where the reply stood; a read shows its context itself.
   */
  replyLinks?: boolean;
}

export type PostList = 'quotes' | 'reposts';

/** X itself: in-process readers without a service of their own link there. */
const X_BASE = 'https://x.com';

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

const xCashtagUrl = (symbol: string) => `https://x.com/search?q=${encodePart('$' + symbol)}`;

/** X's own page of a post's quotes, or of its reposts (which X calls retweets). */
function xPostList(handle: string, id: string, list: PostList): string | undefined {
  return isHandle(handle)
    ? `https://x.com/${handle}/status/${id}/${list === 'reposts' ? 'retweets' : list}`
    : undefined;
}

/** Markdown without a service to link to: hashtags, cashtags and a post's quotes and reposts link to X. */
export const markdownDialect: Dialect = {
  text: (s, atLineStart) => escapeInline(s, atLineStart),
  mention: (handle, shown) => link(shown || `@${handle}`, xProfileUrl(handle)),
  hashtag: (tag, shown) => link(shown || `#${tag}`, `https://x.com/hashtag/${encodePart(tag)}`),
  cashtag: (symbol, shown) => link(shown || `$${symbol}`, xCashtagUrl(symbol)),
  person: (handle) => '@' + escapeLine(handle),
  postList: xPostList,
};

/** This service's page of a post's quotes or reposts (addressed by handle, as the permalink routes are). */
function servicePostList(baseUrl: string): Dialect['postList'] {
  return (handle, id, list) => (isHandle(handle) ? `${baseUrl}${statusPath(handle, id)}/${list}` : undefined);
}

/** Where a cashtag links: its page here, or X's search for it when the tag is not one X could make. */
function cashtagHref(baseUrl: string, symbol: string): string {
  return baseUrl !== X_BASE && isTag('cashtag', symbol) ? baseUrl + tagPath('cashtag', symbol) : xCashtagUrl(symbol);
}

const serviceDialects = new Map<string, Dialect>();

/**
 * Markdown of this service at `baseUrl`: every hashtag and cashtag links to its page here (/hashtag/{tag},
 * /cashtag/{symbol}); one the platform could not have made (a hostile upstream's) keeps X's link.
 */
export function markdownDialectFor(baseUrl: string): Dialect {
  // In-process readers without a service of their own link to x.com itself, where a cashtag page is a search.
  if (baseUrl === X_BASE) return markdownDialect;
  let d = serviceDialects.get(baseUrl);
  if (d) return d;
  d = {
    ...markdownDialect,
    hashtag: (tag, shown) =>
      isTag('hashtag', tag)
        ? link(shown || `#${tag}`, baseUrl + tagPath('hashtag', tag))
        : markdownDialect.hashtag(tag, shown),
    cashtag: (symbol, shown) => link(shown || `$${symbol}`, cashtagHref(baseUrl, symbol)),
    postList: servicePostList(baseUrl),
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

/**
 * Obsidian: people become `[[@handle]]` wiki links, hashtags become native `#tags` (the vault's own tag pages);
 * cashtags, which Obsidian has no notion of, link to their page here (`$` escaped: Obsidian reads it as math).
 */
export const obsidianDialect: Dialect = {
  text: (s, atLineStart) => escapeInline(s, atLineStart, OBSIDIAN_EXTRA),
  mention: (handle, shown) => (isHandle(handle) ? `[[@${handle}]]` : escapeLine(shown, false, OBSIDIAN_EXTRA)),
  hashtag: (tag, shown) => {
    const t = obsidianTag(tag);
    return t ? `#${t}` : escapeLine(shown || `#${tag}`, false, OBSIDIAN_EXTRA);
  },
  cashtag: (symbol, shown) => obsidianLink(shown || `$${symbol}`, xCashtagUrl(symbol)),
  person: (handle) => (isHandle(handle) ? `[[@${handle}]]` : '@' + escapeLine(handle, false, OBSIDIAN_EXTRA)),
  postList: xPostList,
  replyLinks: true,
};

function obsidianLink(text: string, href: string): string {
  const label = escapeLine(text, false, OBSIDIAN_EXTRA);
  const safe = safeHref(href);
  return safe ? `[${label}](${safe})` : label;
}

const obsidianDialects = new Map<string, Dialect>();

/** Obsidian notes of this service at `baseUrl`: cashtags and a post's quotes and reposts link to their pages here. */
export function obsidianDialectFor(baseUrl: string): Dialect {
  if (baseUrl === X_BASE) return obsidianDialect;
  let d = obsidianDialects.get(baseUrl);
  if (d) return d;
  d = {
    ...obsidianDialect,
    cashtag: (symbol, shown) => obsidianLink(shown || `$${symbol}`, cashtagHref(baseUrl, symbol)),
    postList: servicePostList(baseUrl),
  };
  if (obsidianDialects.size < 16) obsidianDialects.set(baseUrl, d);
  return d;
}
