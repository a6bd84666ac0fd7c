// A real instance pointed at a private redis-server that is down at start, then started, then killed mid-flight:
// the service keeps answering (no 5xx), degrades to in-process cache and limits with keys `unverified`, logs each
// outage once, and returns to the shared stores when Redis comes back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { simEnv, spawnInstance, type Instance } from '../helpers/instance.ts';
import { RedisServer, redisServerSkip } from '../helpers/redis-server.ts';

const ADMIN = 'admin-token-for-outage-test';
const PREFIX = 'tm-outage:';
// Shaped like a key, so only the store can tell: with the store down the answer must be `unverified`.
const SOME_KEY = `tm_${Buffer.alloc(32, 7).toString('base64url')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('an instance across Redis outages', { skip: redisServerSkip }, () => {
  let sim: Simulator;
  let redis: RedisServer;
  let inst: Instance;
  let dir: string;

  const outageWarnings = () => inst.logs().filter((l) => l.level === 40 && /redis unreachable/.test(l.msg));
  const recoveries = () => inst.logs().filter((l) => /redis reachable again/.test(l.msg));
  const keyed = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
  const postPath = (id: string) => `/${HANDLES.alice}/status/${id}?thread=off&replies=off`;

  async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    redis = await RedisServer.onFreePort();
    dir = mkdtempSync(join(tmpdir(), 'tm-outage-'));
    inst = await spawnInstance({
      ...simEnv(sim),
      THREADMARK_REDIS_URL: redis.url,
      THREADMARK_REDIS_PREFIX: PREFIX,
      THREADMARK_ADMIN_TOKEN: ADMIN,
      THREADMARK_KEYS_DB: join(dir, 'unused.db'),
    });
  });

  after(async () => {
    await inst?.stop();
    await redis?.stop();
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('Redis down at start: service up, keys unverified on the public allowance, local cache and limits, one warning', async () => {
    const profile = await inst.get(`/api/v1/profiles/${HANDLES.alice}`, keyed(SOME_KEY));
    assert.equal(profile.status, 200);
    assert.equal(profile.headers.get('x-api-key-status'), 'unverified');

    // A keyed search is charged like an anonymous one: search-ip, 5 per window, enforced in-process.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await inst.get(`/api/v1/search?q=outage${i}&format=json`, keyed(SOME_KEY));
      if (res.status === 200) assert.equal(res.headers.get('x-api-key-status'), 'unverified');
      if (i === 0) assert.match(res.headers.get('ratelimit-policy') ?? '', /"search-ip";q=5;w=60/);
      assert.doesNotMatch(res.headers.get('ratelimit-policy') ?? '', /search-key/);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);

    sim.resetCalls();
    assert.equal((await inst.get(postPath(IDS.threadPhoto))).headers.get('x-cache'), 'miss');
    assert.equal((await inst.get(postPath(IDS.threadPhoto))).headers.get('x-cache'), 'hit');
    assert.equal(sim.calls(), 1, 'the in-process cache answered the second read');

    await sleep(600); // several reconnect attempts fail meanwhile
    assert.equal(outageWarnings().length, 1, JSON.stringify(inst.logs().filter((l) => l.level >= 40)));
  });

  test('Redis comes up: keys are verified again and the cache is shared', async () => {
    await redis.start();
    await waitFor('recovery log line', () => recoveries().length === 1);

    const created = await inst.get('/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'after-recovery' }),
    });
    assert.equal(created.status, 201);
    const { key } = (await created.json()) as { key: string };
    const valid = await inst.get(`/api/v1/profiles/${HANDLES.alice}`, keyed(key));
    assert.equal(valid.headers.get('x-api-key-status'), 'valid');
    const unknown = await inst.get(`/api/v1/profiles/${HANDLES.alice}`, keyed(SOME_KEY));
    assert.equal(unknown.status, 401);

    const client = new Redis(redis.url, { lazyConnect: true });
    await client.connect();
    try {
      assert.equal((await inst.get(postPath(IDS.threadPoll))).headers.get('x-cache'), 'miss');
      assert.ok((await client.keys(`${PREFIX}c:*`)).length > 0, 'the read was stored in Redis');
      // The counter now lives in Redis, so it starts from the shared count, not the in-process one.
      assert.ok(await client.exists(`${PREFIX}rl:api-ip:127.0.0.1`), 'the api-ip counter is in Redis again');
      // The cursor secret is agreed through Redis once it is reachable (retried in the background).
      await waitFor('shared cursor secret', async () => (await client.exists(`${PREFIX}s:cursor-secret`)) === 1, 5000);
    } finally {
      client.disconnect();
    }
    assert.equal(outageWarnings().length, 1);
  });

  test('Redis killed mid-flight: no 5xx, keyed requests unverified, one more warning', async () => {
    const paths = [
      postPath(IDS.threadRoot),
      `/api/v1/profiles/${HANDLES.bob}`,
      `/api/v1/profiles/${HANDLES.alice}/followers?format=json`,
      `/api/v1/search?q=midflight&format=json`,
      postPath(IDS.threadPoll),
    ];
    let stop = false;
    const statuses: number[] = [];
    const traffic = (async () => {
      for (let i = 0; !stop; i++) {
        const res = await inst.get(paths[i % paths.length]!, keyed(SOME_KEY));
        statuses.push(res.status);
        await res.arrayBuffer();
      }
    })();
    await sleep(150);
    await redis.stop();
    await waitFor('outage warning', () => outageWarnings().length === 2);
    await sleep(300);
    stop = true;
    await traffic;

    assert.ok(statuses.length > 5, `traffic kept flowing (${statuses.length} requests)`);
    assert.deepEqual(
      statuses.filter((s) => s >= 500),
      [],
    );
    const after = await inst.get(`/api/v1/profiles/${HANDLES.alice}`, keyed(SOME_KEY));
    assert.equal(after.status, 200);
    assert.equal(after.headers.get('x-api-key-status'), 'unverified');
    sim.resetCalls();
    assert.equal((await inst.get(postPath(IDS.threadVideo))).headers.get('x-cache'), 'miss');
    assert.equal((await inst.get(postPath(IDS.threadVideo))).headers.get('x-cache'), 'hit');
    assert.equal(sim.calls(), 1);

    await sleep(500);
    assert.equal(outageWarnings().length, 2, 'one warning per outage, not per request or reconnect attempt');
    assert.deepEqual(
      inst.logs().filter((l) => l.level >= 50),
      [],
      'no error-level log lines',
    );
  });
});
