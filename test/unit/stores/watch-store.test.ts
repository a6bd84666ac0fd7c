// The watch store contract over SQLite (a file, reopened: state survives a restart) and Redis.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Redis } from 'ioredis';
import { SqliteWatchStore } from '../../../src/stores/watches/sqlite.ts';
import { RedisWatchStore } from '../../../src/stores/watches/redis.ts';
import { watchOf, watchStoreContract } from './watch-store.contract.ts';
import { deleteByPrefix, openTestRedis, redisSkip, uniquePrefix } from './redis-env.ts';
import pg from 'pg';
import { openPgWatchStore } from '../../../src/stores/watches/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-watches-'));
const file = join(dir, 'watches.db');
watchStoreContract('sqlite', async () => new SqliteWatchStore(file));

const prefix = uniquePrefix();
const clients: Redis[] = [];
watchStoreContract(
  'redis',
  async () => {
    const r = await openTestRedis();
    clients.push(r);
    return new RedisWatchStore(r, { prefix });
  },
  redisSkip,
);

// PostgreSQL: a schema of its own per run on the test database, dropped at the end.
const PG_URL = process.env.THREADMARK_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgSchema = `tm_test_${process.pid}_${Date.now()}`;
const admin = new pg.Pool({ connectionString: PG_URL, max: 1, connectionTimeoutMillis: 2000 });
const pgUp = await admin.query(`CREATE SCHEMA ${pgSchema}`).then(
  () => true,
  () => false,
);
if (!pgUp && process.env.THREADMARK_REQUIRE_POSTGRES) throw new Error(`PostgreSQL at ${PG_URL} does not answer`);
const pool = new pg.Pool({ connectionString: PG_URL, options: `-c search_path=${pgSchema}`, max: 4 });
watchStoreContract('postgres', () => openPgWatchStore(pool), pgUp ? false : `PostgreSQL at ${PG_URL} not reachable`);

test('sqlite: a watch survives closing and reopening the file', async () => {
  const first = new SqliteWatchStore(file);
  const w = watchOf({ keyId: 'restart' });
  await first.addWatch(w);
  await first.close();
  const again = new SqliteWatchStore(file);
  assert.deepEqual(await again.listWatches('restart'), [w]);
  await again.close();
});

after(async () => {
  await pool.end();
  if (pgUp) await admin.query(`DROP SCHEMA ${pgSchema} CASCADE`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
  if (clients[0]) await deleteByPrefix(clients[0], prefix);
  for (const c of clients) c.disconnect();
});
