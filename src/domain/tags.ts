// Hashtags and cashtags as named searches: which tags can exist on X, and the search terms and page of each.
import { encodePart } from './links.ts';

export type TagKind = 'hashtag' | 'cashtag';

/** Longest hashtag accepted: X's own ceiling is the post's length, but no real tag comes near this. */
export const MAX_HASHTAG_CHARS = 100;

/**
 * X's hashtag shape (twitter-text): letters, marks, digits and underscores, at least one of them not a digit.
 * No leading `#`: the page is /hashtag/caching, as on X.
 */
const HASHTAG_RE = new RegExp(
  `^(?=[\\p{L}\\p{M}\\p{N}_]*[\\p{L}\\p{M}_])[\\p{L}\\p{M}\\p{N}_]{1,${MAX_HASHTAG_CHARS}}$`,
  'u',
);

/** X's cashtag shape (twitter-text): 1-6 letters, optionally a `.` or `_` and 1-2 letters (BRK.A). No leading `$`. */
const CASHTAG_RE = /^[A-Za-z]{1,6}(?:[._][A-Za-z]{1,2})?$/;

export function isTag(kind: TagKind, tag: string): boolean {
  return (kind === 'hashtag' ? HASHTAG_RE : CASHTAG_RE).test(tag);
}

/** The search terms a tag's page reads: `#tag`, or `$SYMBOL` (cashtags are upper case on X). */
export function tagTerms(kind: TagKind, tag: string): string {
  return kind === 'hashtag' ? `#${tag}` : `$${tag.toUpperCase()}`;
}

/** This service's page of a tag, e.g. /hashtag/caching or /cashtag/TSLA. */
export function tagPath(kind: TagKind, tag: string): string {
  return `/${kind}/${encodePart(kind === 'hashtag' ? tag : tag.toUpperCase())}`;
}
