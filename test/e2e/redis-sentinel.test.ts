// Two instances on a Sentinel-watched master (THREADMARK_REDIS_SENTINELS): they share the cache and limits, and
// after SENTINEL FAILOVER both follow the promoted replica without a restart; no request answers 5xx meanwhile.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startRedisSentinels, redisSentinelSkip, type RedisSentinelSet } from '../helpers/redis-sentinel.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { until } from '../helpers/wait.ts';

describe('Redis through Sentinels', { skip: redisSentinelSkip }, () => {
  let set: RedisSentinelSet;
  let a: Stack;
  let b: Stack;

  before(async () => {
    set = await startRedisSentinels();
    const env = { THREADMARK_REDIS_SENTINELS: set.sentinels, THREADMARK_REDIS_SENTINEL_NAME: set.masterName };
    a = await startStack(env);
    b = await startStack(env, { sim: a.sim });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await set?.stop();
  });

  /** Connections of the services (not Sentinels, replication links or this probe) to a data node. */
  const serviceClients = (port: number) =>
    set
      .cli(port, 'client', 'list')
      .split('\n')
      .filter((l) => / name= /.test(l) && / flags=N /.test(l) && !/cmd=client\|list/.test(l)).length;

  const read = async (s: Stack, id: string) => {
    const res = await s.get(`/${HANDLES.alice}/status/${id}?thread=off&replies=off&format=json`);
    await res.arrayBuffer();
    return { status: res.status, cache: res.headers.get('x-cache') };
  };

  test('a read on A is a hit on B, before and after a failover that both follow', async () => {
    assert.deepEqual(await read(a, IDS.threadRoot), { status: 200, cache: 'miss' });
    assert.deepEqual(await read(b, IDS.threadRoot), { status: 200, cache: 'hit' });
    const [oldMaster, replica] = set.dataPorts;
    assert.equal(set.masterPort(), oldMaster);

    set.failover();
    const statuses = new Set<number>();
    await until(() => set.masterPort() === replica, 'the Sentinels to name the replica', { limitMs: 20_000 });
    // Both instances leave the demoted master for the promoted one, with requests flowing meanwhile.
    await until(
      async () => {
        for (const s of [a, b]) statuses.add((await read(s, IDS.threadPoll)).status);
        return serviceClients(oldMaster!) === 0 && serviceClients(replica!) >= 2;
      },
      'both instances on the promoted master',
      { limitMs: 20_000, stepMs: 100 },
    );
    assert.deepEqual([...statuses], [200], 'no request failed during the failover');
    assert.match(set.cli(replica!, 'info', 'replication'), /role:master/);

    // A fresh read written by B after the failover is a hit on A: one shared cache again, on the new master.
    assert.deepEqual(await read(b, IDS.threadTwoPhotos), { status: 200, cache: 'miss' });
    assert.deepEqual(await read(a, IDS.threadTwoPhotos), { status: 200, cache: 'hit' });
  });

  test('search-ip (5 per window) is counted across both instances on the new master', async () => {
    const remaining: Array<string | null> = [];
    for (const [i, s] of [a, b, a, b, a].entries()) {
      const res = await s.get(`/api/v1/search?q=${encodeURIComponent(`sentinel${i}`)}&format=json`);
      await res.arrayBuffer();
      assert.equal(res.status, 200);
      remaining.push(res.headers.get('ratelimit-remaining'));
    }
    assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
    const over = await b.get('/api/v1/search?q=sentinel-over&format=json');
    assert.equal(over.status, 429);
  });
});
