// The push side's work: each watched source read once per interval (whoever follows it), its new posts kept per
// follower by that follower's filter, and one delivery per follower and batch, attempted until it succeeds or its
// run of failures disables the watch (a WebSub subscription is dropped instead). Deliveries are at least once: the
// same webhook-id on every attempt, so a receiver de-duplicates.
import { randomBytes, randomUUID } from 'node:crypto';
import { applyFilter } from '../domain/feed-filters.ts';
import type { Post } from '../domain/models.ts';
import { idAfter } from '../domain/since.ts';
import { distinctPayers, payerInTurn, type Payer } from '../domain/payer.ts';
import { newestId, newSince, readWatched, type SourceKind, type WatchSources } from '../domain/watch.ts';
import type { FollowerPayers } from './payers.ts';
import type { DeliveryRecord, HubSubscription, WatchRecord, WatchStore } from '../stores/watches/types.ts';
import type { JobQueue } from './queue.ts';
import { pushTo, type PushOptions } from './post-callback.ts';
import { signWebhook, signWebSub } from './signatures.ts';

export interface FollowSettings {
  /** Interval between two reads of a source, per kind of source. */
  intervalsMs: Record<SourceKind, number>;
  /** Attempts of one delivery before it is given up (and the watch disabled). */
  attempts: number;
  /** First retry delay; each further retry waits twice as long. */
  backoffMs: number;
  push: PushOptions;
  /** Largest delivery body; a bigger batch is split. */
  maxBodyBytes: number;
  /** This service's WebSub hub, named in every push's Link header. */
  hubUrl: string;
}

export interface FollowLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** A WebSub topic's current content (the feed document), rendered by the service itself. */
export type TopicRenderer = (topic: string) => Promise<{ contentType: string; body: string } | undefined>;

export interface FollowStats {
  /** Source reads this instance made (each one upstream read of its source). */
  reads: number;
  readFailures: number;
  deliveries: number;
  attempts: number;
}

/** Consecutive failed reads of a source before it waits more than one interval (doubling, at most 16). */
const MAX_SKIP = 16;
/** How often expired subscriptions are purged from the store while the service runs (and once at start). */
const PURGE_EVERY_MS = 60_000;

export class Follow {
  readonly stats: FollowStats = { reads: 0, readFailures: 0, deliveries: 0, attempts: 0 };
  readonly #skips = new Map<string, { failures: number; until: number }>();
  /** Moves on with every read, so the followers of a source take turns paying for it. */
  #turn = 0;
  #purgedAt = 0;

  constructor(
    readonly store: WatchStore,
    readonly queue: JobQueue,
    private readonly sources: WatchSources,
    readonly settings: FollowSettings,
    private readonly log: FollowLog,
    private readonly renderTopic: TopicRenderer,
    private readonly payers: FollowerPayers,
  ) {}

  #queueStarted = false;

  /** Safe to call again after a failure (Redis unreachable at start): the queue is started once. */
  async start(): Promise<void> {
    if (!this.#queueStarted) {
      await this.queue.start({ read: (k) => this.readSource(k), deliver: (id) => this.deliver(id) });
      this.#queueStarted = true;
    }
    const now = Date.now();
    await this.#purge(now);
    for (const s of await this.store.sources(now)) await this.follow(s.sourceKey, s.target.kind);
    // Deliveries cut short by a restart are attempted again (the queue of distributed mode keeps its own).
    if (this.queue.kind === 'in-process')
      for (const d of await this.store.pendingDeliveries()) await this.queue.enqueueDelivery(d.id, d.attempts, 0);
  }

  async close(): Promise<void> {
    await this.queue.close();
  }

  /** Makes sure the source is read on its kind's interval (idempotent). */
  async follow(sourceKey: string, kind: SourceKind): Promise<void> {
    await this.queue.schedule(sourceKey, this.settings.intervalsMs[kind]);
  }

  newSecret(): string {
    return `whsec_${randomBytes(24).toString('base64')}`;
  }

  /** Expired subscriptions leave the store (at start, then at most once a minute from the reads). */
  async #purge(now: number): Promise<void> {
    if (now - this.#purgedAt < PURGE_EVERY_MS) return;
    this.#purgedAt = now;
    const purged = await this.store.purgeExpired(now);
    if (purged > 0) this.log.info({ purged }, 'expired hub subscriptions purged');
  }

