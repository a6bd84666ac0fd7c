// Account facts: what X shows about an account beyond its bio ("About this account"): where it is based, how it
// connects, when it joined, its verification and since when, its username changes and its affiliate badge. A fact
// the upstream did not give is named as unknown, never guessed; a fact the upstream gave as "none" (no affiliate,
// never renamed) is a fact.
import type { ReadPolicy, Sourced } from './sourced.ts';

export interface Affiliation {
  /** The organisation named on the badge. */
  name: string;
  /** Its page (usually its X profile). */
  url?: string;
  badgeUrl?: string;
}

export interface AccountFacts {
  id?: string;
  handle: string;
  name?: string;
  /** The country or region X says the account is based in. */
  basedIn?: string;
  /** Whether X considers that place accurate (false: it may come from a VPN or proxy). */
  basedInAccurate?: boolean;
  /** How the account connects to X, as X words it ("Web", "United States App Store"). */
  connectedVia?: string;
  /** When the account was created. */
  joined?: string;
  verified?: boolean;
  /** individual, business, government… as X names the check mark. */
  verifiedType?: string;
  /** When the current verification began. */
  verifiedSince?: string;
  /** Whether the owner's identity is verified (a separate check from the mark). */
  identityVerified?: boolean;
  usernameChanges?: number;
  /** When the handle last changed. */
  lastUsernameChange?: string;
  /** The affiliate badge; `false` = X says the account has none. */
  affiliate?: Affiliation | false;
}

/** The facts an about read states, in the order readers see them. */
export const ABOUT_FACTS = [
  'basedIn',
  'connectedVia',
  'joined',
  'verified',
  'verifiedSince',
  'usernameChanges',
  'lastUsernameChange',
  'affiliate',
] as const;
export type AboutFact = (typeof ABOUT_FACTS)[number];

export interface AboutRead {
  facts: AccountFacts;
  /** Facts the upstream did not give (stated as unknown rather than guessed). */
  unknown: AboutFact[];
  source: string;
  warnings: string[];
}

export interface AboutSource {
  about(handle: string, policy: ReadPolicy): Promise<Sourced<AccountFacts>>;
}

/** Which facts are unknown: those absent, except where another fact makes them moot (no mark, no renames). */
export function unknownFacts(f: AccountFacts): AboutFact[] {
  return ABOUT_FACTS.filter((k) => {
    if (f[k] !== undefined) return false;
    if (k === 'verifiedSince') return f.verified !== false;
    if (k === 'lastUsernameChange') return f.usernameChanges !== 0;
    return true;
  });
}

export async function readAbout(
  src: AboutSource,
  handle: string,
  policy: ReadPolicy,
): Promise<{ read: AboutRead; cache: Sourced<unknown>['cache'] }> {
  const got = await src.about(handle, policy);
  return {
    read: { facts: got.value, unknown: unknownFacts(got.value), source: got.source, warnings: got.warnings },
    cache: got.cache,
  };
}
