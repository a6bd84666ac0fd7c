// Distributed watch store (THREADMARK_REDIS_URL without a database): JSON documents in hashes under `<prefix>w:`,
// shared by every instance. Watches by id and per key, subscriptions by id with a (topic, callback) index, the
// followers of each source, the marks, and each follower's deliveries newest first.
import { DEFAULT_REDIS_PREFIX, type RedisClient } from '../redis/connect.ts';
import {
  KEPT_DELIVERIES,
  type DeliveryRecord,
  type Followers,
  type HubSubscription,
  type SourceEntry,
  type WatchRecord,
  type WatchStore,
} from './types.ts';

/** Sets the field to ARGV[3] only if it holds ARGV[2] (an empty ARGV[2]: only if it is absent). */
const ADVANCE_MARK_LUA = `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if (cur == false and ARGV[2] == '') or cur == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0`;

const parse = <T>(s: string | null | undefined): T | undefined => (s ? (JSON.parse(s) as T) : undefined);
const parsed = <T>(list: Array<string | null>): T[] => list.flatMap((s) => (s ? [JSON.parse(s) as T] : []));

export class RedisWatchStore implements WatchStore {
  readonly #redis: RedisClient;
  readonly #root: string;

  constructor(redis: RedisClient, opts: { prefix?: string } = {}) {
    this.#redis = redis;
    // One hash tag for every key of the store: its transactions span several keys, which a Redis Cluster
    // accepts only within one slot.
    this.#root = `${opts.prefix ?? DEFAULT_REDIS_PREFIX}{w}:`;
  }

