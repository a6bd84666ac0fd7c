// Watch store on PostgreSQL (the distributed mode's durable store when THREADMARK_DATABASE_URL is set): the same
// tables as the SQLite store, each record a JSON document beside the columns it is looked up by. Takes a pg.Pool
// shared with the rest of the durable state, whose search path names the schema; the tables come with the durable
// store's migrations (`watchTables`).
import type { Pool } from 'pg';
import {
  KEPT_DELIVERIES,
  type DeliveryRecord,
  type Followers,
  type HubSubscription,
  type SourceEntry,
  type WatchRecord,
  type WatchStore,
} from './types.ts';

/** The tables, in the schema named `s` (quoted): a migration of the durable store, and the test's own set-up. */
export function watchTables(s: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${s}.tm_watches (
      id TEXT PRIMARY KEY, key_id TEXT NOT NULL, source_key TEXT NOT NULL, state TEXT NOT NULL,
      created_at TEXT NOT NULL, doc JSONB NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS tm_watches_key ON ${s}.tm_watches (key_id)`,
    `CREATE INDEX IF NOT EXISTS tm_watches_source ON ${s}.tm_watches (source_key)`,
    `CREATE TABLE IF NOT EXISTS ${s}.tm_hub_subscriptions (
      id TEXT PRIMARY KEY, topic TEXT NOT NULL, callback TEXT NOT NULL, source_key TEXT NOT NULL,
      expires_at BIGINT NOT NULL, doc JSONB NOT NULL, UNIQUE (topic, callback))`,
    `CREATE INDEX IF NOT EXISTS tm_subs_source ON ${s}.tm_hub_subscriptions (source_key)`,
    `CREATE TABLE IF NOT EXISTS ${s}.tm_source_marks (source_key TEXT PRIMARY KEY, newest_id TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${s}.tm_deliveries (
      id TEXT PRIMARY KEY, follower_id TEXT NOT NULL, status TEXT NOT NULL, seq BIGSERIAL, doc JSONB NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS tm_deliveries_follower ON ${s}.tm_deliveries (follower_id, seq)`,
  ];
}

type DocRow<T> = { doc: T };
const docs = <T>(rows: Array<DocRow<T>>): T[] => rows.map((r) => r.doc);

/** For a pool of its own (the contract test): creates the tables in the search path's first schema. */
export async function openPgWatchStore(pool: Pool): Promise<PgWatchStore> {
  const { rows } = await pool.query<{ schema: string }>('SELECT current_schema() AS schema');
  for (const statement of watchTables(`"${rows[0]!.schema}"`)) await pool.query(statement);
  return new PgWatchStore(pool);
}

export class PgWatchStore implements WatchStore {
  constructor(private readonly pool: Pool) {}

  async #docs<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return docs((await this.pool.query<DocRow<T>>(sql, params)).rows);
  }

  async addWatch(w: WatchRecord): Promise<void> {
    await this.pool.query(
      'INSERT INTO tm_watches (id, key_id, source_key, state, created_at, doc) VALUES ($1, $2, $3, $4, $5, $6)',
      [w.id, w.keyId, w.sourceKey, w.state, w.createdAt, JSON.stringify(w)],
    );
  }

  async getWatch(id: string): Promise<WatchRecord | undefined> {
    return (await this.#docs<WatchRecord>('SELECT doc FROM tm_watches WHERE id = $1', [id]))[0];
  }

  listWatches(keyId: string): Promise<WatchRecord[]> {
    return this.#docs('SELECT doc FROM tm_watches WHERE key_id = $1 ORDER BY created_at, id', [keyId]);
  }

  async deleteWatch(id: string): Promise<boolean> {
    await this.pool.query('DELETE FROM tm_deliveries WHERE follower_id = $1', [id]);
    return ((await this.pool.query('DELETE FROM tm_watches WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async disableWatch(id: string, reason: string): Promise<void> {
    await this.pool.query(
      "UPDATE tm_watches SET state = 'disabled', doc = doc || jsonb_build_object('state', 'disabled', 'disabledReason', $2::text) WHERE id = $1",
      [id, reason],
    );
  }

  async putSubscription(s: HubSubscription): Promise<void> {
    await this.pool.query(
      'INSERT INTO tm_hub_subscriptions (id, topic, callback, source_key, expires_at, doc) VALUES ($1, $2, $3, $4, $5, $6) ' +
        'ON CONFLICT (topic, callback) DO UPDATE SET id = excluded.id, source_key = excluded.source_key, ' +
        'expires_at = excluded.expires_at, doc = excluded.doc',
      [s.id, s.topic, s.callback, s.sourceKey, Date.parse(s.expiresAt), JSON.stringify(s)],
    );
  }

  async getSubscription(topic: string, callback: string): Promise<HubSubscription | undefined> {
    return (
      await this.#docs<HubSubscription>('SELECT doc FROM tm_hub_subscriptions WHERE topic = $1 AND callback = $2', [
        topic,
        callback,
      ])
    )[0];
  }

  async getSubscriptionById(id: string): Promise<HubSubscription | undefined> {
    return (await this.#docs<HubSubscription>('SELECT doc FROM tm_hub_subscriptions WHERE id = $1', [id]))[0];
  }

  async deleteSubscription(id: string): Promise<boolean> {
    await this.pool.query('DELETE FROM tm_deliveries WHERE follower_id = $1', [id]);
    return ((await this.pool.query('DELETE FROM tm_hub_subscriptions WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async countSubscriptions(subscriber: string, now: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      "SELECT COUNT(*) AS n FROM tm_hub_subscriptions WHERE doc->>'subscriber' = $1 AND expires_at > $2",
      [subscriber, now],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async purgeExpired(now: number): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>(
      'SELECT id FROM tm_hub_subscriptions WHERE expires_at <= $1',
      [now],
    );
    for (const { id } of rows) await this.deleteSubscription(id);
    return rows.length;
  }

  async followers(sourceKey: string, now: number): Promise<Followers> {
    const [watches, subscriptions] = await Promise.all([
      this.#docs<WatchRecord>(
        "SELECT doc FROM tm_watches WHERE source_key = $1 AND state = 'active' ORDER BY created_at, id",
        [sourceKey],
      ),
      this.#docs<HubSubscription>(
        'SELECT doc FROM tm_hub_subscriptions WHERE source_key = $1 AND expires_at > $2 ORDER BY id',
        [sourceKey, now],
      ),
    ]);
    return { watches, subscriptions };
  }

  async sources(now: number): Promise<SourceEntry[]> {
    const rows = await this.pool.query<{ source_key: string; target: SourceEntry['target'] }>(
      "SELECT DISTINCT ON (source_key) source_key, doc->'target' AS target FROM (" +
        "SELECT source_key, doc FROM tm_watches WHERE state = 'active' UNION ALL " +
        'SELECT source_key, doc FROM tm_hub_subscriptions WHERE expires_at > $1) AS f ORDER BY source_key',
      [now],
    );
    return rows.rows.map((r) => ({ sourceKey: r.source_key, target: r.target }));
  }

  async getMark(sourceKey: string): Promise<string | undefined> {
    const r = await this.pool.query<{ newest_id: string }>(
      'SELECT newest_id FROM tm_source_marks WHERE source_key = $1',
      [sourceKey],
    );
    return r.rows[0]?.newest_id;
  }

  async advanceMark(sourceKey: string, from: string | undefined, to: string): Promise<boolean> {
    const moved =
      from === undefined
        ? await this.pool.query(
            'INSERT INTO tm_source_marks (source_key, newest_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
            [sourceKey, to],
          )
        : await this.pool.query('UPDATE tm_source_marks SET newest_id = $3 WHERE source_key = $1 AND newest_id = $2', [
            sourceKey,
            from,
            to,
          ]);
    return moved.rowCount === 1;
  }

  async addDelivery(d: DeliveryRecord): Promise<void> {
    await this.pool.query('INSERT INTO tm_deliveries (id, follower_id, status, doc) VALUES ($1, $2, $3, $4)', [
      d.id,
      d.followerId,
      d.status,
      JSON.stringify(d),
    ]);
    // Only the latest are kept for the watch's page; a pending delivery is never dropped.
    await this.pool.query(
      "DELETE FROM tm_deliveries WHERE follower_id = $1 AND status <> 'pending' AND id NOT IN " +
        '(SELECT id FROM tm_deliveries WHERE follower_id = $1 ORDER BY seq DESC LIMIT $2)',
      [d.followerId, KEPT_DELIVERIES],
    );
  }

  async getDelivery(id: string): Promise<DeliveryRecord | undefined> {
    return (await this.#docs<DeliveryRecord>('SELECT doc FROM tm_deliveries WHERE id = $1', [id]))[0];
  }

  async updateDelivery(d: DeliveryRecord): Promise<void> {
    await this.pool.query('UPDATE tm_deliveries SET status = $2, doc = $3 WHERE id = $1', [
      d.id,
      d.status,
      JSON.stringify(d),
    ]);
  }

  recentDeliveries(followerId: string, limit: number): Promise<DeliveryRecord[]> {
    return this.#docs('SELECT doc FROM tm_deliveries WHERE follower_id = $1 ORDER BY seq DESC LIMIT $2', [
      followerId,
      limit,
    ]);
  }

  pendingDeliveries(): Promise<DeliveryRecord[]> {
    return this.#docs("SELECT doc FROM tm_deliveries WHERE status = 'pending' ORDER BY seq");
  }

  /** The pool belongs to whoever made it (shared with the rest of the durable state). */
  async close(): Promise<void> {}
}
