/** One rate-limit policy of the contract (see reader-api.md, Limits). */
export interface Policy {
  readonly name: PolicyName;
  readonly quota: number;
  readonly windowS: number;
}

export type PolicyName =
  | 'api-ip'
  | 'search-ip'
  | 'search-key'
  | 'account-ip'
  | 'account-key'
  | 'live-key'
  | 'export-ip'
  | 'export-key'
  | 'media-ip'
  | 'translate-ip'
  | 'translate-key'
  | 'poll-ip'
  | 'poll-key'
  | 'admin-fail'
  | 'watch-key'
  | 'hub-ip';
export type FixedPolicyName = Exclude<PolicyName, 'account-key' | 'admin-fail' | 'watch-key' | 'hub-ip'>;

export const POLICIES: Readonly<Record<FixedPolicyName, Policy>> = {
  'api-ip': { name: 'api-ip', quota: 600, windowS: 60 },
  'search-ip': { name: 'search-ip', quota: 5, windowS: 60 },
  'search-key': { name: 'search-key', quota: 30, windowS: 60 },
  'account-ip': { name: 'account-ip', quota: 10, windowS: 900 },
  // Keyed reads skip the shared cache; this is what bounds the upstream work one key can cause.
  'live-key': { name: 'live-key', quota: 120, windowS: 60 },
  // An export walks up to 5,000 posts (about 50 upstream pages): a few per address, more per key.
  'export-ip': { name: 'export-ip', quota: 5, windowS: 900 },
  'export-key': { name: 'export-key', quota: 30, windowS: 900 },
  // A page or feed names a few media files each; video players ask for a file in many ranges.
  'media-ip': { name: 'media-ip', quota: 1200, windowS: 60 },
  // One point per upstream translation call (a cached translation costs nothing): a long thread asks up to 50.
  'translate-ip': { name: 'translate-ip', quota: 100, windowS: 60 },
  'translate-key': { name: 'translate-key', quota: 600, windowS: 60 },
  // One point per background read of a watched source, charged to a follower that keeps it alive: an address's
  // subscriptions (at most HUB_SOURCES_PER_ADDRESS) read every minute, a key's watches likewise.
  'poll-ip': { name: 'poll-ip', quota: 150, windowS: 900 },
  'poll-key': { name: 'poll-key', quota: 1500, windowS: 900 },
};

/** Wrong admin tokens per client address before the admin routes refuse it (right token included) for the window. */
export const ADMIN_FAILURES: Policy = { name: 'admin-fail', quota: 10, windowS: 900 };

/** Watches a key may create per hour (POST /api/v1/watches); each one is charged whether it is kept or deleted. */
export const WATCH_CREATES: Policy = { name: 'watch-key', quota: 60, windowS: 3600 };
/** WebSub subscribe and unsubscribe requests per client address per hour (POST /api/v1/hub). */
export const HUB_REQUESTS: Policy = { name: 'hub-ip', quota: 60, windowS: 3600 };
/** Live WebSub subscriptions one client address may hold at once (each one a source read in the background). */
export const HUB_SOURCES_PER_ADDRESS = 10;

export const ACCOUNT_KEY_WINDOW_S = 900;
/** Quota of the account-backed feeds for a key issued without `--account-quota`. */
export const DEFAULT_ACCOUNT_QUOTA = 30;

/** The account-key policy carries the quota set on the key when it was issued. */
export function accountKeyPolicy(quota: number): Policy {
  return { name: 'account-key', quota, windowS: ACCOUNT_KEY_WINDOW_S };
}

export function resolvePolicy(p: Policy | FixedPolicyName): Policy {
  return typeof p === 'string' ? POLICIES[p] : p;
}

/** Outcome of a consume or peek, enough to write every rate-limit header. */
export interface LimitState {
  allowed: boolean;
  policy: PolicyName;
  limit: number;
  windowS: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetS: number;
  /** Epoch ms at which the window this charge was taken in ends (consume only); a refund never outlives it. */
  windowEndsAt?: number;
}
