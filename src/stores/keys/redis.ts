import { DEFAULT_REDIS_PREFIX, isReady, type RedisClient } from '../redis/connect.ts';
import { generateKey, hashKey, looksLikeKey, newKeyId, normalizeNewKey, sameHash } from './crypto.ts';
import type { IssuedKey, KeyRecord, KeyStore, NewKey, VerifyResult } from './types.ts';

// Atomic so a concurrent delete is never undone by re-creating a half hash.
const SET_ENABLED_LUA =
  "if redis.call('exists', KEYS[1]) == 0 then return nil end redis.call('hset', KEYS[1], 'enabled', ARGV[1]) return redis.call('hgetall', KEYS[1])";

/**
 * Distributed key store: one hash per key at `<prefix>k:<sha256>` and an id → sha256 index at
 * `<prefix>k:ids`. Every verification reads Redis, so a disable is seen at once by all instances. On a Redis
 * Cluster (`oneSlot`) the root is `<prefix>{k}:`, one hash tag for every record and the index, so a create or
 * delete stays one MULTI on one node.
 */
export class RedisKeyStore implements KeyStore {
  readonly #redis: RedisClient;
  readonly #root: string;

  constructor(redis: RedisClient, opts: { prefix?: string; oneSlot?: boolean } = {}) {
    this.#redis = redis;
    this.#root = `${opts.prefix ?? DEFAULT_REDIS_PREFIX}${opts.oneSlot ? '{k}' : 'k'}:`;
  }

  get #ids(): string {
    return `${this.#root}ids`;
  }

  async create(input: NewKey): Promise<IssuedKey> {
    const { name, accountQuota } = normalizeNewKey(input);
    const key = generateKey();
    const id = newKeyId();
    const hash = hashKey(key);
    await this.#redis
      .multi()
      .hset(this.#root + hash, {
        id,
        hash,
        name,
        accountQuota: String(accountQuota),
        enabled: '1',
        createdAt: new Date().toISOString(),
      })
      .hset(this.#ids, id, hash)
      .exec();
    return { id, key, name, accountQuota, enabled: true };
  }

  async list(): Promise<KeyRecord[]> {
    const hashes = Object.values(await this.#redis.hgetall(this.#ids));
    if (hashes.length === 0) return [];
    const pipe = this.#redis.pipeline();
    for (const h of hashes) pipe.hgetall(this.#root + h);
    const rows = (await pipe.exec()) ?? [];
    return rows
      .map(([err, fields]) => (err ? undefined : toRecord(fields as Record<string, string>)))
      .filter((r): r is KeyRecord => r !== undefined)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  async disable(id: string): Promise<KeyRecord | undefined> {
    return this.#setEnabled(id, false);
  }

  async enable(id: string): Promise<KeyRecord | undefined> {
    return this.#setEnabled(id, true);
  }

  async delete(id: string): Promise<boolean> {
    const hash = await this.#redis.hget(this.#ids, id);
    if (!hash) return false;
    await this.#redis
      .multi()
      .del(this.#root + hash)
      .hdel(this.#ids, id)
      .exec();
    return true;
  }

  async verify(key: string): Promise<VerifyResult> {
    if (!looksLikeKey(key)) return { status: 'invalid' };
    if (!isReady(this.#redis)) return { status: 'unverified' };
    const hash = hashKey(key);
    let fields: Record<string, string>;
    try {
      fields = await this.#redis.hgetall(this.#root + hash);
    } catch {
      return { status: 'unverified' };
    }
    const record = toRecord(fields);
    if (!record || !sameHash(fields.hash ?? '', hash) || !record.enabled) return { status: 'invalid' };
    return { status: 'valid', record };
  }

  /** The connection belongs to whoever created it. */
  async close(): Promise<void> {}

  async #setEnabled(id: string, enabled: boolean): Promise<KeyRecord | undefined> {
    const hash = await this.#redis.hget(this.#ids, id);
    if (!hash) return undefined;
    const flat = (await this.#redis.eval(SET_ENABLED_LUA, 1, this.#root + hash, enabled ? '1' : '0')) as
      string[] | null;
    if (!flat) return undefined;
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i] as string] = flat[i + 1] as string;
    return toRecord(fields);
  }
}

function toRecord(f: Record<string, string>): KeyRecord | undefined {
  if (!f.id || !f.name) return undefined;
  return {
    id: f.id,
    name: f.name,
    accountQuota: Number(f.accountQuota),
    enabled: f.enabled === '1',
    createdAt: f.createdAt ?? '',
  };
}
