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
  rmSync(dir, { recursive: true, force: true });
  if (clients[0]) await deleteByPrefix(clients[0], prefix);
  for (const c of clients) c.disconnect();
});
