// Distributed push on the real Redis (BullMQ): two instances share the schedule, so fifty watches of one source on
// either instance cost one upstream read per interval and get fifty deliveries; an instance stopped mid-interval
// leaves its sources to the other; the same schedule holds on a Redis Cluster.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { HANDLES } from '../../sim/corpus.ts';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { until } from '../helpers/wait.ts';
import { redisClusterSkip, startRedisCluster, type RedisCluster } from '../helpers/redis-cluster.ts';
import { REDIS_URL, deleteByPrefix, openTestRedis, redisSkip, uniquePrefix } from '../unit/stores/redis-env.ts';

const INTERVAL_MS = 400;
const ENV = {
  THREADMARK_REDIS_URL: REDIS_URL,
  THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
  THREADMARK_WATCH_INTERVALS_MS: `profile=${INTERVAL_MS},search=${INTERVAL_MS},thread=${INTERVAL_MS},list=${INTERVAL_MS}`,
  THREADMARK_WEBHOOK_BACKOFF_MS: '20',
};

describe('two instances on Redis', { skip: redisSkip }, () => {
  const prefix = uniquePrefix();
  let sim: Simulator;
  let a: Stack;
  let b: Stack;
  let r: Receiver;
  let redis: Redis;
  let key: string;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    a = await startStack(ENV, { sim, redisPrefix: prefix });
    b = await startStack(ENV, { sim, redisPrefix: prefix });
    r = await startReceiver();
    redis = await openTestRedis();
    key = (await a.app.services.stores.keys.create({ name: 'fan-out' })).key;
  });
  after(async () => {
    await a.close();
    await b.close();
    await r.close();
    await sim.close();
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
  });

  const create = (s: Stack, source: string, callback: string) =>
    s.get('/api/v1/watches', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source, callback }),
    });

  const reads = () => a.app.push.follow.stats.reads + b.app.push.follow.stats.reads;

  /** What a timed-out wait reports: each instance's counts and where every watch's deliveries stand. */
  const stateOf = async (store: Stack['app']['services']['stores']['watches']): Promise<string> => {
    const watches = await store.listWatches((await a.app.services.stores.keys.list())[0]!.id);
    const outcomes = new Map<string, number>();
    for (const w of watches) {
      const ds = await store.recentDeliveries(w.id, 5);
      const k = `${w.state}:${ds.map((d) => `${d.status}/${d.attempts}${d.lastError ? `(${d.lastError})` : ''}`).join(',')}`;
      outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    }
    return JSON.stringify({
      received: r.of('POST').length,
      a: a.app.push.follow.stats,
      b: b.app.push.follow.stats,
      mark: await store.getMark(`profile:${HANDLES.alice}:posts`),
      watches: Object.fromEntries(outcomes),
    });
  };

  test('fifty watches of one source: one upstream read per interval, fifty deliveries', async () => {
    const started = Date.now();
    const readsBefore = reads();
    for (let i = 0; i < 50; i++) {
      const res = await create(i % 2 ? b : a, `/${HANDLES.alice}`, `${r.url}/w${i}`);
      assert.equal(res.status, 201);
      await res.arrayBuffer();
    }
    const store = a.app.services.stores.watches;
    await until(async () => (await store.getMark(`profile:${HANDLES.alice}:posts`)) !== undefined, 'the first read', {
      limitMs: 60_000,
    });
    const callsBefore = sim.calls();
    const readsAtMark = reads();
    sim.appendPost({ author: HANDLES.alice, text: 'Fifty followers, one read.' });
    await until(() => r.of('POST').length >= 50, 'fifty deliveries', { limitMs: 60_000 }).catch(async (err) => {
      throw new Error(`${(err as Error).message}: ${await stateOf(store)}`);
    });
    const elapsed = Date.now() - started;
    const made = reads() - readsBefore;
    // However slow the machine, the schedule never reads more often than once per interval (one turn may be in flight).
    assert.ok(made <= Math.ceil(elapsed / INTERVAL_MS) + 2, `${made} reads in ${elapsed} ms`);
    assert.ok(made >= 2, 'at least the first read and the one that found the post');
    // Each read is the same few upstream calls (profile and timeline), never one per follower.
    const calls = sim.calls() - callsBefore;
    const readsSince = reads() - readsAtMark;
    assert.ok(calls <= readsSince * 3, `${calls} upstream calls for ${readsSince} reads`);
    // Overlapping turns (one still running when the next starts elsewhere) must not deliver the post twice.
    assert.equal(r.of('POST').length, 50, 'no watch got the post twice');
    const paths = new Set(r.of('POST').map((p) => p.url));
    assert.equal(paths.size, 50, 'every watch got its delivery');
    assert.equal(new Set(r.of('POST').map((p) => p.headers['webhook-id'])).size, 50);
    assert.ok(a.app.push.follow.stats.reads + b.app.push.follow.stats.reads === reads());
  });

  test('an instance stopped mid-interval: the other reads its sources and delivers', async () => {
    const res = await create(a, `/${HANDLES.carol}`, `${r.url}/carol`);
    assert.equal(res.status, 201);
    await res.arrayBuffer();
    const store = b.app.services.stores.watches;
    await until(async () => (await store.getMark(`profile:${HANDLES.carol}:posts`)) !== undefined, 'the first read', {
      limitMs: 60_000,
    });
    await a.close();
    const bReads = b.app.push.follow.stats.reads;
    const id = sim.appendPost({ author: HANDLES.carol, text: 'The other instance takes over.' });
    await until(() => r.of('POST').some((p) => p.url === '/carol'), 'the delivery by the remaining instance', {
      limitMs: 60_000,
    });
    assert.ok(b.app.push.follow.stats.reads > bReads, 'the remaining instance read the source');
    const push = r.of('POST').find((p) => p.url === '/carol')!;
    assert.ok(push.body.includes(id));
    // `after` closes it again: closing twice must be harmless.
    a = { ...a, close: async () => {} };
  });
});

