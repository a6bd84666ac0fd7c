// What handlers may use: assembled once at start-up by src/compose.ts.
import type { MediaSigner } from '../media/signer.ts';
import type { MediaProxy } from '../media/proxy.ts';
import type { ChargeMedia } from '../media/payer.ts';
import type { Payer } from '../domain/payer.ts';
import type { Config } from '../config.ts';
import type { ReadPolicy } from '../domain/sourced.ts';
import type { PostSource } from '../domain/read-post.ts';
import type { TranslationSource } from '../domain/translate-read.ts';
import type { TrendSource } from '../domain/trends.ts';
import type { ListSource } from '../domain/lists.ts';
import type { TabSource } from '../domain/post-lists.ts';
import type { AboutSource } from '../domain/about.ts';
import type { CursorSealer } from '../domain/cursors.ts';
import type { Stores } from '../stores/index.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { ProviderHealth } from '../providers/chain.ts';
import type { ResponseCache, ResponseSlot } from '../stores/cache/responses.ts';
import type { Rendered, SerializedFeed } from './rendered.ts';

import type { SessionAdmin } from '../providers/x/session-admin.ts';

/** What the API-key guard learned about the caller. */
export interface CallerKey {
  status: 'anonymous' | 'valid' | 'invalid' | 'unverified';
  id?: string;
  accountQuota?: number;
}

/**
 * What a handler asks of the request guards, bound to its request by the server: who the caller is and who pays
 * for its upstream calls, the read policy of its reads (cache use, and the charge before a live read), an export's
 * allowances, and that a passing upstream failure shaped the answer. The guards' hooks and headers are the server's
 * business, not a handler's.
 */
export interface RequestGuards {
  readonly key: CallerKey;
  policy(opts: { nocache: boolean; search?: 'plain' | 'account'; accountBacked?: boolean }): ReadPolicy;
  exportPolicy(): Promise<ReadPolicy>;
  checkExport(): Promise<void>;
  /** Who the request's upstream calls are made for: its client address, and its key when it sent a valid one. */
  payer(): Payer;
  /** The answer must not be stored by the response layer: it would outlive the failure that shaped it. */
  degraded(): void;
}

export interface Services {
  config: Config;
  version: string;
  posts: PostSource;
  /** X's current trends, cached for their own short lifetime (domain/trends.ts TRENDS_TTL_S). */
  trends: TrendSource;
  /** Translations of posts, one cache entry per post and language (the `lang` option of the post reads). */
  translations: TranslationSource;
  lists: ListSource;
  /** Quotes and reposts of a post, a profile's media tab, and the account facts. */
  tabs: TabSource & AboutSource;
  cursors: CursorSealer;
  stores: Stores;
  /** Per-provider counters and breaker state, for GET /api (`health.providers`), /readyz and /metrics. */
  providerHealth: () => ProviderHealth[];
  metrics: Metrics;
  /** The one response cache (stores/cache/responses.ts), and its slots for rendered bodies and serialized feeds. */
  responses: ResponseCache;
  renders: ResponseSlot<Rendered>;
  feeds: ResponseSlot<SerializedFeed>;
  /**
   * Signed media addresses, the proxy that serves them when THREADMARK_MEDIA_PROXY is on, and the charge of one
   * upstream media fetch to the payer it is made for (the proxy's and the zip export's).
   */
  media: { signer: MediaSigner; proxy?: MediaProxy; charge: ChargeMedia };
  /** Run-time X sessions (GET/POST/DELETE /admin/sessions); undefined when x is not a configured provider. */
  xSessions?: SessionAdmin;
}
