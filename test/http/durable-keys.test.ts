// API keys in PostgreSQL (THREADMARK_DATABASE_URL) with two instances on one Redis: a key created through one
// instance verifies on the other after Redis loses everything (FLUSHALL), the CLI sees the same keys, and the X
// session registry map lives in the database too. A private redis-server, so the flush touches no other test.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HANDLES } from '../../sim/corpus.ts';
import { runKeysCommand } from '../../src/cli/keys.ts';
import { RedisServer, redisServerSkip } from '../helpers/redis-server.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { dropSchema, PG_URL, postgresSkip, uniqueSchema } from '../unit/stores/postgres-env.ts';
import { createRedisClient, connectRedis } from '../../src/stores/redis/connect.ts';

const ADMIN = 'admin-token-for-durable-keys';
const auth = { authorization: `Bearer ${ADMIN}` };

describe('API keys in PostgreSQL survive a Redis flush', { skip: postgresSkip || redisServerSkip }, () => {
  const schema = uniqueSchema();
  let redis: RedisServer;
  let a: Stack;
  let b: Stack;
  let env: Record<string, string>;

  before(async () => {
    redis = await RedisServer.onFreePort();
    await redis.start();
    env = {
      THREADMARK_REDIS_URL: redis.url,
      THREADMARK_DATABASE_URL: PG_URL,
      THREADMARK_DATABASE_SCHEMA: schema,
      THREADMARK_ADMIN_TOKEN: ADMIN,
    };
    // Both start together: the second waits on the migration lock, then finds the schema ready.
    [a, b] = await Promise.all([startStack(env), startStack(env)]);
  });
  after(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
    await dropSchema(schema);
  });

  const keyedStatus = async (s: Stack, key: string) => {
    const res = await s.get(`/api/v1/profiles/${HANDLES.alice}`, { headers: { authorization: `Bearer ${key}` } });
    await res.arrayBuffer();
    return [res.status, res.headers.get('x-api-key-status')];
  };

  test('created on A, verified on B after FLUSHALL; a disable on B is seen by A', async () => {
    const res = await fetch(`${a.url}/admin/keys`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'durable' }),
    });
    assert.equal(res.status, 201);
    const issued = (await res.json()) as { id: string; key: string };
    assert.deepEqual(await keyedStatus(b, issued.key), [200, 'valid']);

    const client = createRedisClient(redis.url);
    assert.ok(await connectRedis(client));
    try {
      assert.ok((await client.dbsize()) > 0, 'the instances wrote to Redis');
      await client.flushall();
      assert.equal(await client.dbsize(), 0);
    } finally {
      client.disconnect();
    }

    assert.deepEqual(await keyedStatus(b, issued.key), [200, 'valid']);
    assert.deepEqual(await keyedStatus(a, issued.key), [200, 'valid']);
    const disabled = await fetch(`${b.url}/admin/keys/${issued.id}/disable`, { method: 'POST', headers: auth });
    assert.equal(disabled.status, 200);
    assert.deepEqual(await keyedStatus(a, issued.key), [401, 'invalid']);
  });

  test('the keys CLI reads and writes the same PostgreSQL keys', async () => {
    const out: string[] = [];
    const sink = { write: (c: string) => void out.push(c) };
    assert.equal(await runKeysCommand(['create', '--name', 'from-cli'], sink, sink, { env }), 0);
    const key = /tm_[A-Za-z0-9_-]{43}/.exec(out.join(''))?.[0];
    assert.ok(key, out.join(''));
    assert.deepEqual(await keyedStatus(a, key), [200, 'valid']);
    const listed = (await (await fetch(`${b.url}/admin/keys`, { headers: auth })).json()) as {
      keys: Array<{ name: string }>;
    };
    assert.ok(listed.keys.some((k) => k.name === 'from-cli'));
  });

  test('the shared operator map is in the database, not in Redis', async () => {
    const map = a.app.services.stores.sharedHash?.('probe');
    assert.ok(map);
    assert.equal(await map.set('field', 'value'), true);
    assert.deepEqual(await b.app.services.stores.sharedHash?.('probe').all(), { field: 'value' });
  });
});
