import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runKeysCommand } from '../../../src/cli/keys.ts';
import { RedisKeyStore } from '../../../src/stores/keys/redis.ts';
import { SqliteKeyStore } from '../../../src/stores/keys/sqlite.ts';
import type { KeyStore } from '../../../src/stores/keys/types.ts';
import { DEAD_REDIS_URL, REDIS_URL, redisSkip, useTestRedis } from './redis-env.ts';

function sink() {
  const chunks: string[] = [];
  return {
    write: (c: string) => void chunks.push(c),
    get text() {
      return chunks.join('');
    },
  };
}

async function run(argv: string[], deps: Parameters<typeof runKeysCommand>[3]) {
  const out = sink();
  const err = sink();
  const code = await runKeysCommand(argv, out, err, deps);
  return { code, out: out.text, err: err.text };
}

/** The whole operator cycle through the CLI, checked against the store's own verify. */
async function operatorCycle(deps: Parameters<typeof runKeysCommand>[3], verifyWith: KeyStore) {
  const created = await run(['keys', 'create', '--name', 'Partner Co', '--account-quota', '25'], deps);
  assert.equal(created.code, 0, created.err);
  const key = /^key: (tm_\S+)$/m.exec(created.out)?.[1];
  const id = /^id: (\S+)$/m.exec(created.out)?.[1];
  assert.ok(key && id, created.out);
  assert.match(created.out, /shown only this once/);
  const v = await verifyWith.verify(key);
  assert.equal(v.status === 'valid' && v.record.accountQuota, 25);

  const listed = await run(['list'], deps);
  assert.equal(listed.code, 0);
  assert.match(listed.out, new RegExp(`^${id}\\s+enabled\\s+25\\s+\\S+\\s+Partner Co$`, 'm'));
  assert.equal(listed.out.includes(key), false);

  assert.deepEqual(await run(['disable', id], deps), { code: 0, out: `${id} disabled\n`, err: '' });
  assert.equal((await verifyWith.verify(key)).status, 'invalid');
  assert.deepEqual(await run(['enable', id], deps), { code: 0, out: `${id} enabled\n`, err: '' });
  assert.equal((await verifyWith.verify(key)).status, 'valid');
  assert.deepEqual(await run(['delete', id], deps), { code: 0, out: `${id} deleted\n`, err: '' });
  assert.equal((await verifyWith.verify(key)).status, 'invalid');

  const missing = await run(['disable', id], deps);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no key with id/);
}

describe('keys CLI on SQLite (THREADMARK_KEYS_DB)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-cli-'));
  const db = join(dir, 'sub', 'keys.db');
  const env = { THREADMARK_KEYS_DB: db };
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('create, list, disable, enable, delete against the file the server reads', async () => {
    const server = new SqliteKeyStore(db);
    try {
      await operatorCycle({ env }, server);
    } finally {
      await server.close();
    }
    assert.ok(existsSync(db));
  });

  test('usage errors exit 2 and name the problem', async () => {
    for (const [argv, pattern] of [
      [['create'], /--name/],
      [['create', '--name', 'x', '--account-quota', '0'], /positive integer/],
      [['disable'], /exactly one ID/],
      [['frobnicate'], /unknown keys command/],
      [['list', '--bogus'], /bogus/],
    ] as const) {
      const r = await run([...argv], { env });
      assert.equal(r.code, 2, argv.join(' '));
      assert.match(r.err, pattern);
      assert.match(r.err, /usage: threadmark keys/);
    }
  });

  test('help prints usage', async () => {
    const r = await run([], { env });
    assert.equal(r.code, 0);
    assert.match(r.out, /keys create --name N \[--account-quota Q\]/);
  });

  test('an empty list says so', async () => {
    const r = await run(['list'], { env: { THREADMARK_KEYS_DB: join(dir, 'empty.db') } });
    assert.deepEqual(r, { code: 0, out: 'no keys\n', err: '' });
  });
});

test('keys CLI with THREADMARK_REDIS_URL unreachable fails with exit 1', async () => {
  const r = await run(['list'], { env: { THREADMARK_REDIS_URL: DEAD_REDIS_URL } });
  assert.equal(r.code, 1);
  assert.match(r.err, /cannot reach Redis/);
});

describe('keys CLI on Redis (THREADMARK_REDIS_URL, real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();

  test('create, list, disable, enable, delete against the store every instance reads', async () => {
    await operatorCycle(
      { env: { THREADMARK_REDIS_URL: REDIS_URL }, redisPrefix: t.prefix },
      new RedisKeyStore(t.redis, { prefix: t.prefix }),
    );
  });
});
