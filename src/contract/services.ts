// What handlers may use: assembled once at start-up by src/compose.ts.
import type { Config } from '../config.ts';
import type { PostSource } from '../domain/read-post.ts';
import type { ListSource } from '../domain/lists.ts';
import type { CursorCodec } from '../domain/paging.ts';
import type { Guards } from '../http/guards.ts';
import type { Stores } from '../stores/index.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { ProviderHealth } from '../providers/chain.ts';
import type { ResponseCache, ResponseSlot } from '../stores/cache/responses.ts';
import type { Rendered, SerializedFeed } from './rendered.ts';

import type { SessionAdmin } from '../providers/x/session-admin.ts';

export interface Services {
  config: Config;
  version: string;
  posts: PostSource;
  lists: ListSource;
  cursors: CursorCodec;
  guards: Guards;
  stores: Stores;
  /** Provider chain health summary for GET /api; absent = reported as "unknown". */
  health?: () => unknown;
  /** Per-provider counters and breaker state, for /readyz and /metrics. */
  providerHealth: () => ProviderHealth[];
  metrics: Metrics;
  /** The one response cache (stores/cache/responses.ts), and its slots for rendered bodies and serialized feeds. */
  responses: ResponseCache;
  renders: ResponseSlot<Rendered>;
  feeds: ResponseSlot<SerializedFeed>;
  /** Run-time X sessions (GET/POST/DELETE /admin/sessions); undefined when x is not a configured provider. */
  xSessions?: SessionAdmin;
}
