// Embedded mode (no Redis, no THREADMARK_CURSOR_SECRET): a cursor handed out before a restart still opens after
// it, because the sealing secret is kept beside the key store, as the in-process CLI already kept it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES } from '../../sim/corpus.ts';
import { problemOf } from '../helpers/stack.ts';
import { simEnv, spawnInstance } from '../helpers/instance.ts';

let sim: Simulator;
let dir: string;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'threadmark-cursor-restart-'));
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const FOLLOWERS = `/api/v1/profiles/${HANDLES.big}/followers?format=json&limit=5`;

async function firstCursor(env: Record<string, string>): Promise<string> {
  const inst = await spawnInstance(env);
  try {
    const res = await inst.get(FOLLOWERS);
    assert.equal(res.status, 200);
    const { nextCursor } = (await res.json()) as { nextCursor?: string };
    assert.ok(nextCursor, 'page 1 carries a cursor');
    return nextCursor;
  } finally {
    assert.equal(await inst.stop(), 0);
  }
}

test('a cursor issued before a restart is accepted after it', async () => {
  const env = { ...simEnv(sim), THREADMARK_KEYS_DB: join(dir, 'kept', 'keys.db') };
  const cursor = await firstCursor(env);
  assert.ok(existsSync(join(dir, 'kept', 'cursor-secret')), 'the secret is kept beside the key store');
  const again = await spawnInstance(env);
  try {
    const res = await again.get(`${FOLLOWERS}&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(res.status, 200, await res.clone().text());
    const page2 = (await res.json()) as { nextCursor?: string; items?: unknown[] };
    assert.ok(page2.items && page2.items.length > 0, 'page 2 has followers');
    assert.ok(page2.nextCursor && page2.nextCursor !== cursor, 'page 2 leads on to page 3');
  } finally {
    assert.equal(await again.stop(), 0);
  }
});

test('a service with another key store has another secret, and refuses the cursor', async () => {
  const cursor = await firstCursor({ ...simEnv(sim), THREADMARK_KEYS_DB: join(dir, 'one', 'keys.db') });
  const other = await spawnInstance({ ...simEnv(sim), THREADMARK_KEYS_DB: join(dir, 'two', 'keys.db') });
  try {
    const res = await other.get(`${FOLLOWERS}&cursor=${encodeURIComponent(cursor)}`);
    assert.equal((await problemOf(res)).code, 'invalid_cursor');
  } finally {
    assert.equal(await other.stop(), 0);
  }
});