  /** The followers that pay for a source's reads, each once: watches' keys and subscribers' addresses. */
  async #payersOf(watches: WatchRecord[], subscriptions: HubSubscription[]): Promise<Payer[]> {
    const keys = await Promise.all([...new Set(watches.map((w) => w.keyId))].map((id) => this.payers.ofKey(id)));
    const addresses = subscriptions.flatMap((s) => (s.subscriber ? [this.payers.ofAddress(s.subscriber)] : []));
    return distinctPayers([...keys.filter((p): p is Payer => p !== undefined), ...addresses]);
  }

  async readSource(sourceKey: string): Promise<void> {
    const now = Date.now();
    await this.#purge(now);
    const { watches, subscriptions } = await this.store.followers(sourceKey, now);
    const target = (watches[0] ?? subscriptions[0])?.target;
    if (!target) {
      await this.queue.unschedule(sourceKey);
      return;
    }
    // A source none of its followers can pay for (every key disabled, say) is not read, but stays scheduled: a key
    // enabled again pays for the next turn.
    const payers = await this.#payersOf(watches, subscriptions);
    if (payers.length === 0) return;
    // After failures (an upstream refusing, a session window spent) the source waits longer than one interval.
    const skip = this.#skips.get(sourceKey);
    if (skip && skip.until > now) return;
    let posts: Post[];
    try {
      this.stats.reads += 1;
      // Each upstream call of the read is charged to a follower (poll-key or poll-ip, and the account allowance for
      // a call that spends an X session); when none has allowance left the read fails here and the source waits.
      const payer = payerInTurn(payers, this.#turn++);
      posts = await readWatched(this.sources, target, {
        mode: 'refresh',
        payer,
        purpose: 'poll',
        chargeSession: () => payer.chargeSession(),
      });
    } catch (err) {
      this.stats.readFailures += 1;
      const failures = (skip?.failures ?? 0) + 1;
      const waits = Math.min(2 ** (failures - 1), MAX_SKIP);
      this.#skips.set(sourceKey, { failures, until: now + waits * this.settings.intervalsMs[target.kind] - 1 });
      this.log.warn({ sourceKey, err: (err as Error).message, failures }, 'watched source read failed');
      return;
    }
    this.#skips.delete(sourceKey);
    const fresh = await this.#claimNews(sourceKey, posts);
    if (fresh.length === 0) return;
    // The news goes to the followers the source has now: one that came while the read was under way (its post may
    // have been published after it came) is not left out.
    const current = await this.store.followers(sourceKey, Date.now());
    for (const w of current.watches) await this.#toWatch(w, applyFilter(w.filter, fresh));
    for (const s of current.subscriptions) await this.#toSubscriber(s, applyFilter(s.filter, fresh));
  }

  /**
   * The posts this read is the one to deliver: those after the mark it moved. A read that loses the move to an
   * overlapping one looks again from where that one left the mark, so nothing is delivered twice or skipped.
   */
  async #claimNews(sourceKey: string, posts: Post[]): Promise<Post[]> {
    // An empty source's mark is "0": its first post is news.
    const newest = newestId(posts) ?? '0';
    for (;;) {
      const mark = await this.store.getMark(sourceKey);
      if (mark !== undefined && !idAfter(newest, mark)) return [];
      if (await this.store.advanceMark(sourceKey, mark, newest)) return newSince(posts, mark);
    }
  }

  async #toWatch(w: WatchRecord, posts: Post[]): Promise<void> {
    for (const batch of this.#batches(w, posts)) {
      await this.#queueDelivery({
        id: `msg_${randomUUID().replaceAll('-', '')}`,
        followerKind: 'webhook',
        followerId: w.id,
        createdAt: new Date().toISOString(),
        status: 'pending',
        attempts: 0,
        postIds: batch.posts.map((p) => p.id),
        payload: batch.body,
        contentType: 'application/json',
      });
    }
  }

  /** The webhook body: Standard Webhooks' `type`/`timestamp`/`data`, the posts oldest first, split to fit. */
  #batches(w: WatchRecord, posts: Post[]): Array<{ posts: Post[]; body: string }> {
    const bodyOf = (ps: Post[]) =>
      JSON.stringify({
        type: 'posts.new',
        timestamp: new Date().toISOString(),
        data: { watch: w.id, source: w.source, posts: ps },
      });
    const out: Array<{ posts: Post[]; body: string }> = [];
    let batch: Post[] = [];
    for (const p of posts) {
      const next = [...batch, p];
      if (batch.length > 0 && Buffer.byteLength(bodyOf(next)) > this.settings.maxBodyBytes) {
        out.push({ posts: batch, body: bodyOf(batch) });
        batch = [p];
      } else batch = next;
    }
    if (batch.length > 0) {
      const body = bodyOf(batch);
      // One post bigger than the cap on its own is sent without its bulkiest parts rather than not at all.
      if (Buffer.byteLength(body) > this.settings.maxBodyBytes)
        out.push({ posts: batch, body: bodyOf(batch.map((p) => ({ ...p, text: p.text.slice(0, 1000) }))) });
      else out.push({ posts: batch, body });
    }
    return out;
  }

  async #toSubscriber(s: HubSubscription, posts: Post[]): Promise<void> {
    if (posts.length === 0) return;
    const content = await this.renderTopic(s.topic);
    if (!content) return;
    await this.#queueDelivery({
      id: `msg_${randomUUID().replaceAll('-', '')}`,
      followerKind: 'websub',
      followerId: s.id,
      createdAt: new Date().toISOString(),
      status: 'pending',
      attempts: 0,
      postIds: posts.map((p) => p.id),
      payload: content.body.slice(0, this.settings.maxBodyBytes),
      contentType: content.contentType,
    });
  }

  async #queueDelivery(d: DeliveryRecord): Promise<void> {
    this.stats.deliveries += 1;
    await this.store.addDelivery(d);
    await this.queue.enqueueDelivery(d.id, 0, 0);
  }

  /** One attempt of a delivery; on failure the next is queued after the backoff, or the follower is given up. */
  async deliver(id: string): Promise<void> {
    const d = await this.store.getDelivery(id);
    if (!d || d.status !== 'pending') return;
    const target = await this.#endpoint(d);
    if (!target) {
      await this.store.updateDelivery({ ...d, status: 'failed', lastError: 'the follower is gone or disabled' });
      return;
    }
    this.stats.attempts += 1;
    const outcome = await pushTo(target.callback, d.payload, target.headers, this.settings.push);
    const attempts = d.attempts + 1;
    const done: DeliveryRecord = {
      ...d,
      attempts,
      lastAttemptAt: new Date().toISOString(),
      ...(outcome.status !== undefined ? { lastStatus: outcome.status } : {}),
      ...(outcome.error !== undefined ? { lastError: outcome.error } : {}),
    };
    if (outcome.ok) {
      await this.store.updateDelivery({ ...done, status: 'delivered' });
      return;
    }
    if (attempts < this.settings.attempts) {
      await this.store.updateDelivery(done);
      await this.queue.enqueueDelivery(d.id, attempts, this.settings.backoffMs * 2 ** (attempts - 1));
      return;
    }
    await this.store.updateDelivery({ ...done, status: 'failed' });
    const reason =
      `${attempts} consecutive failed attempts to deliver ${d.id} ` +
      `(last at ${done.lastAttemptAt}: ${outcome.error ?? 'no answer'})`;
    if (d.followerKind === 'webhook') {
      await this.store.disableWatch(d.followerId, reason);
      this.log.info({ watch: d.followerId, reason }, 'watch disabled');
    } else {
      await this.store.deleteSubscription(d.followerId);
      this.log.info({ subscription: d.followerId, reason }, 'hub subscription dropped');
    }
  }

  async #endpoint(d: DeliveryRecord): Promise<{ callback: string; headers: Record<string, string> } | undefined> {
    const now = new Date();
    if (d.followerKind === 'webhook') {
      const w = await this.store.getWatch(d.followerId);
      if (!w || w.state !== 'active') return undefined;
      return {
        callback: w.callback,
        headers: { 'content-type': d.contentType, ...signWebhook(w.secret, d.id, now, d.payload) },
      };
    }
    const s = await this.store.getSubscriptionById(d.followerId);
    if (!s || Date.parse(s.expiresAt) <= now.getTime()) return undefined;
    return {
      callback: s.callback,
      headers: {
        'content-type': d.contentType,
        link: `<${this.settings.hubUrl}>; rel="hub", <${s.topic}>; rel="self"`,
        ...(s.secret ? signWebSub(s.secret, d.payload) : {}),
      },
    };
  }
}
