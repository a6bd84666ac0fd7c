// The WebSub hub (W3C WebSub): a subscription request is acknowledged at once (202) and its intent verified by a GET
// to the callback carrying a challenge the subscriber must echo; only then is the subscription stored (or removed).
// Leases are bounded and renewable: subscribing again before the lease ends renews it.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FeedFilter } from '../domain/feed-filters.ts';
import { sourceKeyOf, type WatchTarget } from '../domain/watch.ts';
import type { Follow } from './follow.ts';
import { getFrom } from './post-callback.ts';
import { HUB_SOURCES_PER_ADDRESS } from '../stores/limits/policies.ts';

/**
 * Leases are short: a subscription keeps its source read (and its subscriber paying) only while it is renewed, and a
 * dead callback is never told so when its source has nothing new, so it lapses within a day instead.
 */
export const LEASE_BOUNDS_S = { min: 60, default: 86_400, max: 86_400 } as const;
/** hub.secret longer than this is refused (the recommendation's bound). */
export const MAX_HUB_SECRET_BYTES = 200;

export interface HubRequest {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
  callback: string;
  target: WatchTarget;
  filter: FeedFilter;
  leaseSeconds?: number;
  secret?: string;
  /** The subscribing client address's partition: the payer of the source's reads. */
  subscriber: string;
}

export function boundedLease(asked: number | undefined): number {
  return Math.min(LEASE_BOUNDS_S.max, Math.max(LEASE_BOUNDS_S.min, asked ?? LEASE_BOUNDS_S.default));
}

export class Hub {
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly follow: Follow) {}

  /**
   * Whether `subscriber` may subscribe `callback` to `topic`: a renewal always may; a new subscription only while the
   * address holds fewer than `HUB_SOURCES_PER_ADDRESS` live ones.
   */
  async mayHold(subscriber: string, topic: string, callback: string): Promise<boolean> {
    const { store } = this.follow;
    const known = await store.getSubscription(topic, callback);
    if (known && known.subscriber === subscriber && Date.parse(known.expiresAt) > Date.now()) return true;
    return (await store.countSubscriptions(subscriber, Date.now())) < HUB_SOURCES_PER_ADDRESS;
  }

  /** Starts the verification of intent in the background; the caller has already answered 202. */
  accept(req: HubRequest): void {
    const p = this.#verify(req).catch(() => undefined);
    this.#pending.add(p);
    void p.finally(() => this.#pending.delete(p));
  }

  /** Resolves once every verification started so far has ended (stored, removed or refused). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  async close(): Promise<void> {
    await this.settled();
  }

  async #verify(req: HubRequest): Promise<void> {
    const lease = boundedLease(req.leaseSeconds);
    const challenge = randomBytes(18).toString('base64url');
    const url = new URL(req.callback);
    url.searchParams.set('hub.mode', req.mode);
    url.searchParams.set('hub.topic', req.topic);
    url.searchParams.set('hub.challenge', challenge);
    if (req.mode === 'subscribe') url.searchParams.set('hub.lease_seconds', String(lease));
    const answer = await getFrom(url, this.follow.settings.push);
    // Intent is confirmed only by a 2xx echoing the challenge exactly; anything else leaves things as they were.
    if ('error' in answer || answer.status < 200 || answer.status > 299 || answer.text !== challenge) return;
    const { store } = this.follow;
    const known = await store.getSubscription(req.topic, req.callback);
    if (req.mode === 'unsubscribe') {
      if (known) await store.deleteSubscription(known.id);
      return;
    }
    // Checked again now that intent is confirmed: subscriptions asked for at once are counted as each one is stored.
    if (!(await this.mayHold(req.subscriber, req.topic, req.callback))) return;
    const now = Date.now();
    const sourceKey = sourceKeyOf(req.target);
    await store.putSubscription({
      id: known?.id ?? `sub_${randomUUID().replaceAll('-', '')}`,
      topic: req.topic,
      sourceKey,
      target: req.target,
      filter: req.filter,
      callback: req.callback,
      ...(req.secret ? { secret: req.secret } : {}),
      leaseSeconds: lease,
      subscriber: req.subscriber,
      expiresAt: new Date(now + lease * 1000).toISOString(),
      createdAt: known?.createdAt ?? new Date(now).toISOString(),
    });
    await this.follow.follow(sourceKey, req.target.kind);
  }
}
