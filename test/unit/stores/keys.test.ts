import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashKey, looksLikeKey, sameHash } from '../../../src/stores/keys/crypto.ts';
import { RedisKeyStore } from '../../../src/stores/keys/redis.ts';
import { SqliteKeyStore } from '../../../src/stores/keys/sqlite.ts';
import type { KeyStore } from '../../../src/stores/keys/types.ts';
import { DEFAULT_ACCOUNT_QUOTA } from '../../../src/stores/limits/policies.ts';
import { createRedisClient } from '../../../src/stores/redis/connect.ts';
import { DEAD_REDIS_URL, keysByPrefix, redisSkip, useTestRedis } from './redis-env.ts';
import { PostgresKeyStore } from '../../../src/stores/keys/postgres.ts';
import { openPostgres, type Postgres } from '../../../src/stores/postgres/pool.ts';
import { dropSchema, PG_URL, postgresSkip, uniqueSchema } from './postgres-env.ts';

test('keys are tm_ + base64url(32 bytes) and hashes compare in constant time', () => {
  const h = hashKey('tm_x');
  assert.match(h, /^[0-9a-f]{64}$/);
  assert.equal(sameHash(h, hashKey('tm_x')), true);
  assert.equal(sameHash(h, hashKey('tm_y')), false);
  assert.equal(sameHash(h, 'zz'), false);
  assert.equal(looksLikeKey(`tm_${Buffer.alloc(32, 7).toString('base64url')}`), true);
  assert.equal(looksLikeKey('tm_short'), false);
  assert.equal(looksLikeKey(`xx_${Buffer.alloc(32).toString('base64url')}`), false);
});

/** `second` opens another handle on the same data, as another process or instance would. */
function keyStoreContract(open: () => KeyStore, second: () => Promise<KeyStore>) {
  test('create returns the key once; list never shows it', async () => {
    const store = open();
    const issued = await store.create({ name: 'Alice', accountQuota: 50 });
    assert.match(issued.key, /^tm_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      { ...issued, key: undefined, id: undefined },
      { key: undefined, id: undefined, name: 'Alice', accountQuota: 50, enabled: true },
    );
    const listed = (await store.list()).find((r) => r.id === issued.id);
    assert.ok(listed);
    assert.deepEqual(Object.keys(listed).sort(), ['accountQuota', 'createdAt', 'enabled', 'id', 'name']);
    assert.ok(!Number.isNaN(Date.parse(listed.createdAt)));
    const other = await store.create({ name: 'Bob' });
    assert.equal(other.accountQuota, DEFAULT_ACCOUNT_QUOTA);
    assert.notEqual(other.key, issued.key);
    assert.notEqual(other.id, issued.id);
  });

  test('create → valid → disable → invalid → enable → valid → delete → invalid', async () => {
    const store = open();
    const { id, key } = await store.create({ name: 'cycle', accountQuota: 3 });
    const v = await store.verify(key);
    assert.equal(v.status, 'valid');
    assert.equal(v.status === 'valid' && v.record.accountQuota, 3);
    assert.equal((await store.disable(id))?.enabled, false);
    assert.deepEqual(await store.verify(key), { status: 'invalid' });
    assert.equal((await store.enable(id))?.enabled, true);
    assert.equal((await store.verify(key)).status, 'valid');
    assert.equal(await store.delete(id), true);
    assert.deepEqual(await store.verify(key), { status: 'invalid' });
    assert.equal(
      (await store.list()).some((r) => r.id === id),
      false,
    );
  });

  test('a disable through another handle is seen on the very next verify', async () => {
    const a = open();
    const b = await second();
    try {
      const { id, key } = await a.create({ name: 'shared' });
      assert.equal((await b.verify(key)).status, 'valid');
      await a.disable(id);
      assert.equal((await b.verify(key)).status, 'invalid');
      await a.enable(id);
      assert.equal((await b.verify(key)).status, 'valid');
      await a.delete(id);
      assert.equal((await b.verify(key)).status, 'invalid');
    } finally {
      await b.close();
    }
  });

  test('unknown ids and keys', async () => {
    const store = open();
    assert.equal(await store.disable('nope'), undefined);
    assert.equal(await store.enable('nope'), undefined);
    assert.equal(await store.delete('nope'), false);
    assert.deepEqual(await store.verify(`tm_${Buffer.alloc(32, 1).toString('base64url')}`), { status: 'invalid' });
    assert.deepEqual(await store.verify('garbage'), { status: 'invalid' });
  });

  test('rejects an empty name or a bad quota', async () => {
    const store = open();
    await assert.rejects(store.create({ name: '  ' }), RangeError);
    await assert.rejects(store.create({ name: 'q', accountQuota: 0 }), RangeError);
    await assert.rejects(store.create({ name: 'q', accountQuota: 1.5 }), RangeError);
  });
}

