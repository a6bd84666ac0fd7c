import type { Postgres } from '../postgres/pool.ts';
import { generateKey, hashKey, looksLikeKey, newKeyId, normalizeNewKey, sameHash } from './crypto.ts';
import type { IssuedKey, KeyRecord, KeyStore, NewKey, VerifyResult } from './types.ts';

interface Row {
  id: string;
  hash: string;
  name: string;
  account_quota: number;
  enabled: boolean;
  created_at: Date;
}

function toRecord(r: Row): KeyRecord {
  return {
    id: r.id,
    name: r.name,
    accountQuota: r.account_quota,
    enabled: r.enabled,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * Distributed key store in PostgreSQL (THREADMARK_DATABASE_URL): keys survive a Redis flush or failover. Every
 * statement is named, so each pooled connection prepares it once; `verify` is one primary-index lookup and reads
 * the database on every request, so a disable is seen at once by every instance.
 */
export class PostgresKeyStore implements KeyStore {
  readonly #pg: Postgres;
  readonly #table: string;
  /** Whether close() also ends the pool (the CLI's own store) or leaves it to its owner (createStores). */
  readonly #ownsPool: boolean;

  constructor(pg: Postgres, opts: { ownsPool?: boolean } = {}) {
    this.#pg = pg;
    this.#table = `${pg.schema}.api_keys`;
    this.#ownsPool = opts.ownsPool ?? false;
  }

  async create(input: NewKey): Promise<IssuedKey> {
    const { name, accountQuota } = normalizeNewKey(input);
    const key = generateKey();
    const id = newKeyId();
    await this.#pg.query({
      name: 'tm-keys-create',
      text: `INSERT INTO ${this.#table} (id, hash, name, account_quota, enabled, created_at) VALUES ($1, $2, $3, $4, true, $5)`,
      values: [id, hashKey(key), name, accountQuota, new Date().toISOString()],
    });
    return { id, key, name, accountQuota, enabled: true };
  }

  async list(): Promise<KeyRecord[]> {
    const rows = await this.#pg.query<Row>({
      name: 'tm-keys-list',
      text: `SELECT * FROM ${this.#table} ORDER BY created_at, id`,
    });
    return rows.map(toRecord);
  }

  async disable(id: string): Promise<KeyRecord | undefined> {
    return this.#setEnabled(id, false);
  }

  async enable(id: string): Promise<KeyRecord | undefined> {
    return this.#setEnabled(id, true);
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.#pg.query({
      name: 'tm-keys-delete',
      text: `DELETE FROM ${this.#table} WHERE id = $1 RETURNING id`,
      values: [id],
    });
    return rows.length > 0;
  }

  async verify(key: string): Promise<VerifyResult> {
    if (!looksLikeKey(key)) return { status: 'invalid' };
    const hash = hashKey(key);
    let row: Row | undefined;
    try {
      [row] = await this.#pg.query<Row>({
        name: 'tm-keys-verify',
        text: `SELECT * FROM ${this.#table} WHERE hash = $1`,
        values: [hash],
      });
    } catch {
      return { status: 'unverified' };
    }
    if (!row || !sameHash(row.hash, hash) || !row.enabled) return { status: 'invalid' };
    return { status: 'valid', record: toRecord(row) };
  }

  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pg.close();
  }

  async #setEnabled(id: string, enabled: boolean): Promise<KeyRecord | undefined> {
    const [row] = await this.#pg.query<Row>({
      name: 'tm-keys-set-enabled',
      text: `UPDATE ${this.#table} SET enabled = $2 WHERE id = $1 RETURNING *`,
      values: [id, enabled],
    });
    return row && toRecord(row);
  }
}
