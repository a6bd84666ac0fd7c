import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { generateKey, hashKey, looksLikeKey, newKeyId, normalizeNewKey, sameHash } from './crypto.ts';
import type { IssuedKey, KeyRecord, KeyStore, NewKey, VerifyResult } from './types.ts';
import { openKeysDb, type OpenOptions, type SqlDatabase } from './sqlite-open.ts';

export const DEFAULT_KEYS_DB = './data/keys.db';

interface Row {
  id: string;
  hash: string;
  name: string;
  account_quota: number;
  enabled: number;
  created_at: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  account_quota INTEGER NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL
)`;

function toRecord(r: Row): KeyRecord {
  return { id: r.id, name: r.name, accountQuota: r.account_quota, enabled: r.enabled === 1, createdAt: r.created_at };
}

/** Embedded key store. WAL lets the CLI change keys while the server reads them. */
export class SqliteKeyStore implements KeyStore {
  readonly #db: SqlDatabase;
  #open = true;

  constructor(path: string = DEFAULT_KEYS_DB, opts: OpenOptions = {}) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = openKeysDb(path, opts);
    this.#db.exec(SCHEMA);
  }

  async create(input: NewKey): Promise<IssuedKey> {
    const { name, accountQuota } = normalizeNewKey(input);
    const key = generateKey();
    const id = newKeyId();
    this.#db
      .prepare('INSERT INTO api_keys (id, hash, name, account_quota, enabled, created_at) VALUES (?, ?, ?, ?, 1, ?)')
      .run(id, hashKey(key), name, accountQuota, new Date().toISOString());
    return { id, key, name, accountQuota, enabled: true };
  }

  async list(): Promise<KeyRecord[]> {
    return (this.#db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as Row[]).map(toRecord);
  }

  async disable(id: string): Promise<KeyRecord | undefined> {
    return this.#setEnabled(id, false);
  }

  async enable(id: string): Promise<KeyRecord | undefined> {
    return this.#setEnabled(id, true);
  }

  async delete(id: string): Promise<boolean> {
    return this.#db.prepare('DELETE FROM api_keys WHERE id = ?').run(id).changes > 0;
  }

  async verify(key: string): Promise<VerifyResult> {
    if (!looksLikeKey(key)) return { status: 'invalid' };
    const hash = hashKey(key);
    let row: Row | undefined;
    try {
      row = this.#db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(hash) as Row | undefined;
    } catch {
      return { status: 'unverified' };
    }
    if (!row || !sameHash(row.hash, hash) || row.enabled !== 1) return { status: 'invalid' };
    return { status: 'valid', record: toRecord(row) };
  }

  async close(): Promise<void> {
    if (!this.#open) return;
    this.#open = false;
    this.#db.close();
  }

  #setEnabled(id: string, enabled: boolean): KeyRecord | undefined {
    const row = this.#db
      .prepare('UPDATE api_keys SET enabled = ? WHERE id = ? RETURNING *')
      .get(enabled ? 1 : 0, id) as Row | undefined;
    return row && toRecord(row);
  }
}