// The same shared schedule on a Redis Cluster: BullMQ's keys carry one hash tag, so its scripts stay in one slot.
describe('two instances on a Redis Cluster', { skip: redisClusterSkip }, () => {
  let cluster: RedisCluster;
  let sim: Simulator;
  let a: Stack;
  let b: Stack;
  let r: Receiver;
  let key: string;

  before(async () => {
    cluster = await startRedisCluster();
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    const { THREADMARK_REDIS_URL: _single, ...rest } = ENV;
    const env = { ...rest, THREADMARK_REDIS_CLUSTER: cluster.seeds };
    a = await startStack(env, { sim });
    b = await startStack(env, { sim });
    r = await startReceiver();
    key = (await a.app.services.stores.keys.create({ name: 'cluster fan-out' })).key;
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await r?.close();
    await sim?.close();
    await cluster?.stop();
  });

  test('five watches of one source on either instance: one read per interval, five deliveries', async () => {
    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      const res = await (i % 2 ? b : a).get('/api/v1/watches', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ source: `/${HANDLES.alice}`, callback: `${r.url}/c${i}` }),
      });
      assert.equal(res.status, 201, await res.text());
    }
    const store = a.app.services.stores.watches;
    await until(async () => (await store.getMark(`profile:${HANDLES.alice}:posts`)) !== undefined, 'the first read', {
      limitMs: 60_000,
    });
    sim.appendPost({ author: HANDLES.alice, text: 'Five followers on a cluster, one read.' });
    await until(() => r.of('POST').length >= 5, 'five deliveries', { limitMs: 60_000 });
    const elapsed = Date.now() - started;
    const made = a.app.push.follow.stats.reads + b.app.push.follow.stats.reads;
    assert.ok(made <= Math.ceil(elapsed / INTERVAL_MS) + 2, `${made} reads in ${elapsed} ms`);
    assert.equal(r.of('POST').length, 5, 'no watch got the post twice');
    assert.equal(new Set(r.of('POST').map((p) => p.url)).size, 5);
  });
});
