// Two real service processes on different ports sharing the real Redis (one key prefix per run): keys, rate
// limits, the cache and the cursor secret are the cluster's, not the instance's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf } from '../helpers/stack.ts';
import { simEnv, spawnInstance, type Instance } from '../helpers/instance.ts';
import {
  deleteByPrefix,
  keysByPrefix,
  openTestRedis,
  REDIS_URL,
  redisSkip,
  uniquePrefix,
} from '../unit/stores/redis-env.ts';

const ADMIN = 'admin-token-for-distributed-test';

describe('distributed mode: two instances, one Redis', { skip: redisSkip }, () => {
  let sim: Simulator;
  let redis: Redis;
  let dir: string;
  let a: Instance;
  let b: Instance;
  const prefix = uniquePrefix();

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    redis = await openTestRedis();
    dir = mkdtempSync(join(tmpdir(), 'tm-dist-'));
    const env = {
      ...simEnv(sim),
      THREADMARK_REDIS_URL: REDIS_URL,
      THREADMARK_REDIS_PREFIX: prefix,
      THREADMARK_ADMIN_TOKEN: ADMIN,
      // Would be used only in embedded mode; distinct per instance to show nothing rides on it.
      THREADMARK_KEYS_DB: join(dir, 'unused.db'),
    };
    // allSettled, so that an instance that did start is still stopped by `after` when its twin failed to.
    const started = await Promise.allSettled([
      spawnInstance(env),
      spawnInstance({ ...env, THREADMARK_KEYS_DB: join(dir, 'unused-b.db') }),
    ]);
    if (started[0].status === 'fulfilled') a = started[0].value;
    if (started[1].status === 'fulfilled') b = started[1].value;
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    assert.notEqual(a.port, b.port);
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const admin = (inst: Instance, path: string, method: string, body?: unknown) =>
    inst.get(path, {
      method,
      headers: { authorization: `Bearer ${ADMIN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const bearer = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });

  test('a key issued on one instance is valid on both; disabled through A it is refused by B on the next request', async () => {
    const created = await admin(a, '/admin/keys', 'POST', { name: 'cluster' });
    assert.equal(created.status, 201);
    const { id, key } = (await created.json()) as { id: string; key: string };
    assert.equal((await redis.keys(`${prefix}k:*`)).length > 0, true, 'the key lives in the shared Redis');

    for (const inst of [a, b]) {
      const res = await inst.get(`/api/v1/profiles/${HANDLES.alice}`, bearer(key));
      assert.equal(res.status, 200, `instance ${inst.port}`);
      assert.equal(res.headers.get('x-api-key-status'), 'valid');
    }
    const listed = (await (await admin(b, '/admin/keys', 'GET')).json()) as { keys: { id: string }[] };
    assert.deepEqual(
      listed.keys.map((k) => k.id),
      [id],
    );

    assert.equal((await admin(a, `/admin/keys/${id}/disable`, 'POST')).status, 200);
    const refused = await b.get(`/api/v1/profiles/${HANDLES.alice}`, bearer(key));
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('x-api-key-status'), 'invalid');
    assert.equal((await problemOf(refused)).code, 'invalid_key');

    assert.equal((await admin(b, `/admin/keys/${id}/enable`, 'POST')).status, 200);
    assert.equal((await a.get(`/api/v1/profiles/${HANDLES.alice}`, bearer(key))).status, 200);
    assert.equal((await admin(b, `/admin/keys/${id}`, 'DELETE')).status, 204);
    assert.equal((await a.get(`/api/v1/profiles/${HANDLES.alice}`, bearer(key))).status, 401);
  });

  test('search-ip (5 per 60 s) is counted across both instances exactly', async () => {
    // Distinct queries: every one misses the cache and is a live lookup charged to this client.
    const seen: { inst: Instance; status: number; remaining: string | null }[] = [];
    const plan = [a, a, a, b, b];
    for (const [i, inst] of plan.entries()) {
      const res = await inst.get(`/api/v1/search?q=${encodeURIComponent(`caching lookup${i}`)}&format=json`);
      await res.arrayBuffer();
      seen.push({ inst, status: res.status, remaining: res.headers.get('ratelimit-remaining') });
    }
    assert.deepEqual(
      seen.map((s) => s.status),
      [200, 200, 200, 200, 200],
    );
    assert.deepEqual(
      seen.map((s) => s.remaining),
      ['4', '3', '2', '1', '0'],
    );
    for (const inst of [a, b]) {
      const res = await inst.get(`/api/v1/search?q=${encodeURIComponent(`caching over ${inst.port}`)}&format=json`);
      assert.equal(res.status, 429, `6th lookup on ${inst.port}`);
      assert.equal((await problemOf(res)).code, 'rate_limited');
      assert.match(res.headers.get('ratelimit') ?? '', /"search-ip";r=0;t=\d+/);
      assert.ok(Number(res.headers.get('retry-after')) > 0, 'Retry-After in seconds');
    }
    // A query already cached by a peer is a hit and charges nothing, even with the allowance used up.
    const cached = await b.get(`/api/v1/search?q=${encodeURIComponent('caching lookup0')}&format=json`);
    assert.equal(cached.status, 200);
    assert.equal(cached.headers.get('x-cache'), 'hit');
  });

  test('a post read on A is a cache hit on B: one upstream call in all', async () => {
    const path = `/api/v1/posts?url=${encodeURIComponent(`https://x.com/${HANDLES.carol}/status/${IDS.carolQuoted}`)}&thread=off&replies=off`;
    sim.resetCalls();
    const first = await a.get(path);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-cache'), 'miss');
    const body = await first.text();
    assert.equal(sim.calls(), 1);

    const second = await b.get(path);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('x-cache'), 'hit');
    assert.equal(await second.text(), body);
    // Another representation of the same read is served from the same shared entry.
    const json = await b.get(`${path}&format=json`);
    assert.equal(json.headers.get('x-cache'), 'hit');
    assert.equal(sim.calls(), 1);
    assert.ok((await keysByPrefix(redis, `${prefix}c:`)).length > 0);
  });

  test('a cursor issued by A is accepted by B (secret agreed through Redis)', async () => {
    const first = await a.get(`/api/v1/profiles/${HANDLES.big}/followers?format=json&limit=5`);
    assert.equal(first.status, 200);
    const page1 = (await first.json()) as { nextCursor?: string; items?: unknown[] };
    const cursor = page1.nextCursor;
    assert.ok(cursor, 'page 1 carries a cursor');
    const second = await b.get(
      `/api/v1/profiles/${HANDLES.big}/followers?format=json&limit=5&cursor=${encodeURIComponent(cursor)}`,
    );
    assert.equal(second.status, 200, JSON.stringify(await second.clone().json()));
    const page2 = (await second.json()) as { page?: number; nextCursor?: string };
    assert.ok(page2.nextCursor && page2.nextCursor !== cursor, 'page 2 leads on to page 3');
    assert.ok(await redis.exists(`${prefix}s:cursor-secret`), 'the secret is stored in Redis');
    // A forged cursor is still refused on either instance.
    const forged = await b.get(
      `/api/v1/profiles/${HANDLES.big}/followers?format=json&cursor=${cursor.slice(0, -4)}AAAA`,
    );
    assert.equal((await problemOf(forged)).code, 'invalid_cursor');
  });

  test('neither instance logged an error', () => {
    for (const inst of [a, b]) {
      const bad = inst.logs().filter((l) => l.level >= 40);
      assert.deepEqual(bad, [], `instance ${inst.port}`);
    }
  });
});
