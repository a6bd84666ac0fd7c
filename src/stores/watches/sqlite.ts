// Embedded watch store: a SQLite file beside the key store, opened the same way (stores/keys/sqlite-open.ts).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { openKeysDb, type SqlDatabase } from '../keys/sqlite-open.ts';
import {
  KEPT_DELIVERIES,
  type DeliveryRecord,
  type Followers,
  type HubSubscription,
  type SourceEntry,
  type WatchRecord,
  type WatchStore,
} from './types.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS watches (
  id TEXT PRIMARY KEY, key_id TEXT NOT NULL, source_key TEXT NOT NULL, state TEXT NOT NULL,
  created_at TEXT NOT NULL, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS watches_key ON watches (key_id);
CREATE INDEX IF NOT EXISTS watches_source ON watches (source_key);
CREATE TABLE IF NOT EXISTS hub_subscriptions (
  id TEXT PRIMARY KEY, topic TEXT NOT NULL, callback TEXT NOT NULL, source_key TEXT NOT NULL,
  expires_at INTEGER NOT NULL, doc TEXT NOT NULL, UNIQUE (topic, callback));
CREATE INDEX IF NOT EXISTS subs_source ON hub_subscriptions (source_key);
CREATE TABLE IF NOT EXISTS source_marks (source_key TEXT PRIMARY KEY, newest_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY, follower_id TEXT NOT NULL, status TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS deliveries_follower ON deliveries (follower_id, seq);
`;

const docs = <T>(rows: unknown[]): T[] => rows.map((r) => JSON.parse((r as { doc: string }).doc) as T);

/** The watches database beside THREADMARK_KEYS_DB (in memory when the keys are). */
export function watchesDbPath(keysDb: string): string {
  return keysDb === ':memory:' ? ':memory:' : `${dirname(keysDb)}/watches.db`;
}

export class SqliteWatchStore implements WatchStore {
  readonly #db: SqlDatabase;
  #open = true;
  #seq = 0;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = openKeysDb(path);
    this.#db.exec(SCHEMA);
    const row = this.#db.prepare('SELECT MAX(seq) AS s FROM deliveries').get() as { s: number | null } | undefined;
    this.#seq = row?.s ?? 0;
  }

  async addWatch(w: WatchRecord): Promise<void> {
    this.#db
      .prepare('INSERT INTO watches (id, key_id, source_key, state, created_at, doc) VALUES (?, ?, ?, ?, ?, ?)')
      .run(w.id, w.keyId, w.sourceKey, w.state, w.createdAt, JSON.stringify(w));
  }

  async getWatch(id: string): Promise<WatchRecord | undefined> {
    return docs<WatchRecord>(this.#db.prepare('SELECT doc FROM watches WHERE id = ?').all(id))[0];
  }

  async listWatches(keyId: string): Promise<WatchRecord[]> {
    return docs(this.#db.prepare('SELECT doc FROM watches WHERE key_id = ? ORDER BY created_at, id').all(keyId));
  }

  async deleteWatch(id: string): Promise<boolean> {
    this.#db.prepare('DELETE FROM deliveries WHERE follower_id = ?').run(id);
    return Number(this.#db.prepare('DELETE FROM watches WHERE id = ?').run(id).changes) > 0;
  }

  async disableWatch(id: string, reason: string): Promise<void> {
    const w = await this.getWatch(id);
    if (!w) return;
    const next: WatchRecord = { ...w, state: 'disabled', disabledReason: reason };
    this.#db.prepare('UPDATE watches SET state = ?, doc = ? WHERE id = ?').run('disabled', JSON.stringify(next), id);
  }

  async putSubscription(s: HubSubscription): Promise<void> {
    this.#db
      .prepare(
        'INSERT INTO hub_subscriptions (id, topic, callback, source_key, expires_at, doc) VALUES (?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT (topic, callback) DO UPDATE SET id = excluded.id, source_key = excluded.source_key, ' +
          'expires_at = excluded.expires_at, doc = excluded.doc',
      )
      .run(s.id, s.topic, s.callback, s.sourceKey, Date.parse(s.expiresAt), JSON.stringify(s));
  }

  async getSubscription(topic: string, callback: string): Promise<HubSubscription | undefined> {
    return docs<HubSubscription>(
      this.#db.prepare('SELECT doc FROM hub_subscriptions WHERE topic = ? AND callback = ?').all(topic, callback),
    )[0];
  }

  async getSubscriptionById(id: string): Promise<HubSubscription | undefined> {
    return docs<HubSubscription>(this.#db.prepare('SELECT doc FROM hub_subscriptions WHERE id = ?').all(id))[0];
  }

  async deleteSubscription(id: string): Promise<boolean> {
    this.#db.prepare('DELETE FROM deliveries WHERE follower_id = ?').run(id);
    return Number(this.#db.prepare('DELETE FROM hub_subscriptions WHERE id = ?').run(id).changes) > 0;
  }

  async countSubscriptions(subscriber: string, now: number): Promise<number> {
    const row = this.#db
      .prepare(
        "SELECT COUNT(*) AS n FROM hub_subscriptions WHERE json_extract(doc, '$.subscriber') = ? AND expires_at > ?",
      )
      .get(subscriber, now) as { n: number } | undefined;
    return Number(row?.n ?? 0);
  }

  async purgeExpired(now: number): Promise<number> {
    const ids = this.#db.prepare('SELECT id FROM hub_subscriptions WHERE expires_at <= ?').all(now) as Array<{
      id: string;
    }>;
    for (const { id } of ids) await this.deleteSubscription(id);
    return ids.length;
  }

  async followers(sourceKey: string, now: number): Promise<Followers> {
    return {
      watches: docs(
        this.#db
          .prepare("SELECT doc FROM watches WHERE source_key = ? AND state = 'active' ORDER BY created_at, id")
          .all(sourceKey),
      ),
      subscriptions: docs(
        this.#db
          .prepare('SELECT doc FROM hub_subscriptions WHERE source_key = ? AND expires_at > ? ORDER BY id')
          .all(sourceKey, now),
      ),
    };
  }

  async sources(now: number): Promise<SourceEntry[]> {
    const rows = [
      ...docs<WatchRecord>(this.#db.prepare("SELECT doc FROM watches WHERE state = 'active'").all()),
      ...docs<HubSubscription>(this.#db.prepare('SELECT doc FROM hub_subscriptions WHERE expires_at > ?').all(now)),
    ];
    const out = new Map<string, SourceEntry>();
    for (const r of rows) if (!out.has(r.sourceKey)) out.set(r.sourceKey, { sourceKey: r.sourceKey, target: r.target });
    return [...out.values()];
  }

  async getMark(sourceKey: string): Promise<string | undefined> {
    const row = this.#db.prepare('SELECT newest_id FROM source_marks WHERE source_key = ?').get(sourceKey) as
      { newest_id: string } | undefined;
    return row?.newest_id;
  }

  async advanceMark(sourceKey: string, from: string | undefined, to: string): Promise<boolean> {
    const moved =
      from === undefined
        ? this.#db
            .prepare('INSERT INTO source_marks (source_key, newest_id) VALUES (?, ?) ON CONFLICT DO NOTHING')
            .run(sourceKey, to)
        : this.#db
            .prepare('UPDATE source_marks SET newest_id = ? WHERE source_key = ? AND newest_id = ?')
            .run(to, sourceKey, from);
    return Number(moved.changes) === 1;
  }

  async addDelivery(d: DeliveryRecord): Promise<void> {
    this.#seq += 1;
    this.#db
      .prepare('INSERT INTO deliveries (id, follower_id, status, seq, doc) VALUES (?, ?, ?, ?, ?)')
      .run(d.id, d.followerId, d.status, this.#seq, JSON.stringify(d));
    // Only the latest are kept for the watch's page; a pending delivery is never dropped.
    this.#db
      .prepare(
        "DELETE FROM deliveries WHERE follower_id = ? AND status != 'pending' AND id NOT IN " +
          '(SELECT id FROM deliveries WHERE follower_id = ? ORDER BY seq DESC LIMIT ?)',
      )
      .run(d.followerId, d.followerId, KEPT_DELIVERIES);
  }

  async getDelivery(id: string): Promise<DeliveryRecord | undefined> {
    return docs<DeliveryRecord>(this.#db.prepare('SELECT doc FROM deliveries WHERE id = ?').all(id))[0];
  }

  async updateDelivery(d: DeliveryRecord): Promise<void> {
    this.#db.prepare('UPDATE deliveries SET status = ?, doc = ? WHERE id = ?').run(d.status, JSON.stringify(d), d.id);
  }

  async recentDeliveries(followerId: string, limit: number): Promise<DeliveryRecord[]> {
    return docs(
      this.#db
        .prepare('SELECT doc FROM deliveries WHERE follower_id = ? ORDER BY seq DESC LIMIT ?')
        .all(followerId, limit),
    );
  }

  async pendingDeliveries(): Promise<DeliveryRecord[]> {
    return docs(this.#db.prepare("SELECT doc FROM deliveries WHERE status = 'pending' ORDER BY seq").all());
  }

  async close(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    this.#db.close();
  }
}