describe('SqliteKeyStore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-keys-'));
  const path = join(dir, 'nested', 'keys.db');
  let store: SqliteKeyStore;
  before(() => {
    store = new SqliteKeyStore(path);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  keyStoreContract(
    () => store,
    async () => new SqliteKeyStore(path),
  );

  test('creates the parent directory and stores only the hash', async () => {
    const { key } = await store.create({ name: 'secret-check' });
    const files = readdirSync(join(dir, 'nested'));
    assert.ok(files.includes('keys.db'));
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(dir, 'nested', f))));
    assert.equal(bytes.includes(Buffer.from(key)), false, 'plaintext key not in the database files');
    assert.equal(bytes.includes(Buffer.from(key.slice(3))), false);
    assert.equal(bytes.includes(Buffer.from(hashKey(key))), true, 'the hash is what is stored');
  });

  test('a closed store answers unverified', async () => {
    const p = join(dir, 'closed.db');
    const s = new SqliteKeyStore(p);
    const { key } = await s.create({ name: 'x' });
    await s.close();
    assert.deepEqual(await s.verify(key), { status: 'unverified' });
  });
});

describe('RedisKeyStore (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();

  keyStoreContract(
    () => new RedisKeyStore(t.redis, { prefix: t.prefix }),
    async () => {
      // A separate connection stands for another instance.
      return new RedisKeyStore(await t.open(), { prefix: t.prefix });
    },
  );

  test('stores only the hash: no value or key name holds the plaintext', async () => {
    const store = new RedisKeyStore(t.redis, { prefix: t.prefix });
    const { key } = await store.create({ name: 'secret-check' });
    const names = await keysByPrefix(t.redis, t.prefix);
    assert.ok(names.includes(`${t.prefix}k:${hashKey(key)}`));
    for (const name of names) {
      assert.equal(name.includes(key.slice(3)), false);
      const type = await t.redis.type(name);
      const values =
        type === 'hash'
          ? Object.values(await t.redis.hgetall(name))
          : type === 'string'
            ? [await t.redis.get(name)]
            : [];
      for (const v of values) assert.equal(String(v).includes(key.slice(3)), false, `${name} holds the key`);
    }
  });
});

describe('PostgresKeyStore (real PostgreSQL)', { skip: postgresSkip }, () => {
  const schema = uniqueSchema();
  let pg: Postgres;
  const pools: Postgres[] = [];
  before(async () => {
    // Two pools migrating at once: the advisory lock lets one run the migrations, the other finds them done.
    [pg] = await Promise.all([openPostgres(PG_URL, schema), openPostgres(PG_URL, schema).then((p) => pools.push(p))]);
    pools.push(pg);
  });
  after(async () => {
    for (const p of pools) await p.close();
    await dropSchema(schema);
  });

  keyStoreContract(
    () => new PostgresKeyStore(pg),
    async () => {
      // A pool of its own stands for another instance.
      const other = await openPostgres(PG_URL, schema);
      return new PostgresKeyStore(other, { ownsPool: true });
    },
  );

  test('stores only the hash, and a database that stops answering makes verify unverified', async () => {
    const own = await openPostgres(PG_URL, schema);
    const store = new PostgresKeyStore(own, { ownsPool: true });
    const { key } = await store.create({ name: 'secret-check' });
    const [row] = await pg.query<{ hash: string; name: string }>({
      text: `SELECT * FROM "${schema}".api_keys WHERE name = 'secret-check'`,
    });
    assert.equal(row?.hash, hashKey(key));
    assert.equal(JSON.stringify(row).includes(key.slice(3)), false);
    await store.close();
    assert.deepEqual(await store.verify(key), { status: 'unverified' });
  });

  test('an unreachable database is an error at open, naming the variable', async () => {
    await assert.rejects(openPostgres('postgres://postgres@127.0.0.1:1/test', schema), /THREADMARK_DATABASE_URL/);
  });
});

test('RedisKeyStore with Redis unreachable answers unverified', async () => {
  const dead = createRedisClient(DEAD_REDIS_URL);
  dead.connect().catch(() => {});
  try {
    const store = new RedisKeyStore(dead);
    assert.deepEqual(await store.verify(`tm_${Buffer.alloc(32, 2).toString('base64url')}`), { status: 'unverified' });
    // A string that cannot be a key is invalid whatever the store's state.
    assert.deepEqual(await store.verify('not-a-key'), { status: 'invalid' });
    await assert.rejects(store.create({ name: 'x' }));
  } finally {
    dead.disconnect();
  }
});
