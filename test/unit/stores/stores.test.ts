import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createStores, type StoresLog } from '../../../src/stores/index.ts';
import { DEAD_REDIS_URL, REDIS_URL, redisSkip, useTestRedis, sleep, until } from './redis-env.ts';

function recordingLog() {
  const lines: { level: 'warn' | 'info'; msg: string }[] = [];
  const log: StoresLog = {
    warn: (_o, msg) => void lines.push({ level: 'warn', msg }),
    info: (_o, msg) => void lines.push({ level: 'info', msg }),
  };
  return { log, lines };
}

const dir = mkdtempSync(join(tmpdir(), 'tm-stores-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('embedded mode: LRU cache, in-process limits, SQLite keys', async () => {
  const { log, lines } = recordingLog();
  const stores = await createStores({ keysDb: join(dir, 'embedded', 'keys.db'), log });
  try {
    assert.equal(stores.mode, 'embedded');
    await stores.cache.set('a', 1, 1000, 1000);
    assert.equal((await stores.cache.get('a'))?.value, 1);
    assert.equal((await stores.limiter.consume('search-ip', '1.2.3.4')).remaining, 4);
    const { key } = await stores.keys.create({ name: 'e' });
    assert.equal((await stores.keys.verify(key)).status, 'valid');
    assert.equal(stores.sharedStoreUp(), true);
    assert.deepEqual(lines, []);
  } finally {
    await stores.close();
  }
});

test('distributed mode with Redis down at start: local cache and limits, keys unverified, one warning', async () => {
  const { log, lines } = recordingLog();
  const stores = await createStores({ redisUrl: DEAD_REDIS_URL, keysDb: join(dir, 'unused.db'), log });
  try {
    assert.equal(stores.mode, 'distributed');
    assert.equal(stores.sharedStoreUp(), false);
    await stores.cache.set('a', 'local', 1000, 1000);
    assert.equal((await stores.cache.get('a'))?.value, 'local');
    assert.equal((await stores.limiter.consume('search-ip', 'ip')).remaining, 4);
    assert.deepEqual(await stores.keys.verify(`tm_${Buffer.alloc(32, 3).toString('base64url')}`), {
      status: 'unverified',
    });
    await sleep(500); // several reconnect attempts fail meanwhile
    assert.equal(lines.filter((l) => l.level === 'warn').length, 1);
  } finally {
    await stores.close();
  }
});

/** A TCP relay to the real Redis that can be cut and restored, standing in for an outage. */
class Relay {
  #server: Server | undefined;
  #sockets = new Set<Socket>();
  port = 0;
  async start(port = 0): Promise<void> {
    const target = new URL(REDIS_URL);
    this.#server = createServer((client) => {
      const upstream = createConnection(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.#server!.listen(port, '127.0.0.1', r));
    this.port = (this.#server.address() as { port: number }).port;
  }
  async stop(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((r) => (this.#server ? this.#server.close(() => r()) : r()));
  }
}

describe('distributed mode (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();

  test('cache, limits and keys live in Redis under the prefix', async () => {
    const { log } = recordingLog();
    const stores = await createStores({
      redisUrl: REDIS_URL,
      keysDb: join(dir, 'unused.db'),
      redisPrefix: t.prefix,
      log,
    });
    try {
      assert.equal(stores.sharedStoreUp(), true);
      await stores.cache.set('post:9', { id: '9' }, 1000, 1000);
      assert.ok(await t.redis.exists(`${t.prefix}c:post:9`));
      await stores.limiter.consume('api-ip', '10.0.0.1');
      assert.equal(await t.redis.get(`${t.prefix}rl:api-ip:10.0.0.1`), '1');
      const { key } = await stores.keys.create({ name: 'dist' });
      assert.equal((await stores.keys.verify(key)).status, 'valid');
      assert.ok(stores.coalescer.lock, 'cross-instance fill lock configured');
    } finally {
      await stores.close();
    }
  });

  test('an outage degrades and the stores recover when Redis returns', async () => {
    const relay = new Relay();
    await relay.start();
    const { log, lines } = recordingLog();
    const stores = await createStores({
      redisUrl: `redis://127.0.0.1:${relay.port}`,
      keysDb: join(dir, 'unused.db'),
      redisPrefix: t.prefix,
      log,
    });
    try {
      const { key } = await stores.keys.create({ name: 'outage' });
      assert.equal((await stores.keys.verify(key)).status, 'valid');

      await relay.stop();
      // The client learns of the cut from its socket closing, a moment after the relay drops it.
      await until(() => !stores.sharedStoreUp(), 'the cut to be noticed');
      assert.equal((await stores.keys.verify(key)).status, 'unverified');
      assert.equal((await stores.limiter.consume('search-ip', 'outage-ip')).allowed, true);
      await stores.cache.set('during', 'local', 1000, 1000);
      assert.equal((await stores.cache.get('during'))?.value, 'local');
      assert.equal(lines.filter((l) => l.level === 'warn').length, 1);

      await relay.start(relay.port);
      await until(() => stores.sharedStoreUp(), 'the reconnect');
      assert.equal((await stores.keys.verify(key)).status, 'valid');
      assert.equal(lines.filter((l) => l.level === 'info').length, 1);
    } finally {
      await stores.close();
      await relay.stop();
    }
  });
});
