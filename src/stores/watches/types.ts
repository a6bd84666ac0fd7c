// What must survive a restart for the push side: watches (signed webhooks), WebSub hub subscriptions, the mark each
// watched source was last read up to, and the deliveries with their outcomes. One interface, one contract test
// (test/unit/stores/watch-store.contract.ts) run over every implementation.
import type { FeedFilter } from '../../domain/feed-filters.ts';
import type { WatchTarget } from '../../domain/watch.ts';

export interface WatchRecord {
  id: string;
  /** The API key that created it (its id, never the key). */
  keyId: string;
  /** The source as named by the caller, normalised: a path on the service with its filters. */
  source: string;
  sourceKey: string;
  target: WatchTarget;
  filter: FeedFilter;
  callback: string;
  /** Standard Webhooks signing secret (`whsec_…`), shown to the key's holder. */
  secret: string;
  state: 'active' | 'disabled';
  disabledReason?: string;
  /** ISO 8601 UTC. */
  createdAt: string;
}

export interface HubSubscription {
  id: string;
  /** The feed URL subscribed to (hub.topic). */
  topic: string;
  sourceKey: string;
  target: WatchTarget;
  filter: FeedFilter;
  callback: string;
  /** hub.secret: pushes carry X-Hub-Signature-256 when set. */
  secret?: string;
  leaseSeconds: number;
  /** ISO 8601 UTC. */
  expiresAt: string;
  createdAt: string;
  /**
   * The subscribing client address (its rate-limit partition): the payer of the source's background reads, and
   * what the live subscriptions an address may hold are counted by. Absent on subscriptions stored before payers:
   * those pay for nothing, so they keep no source alive and lapse with their lease.
   */
  subscriber?: string;
}

export type FollowerKind = 'webhook' | 'websub';

export interface DeliveryRecord {
  /** The webhook-id: the same on every attempt, for the receiver's de-duplication. */
  id: string;
  followerKind: FollowerKind;
  followerId: string;
  createdAt: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** HTTP status of the last attempt, when the callback answered. */
  lastStatus?: number;
  lastError?: string;
  lastAttemptAt?: string;
  postIds: string[];
  /** The body sent on every attempt. */
  payload: string;
  contentType: string;
}

export interface SourceEntry {
  sourceKey: string;
  target: WatchTarget;
}

export interface Followers {
  watches: WatchRecord[];
  subscriptions: HubSubscription[];
}

/** Deliveries kept per follower for GET /api/v1/watches/{id} (pending ones are never dropped). */
export const KEPT_DELIVERIES = 20;

export interface WatchStore {
  addWatch(w: WatchRecord): Promise<void>;
  getWatch(id: string): Promise<WatchRecord | undefined>;
  /** The key's watches, oldest first. */
  listWatches(keyId: string): Promise<WatchRecord[]>;
  /** False when no watch has this id. Its deliveries go with it. */
  deleteWatch(id: string): Promise<boolean>;
  disableWatch(id: string, reason: string): Promise<void>;
  /** Adds or replaces the subscription of (topic, callback): a renewal keeps one row. */
  putSubscription(s: HubSubscription): Promise<void>;
  getSubscription(topic: string, callback: string): Promise<HubSubscription | undefined>;
  getSubscriptionById(id: string): Promise<HubSubscription | undefined>;
  deleteSubscription(id: string): Promise<boolean>;
  /** Subscriptions of `subscriber` whose lease has not run out at `now` (epoch ms). */
  countSubscriptions(subscriber: string, now: number): Promise<number>;
  /** Deletes the subscriptions whose lease ran out at or before `now`, with their deliveries; how many it deleted. */
  purgeExpired(now: number): Promise<number>;
  /** Active watches and subscriptions whose lease has not run out at `now` (epoch ms). */
  followers(sourceKey: string, now: number): Promise<Followers>;
  /** Every source with at least one active watch or subscription, each once. */
  sources(now: number): Promise<SourceEntry[]>;
  getMark(sourceKey: string): Promise<string | undefined>;
  /**
   * Moves the mark from `from` (undefined: no mark yet) to `to` only if it still is `from`, atomically across
   * instances; false when another read moved it first. Reads of one source may overlap, and only the one that
   * moves the mark delivers what lies between.
   */
  advanceMark(sourceKey: string, from: string | undefined, to: string): Promise<boolean>;
  addDelivery(d: DeliveryRecord): Promise<void>;
  getDelivery(id: string): Promise<DeliveryRecord | undefined>;
  updateDelivery(d: DeliveryRecord): Promise<void>;
  /** The follower's latest deliveries, newest first. */
  recentDeliveries(followerId: string, limit: number): Promise<DeliveryRecord[]>;
  /** Deliveries still to be made (after a restart they are picked up again). */
  pendingDeliveries(): Promise<DeliveryRecord[]>;
  close(): Promise<void>;
}