  #k(name: string): string {
    return this.#root + name;
  }

  async addWatch(w: WatchRecord): Promise<void> {
    await this.#redis
      .multi()
      .hset(this.#k('watches'), w.id, JSON.stringify(w))
      .rpush(this.#k(`key:${w.keyId}`), w.id)
      .sadd(this.#k(`src:${w.sourceKey}`), `w:${w.id}`)
      .exec();
  }

  async getWatch(id: string): Promise<WatchRecord | undefined> {
    return parse(await this.#redis.hget(this.#k('watches'), id));
  }

  async listWatches(keyId: string): Promise<WatchRecord[]> {
    const ids = await this.#redis.lrange(this.#k(`key:${keyId}`), 0, -1);
    if (ids.length === 0) return [];
    return parsed(await this.#redis.hmget(this.#k('watches'), ...ids));
  }

  async deleteWatch(id: string): Promise<boolean> {
    const w = await this.getWatch(id);
    if (!w) return false;
    const removed = await this.#redis.hdel(this.#k('watches'), id);
    await this.#redis
      .multi()
      .lrem(this.#k(`key:${w.keyId}`), 0, id)
      .srem(this.#k(`src:${w.sourceKey}`), `w:${id}`)
      .exec();
    await this.#dropDeliveries(id);
    return removed > 0;
  }

  async disableWatch(id: string, reason: string): Promise<void> {
    const w = await this.getWatch(id);
    if (!w) return;
    await this.#redis.hset(
      this.#k('watches'),
      id,
      JSON.stringify({ ...w, state: 'disabled', disabledReason: reason } satisfies WatchRecord),
    );
  }

  async putSubscription(s: HubSubscription): Promise<void> {
    const index = `${s.topic}\n${s.callback}`;
    const previous = await this.#redis.hget(this.#k('subidx'), index);
    const m = this.#redis.multi();
    if (previous && previous !== s.id) m.hdel(this.#k('subs'), previous);
    await m
      .hset(this.#k('subs'), s.id, JSON.stringify(s))
      .hset(this.#k('subidx'), index, s.id)
      .sadd(this.#k(`src:${s.sourceKey}`), `s:${s.id}`)
      .exec();
  }

  async getSubscription(topic: string, callback: string): Promise<HubSubscription | undefined> {
    const id = await this.#redis.hget(this.#k('subidx'), `${topic}\n${callback}`);
    return id ? this.getSubscriptionById(id) : undefined;
  }

  async getSubscriptionById(id: string): Promise<HubSubscription | undefined> {
    return parse(await this.#redis.hget(this.#k('subs'), id));
  }

  async deleteSubscription(id: string): Promise<boolean> {
    const s = await this.getSubscriptionById(id);
    if (!s) return false;
    const removed = await this.#redis.hdel(this.#k('subs'), id);
    await this.#redis
      .multi()
      .hdel(this.#k('subidx'), `${s.topic}\n${s.callback}`)
      .srem(this.#k(`src:${s.sourceKey}`), `s:${id}`)
      .exec();
    await this.#dropDeliveries(id);
    return removed > 0;
  }

  async countSubscriptions(subscriber: string, now: number): Promise<number> {
    const all = parsed<HubSubscription>(await this.#redis.hvals(this.#k('subs')));
    return all.filter((s) => s.subscriber === subscriber && Date.parse(s.expiresAt) > now).length;
  }

  async purgeExpired(now: number): Promise<number> {
    const expired = parsed<HubSubscription>(await this.#redis.hvals(this.#k('subs'))).filter(
      (s) => Date.parse(s.expiresAt) <= now,
    );
    for (const s of expired) await this.deleteSubscription(s.id);
    return expired.length;
  }

  async followers(sourceKey: string, now: number): Promise<Followers> {
    const members = await this.#redis.smembers(this.#k(`src:${sourceKey}`));
    const wIds = members.filter((m) => m.startsWith('w:')).map((m) => m.slice(2));
    const sIds = members.filter((m) => m.startsWith('s:')).map((m) => m.slice(2));
    const watches = wIds.length ? parsed<WatchRecord>(await this.#redis.hmget(this.#k('watches'), ...wIds)) : [];
    const subs = sIds.length ? parsed<HubSubscription>(await this.#redis.hmget(this.#k('subs'), ...sIds)) : [];
    return {
      watches: watches
        .filter((w) => w.state === 'active' && w.sourceKey === sourceKey)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)),
      subscriptions: subs
        .filter((s) => Date.parse(s.expiresAt) > now && s.sourceKey === sourceKey)
        .sort((a, b) => a.id.localeCompare(b.id)),
    };
  }

  async sources(now: number): Promise<SourceEntry[]> {
    const [watches, subs] = await Promise.all([
      this.#redis.hvals(this.#k('watches')),
      this.#redis.hvals(this.#k('subs')),
    ]);
    const out = new Map<string, SourceEntry>();
    for (const w of parsed<WatchRecord>(watches))
      if (w.state === 'active' && !out.has(w.sourceKey))
        out.set(w.sourceKey, { sourceKey: w.sourceKey, target: w.target });
    for (const s of parsed<HubSubscription>(subs))
      if (Date.parse(s.expiresAt) > now && !out.has(s.sourceKey))
        out.set(s.sourceKey, { sourceKey: s.sourceKey, target: s.target });
    return [...out.values()];
  }

  async getMark(sourceKey: string): Promise<string | undefined> {
    return (await this.#redis.hget(this.#k('marks'), sourceKey)) ?? undefined;
  }

  async advanceMark(sourceKey: string, from: string | undefined, to: string): Promise<boolean> {
    const moved = await this.#redis.eval(ADVANCE_MARK_LUA, 1, this.#k('marks'), sourceKey, from ?? '', to);
    return moved === 1;
  }

  async addDelivery(d: DeliveryRecord): Promise<void> {
    const list = this.#k(`dl:${d.followerId}`);
    const m = this.#redis.multi().hset(this.#k('deliveries'), d.id, JSON.stringify(d)).lpush(list, d.id);
    if (d.status === 'pending') m.sadd(this.#k('pending'), d.id);
    await m.exec();
    // Only the latest are kept for the watch's page; a pending delivery is never dropped.
    const old = await this.#redis.lrange(list, KEPT_DELIVERIES, -1);
    if (old.length === 0) return;
    const pending = new Set(await this.#redis.smembers(this.#k('pending')));
    const drop = old.filter((id) => !pending.has(id));
    if (drop.length === 0) return;
    const t = this.#redis.multi().hdel(this.#k('deliveries'), ...drop);
    for (const id of drop) t.lrem(list, 0, id);
    await t.exec();
  }

  async getDelivery(id: string): Promise<DeliveryRecord | undefined> {
    return parse(await this.#redis.hget(this.#k('deliveries'), id));
  }

  async updateDelivery(d: DeliveryRecord): Promise<void> {
    if (!(await this.#redis.hexists(this.#k('deliveries'), d.id))) return;
    const m = this.#redis.multi().hset(this.#k('deliveries'), d.id, JSON.stringify(d));
    if (d.status === 'pending') m.sadd(this.#k('pending'), d.id);
    else m.srem(this.#k('pending'), d.id);
    await m.exec();
  }

  async recentDeliveries(followerId: string, limit: number): Promise<DeliveryRecord[]> {
    const ids = await this.#redis.lrange(this.#k(`dl:${followerId}`), 0, limit - 1);
    if (ids.length === 0) return [];
    return parsed(await this.#redis.hmget(this.#k('deliveries'), ...ids));
  }

  async pendingDeliveries(): Promise<DeliveryRecord[]> {
    const ids = await this.#redis.smembers(this.#k('pending'));
    if (ids.length === 0) return [];
    const all = parsed<DeliveryRecord>(await this.#redis.hmget(this.#k('deliveries'), ...ids));
    return all.filter((d) => d.status === 'pending').sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async close(): Promise<void> {}

  async #dropDeliveries(followerId: string): Promise<void> {
    const list = this.#k(`dl:${followerId}`);
    const ids = await this.#redis.lrange(list, 0, -1);
    const m = this.#redis.multi().del(list);
    if (ids.length) m.hdel(this.#k('deliveries'), ...ids).srem(this.#k('pending'), ...ids);
    await m.exec();
  }
}
