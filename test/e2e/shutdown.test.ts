// Graceful shutdown of the real process: on SIGTERM the listener closes at once (new connections refused),
// the request already in flight is finished with 200, the stores are closed and the process exits 0.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { simEnv, spawnInstance } from '../helpers/instance.ts';
import { refused, until } from '../helpers/wait.ts';

let sim: Simulator;
let dir: string;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'threadmark-shutdown-'));
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

test(
  'SIGTERM: new connections refused, the in-flight request completes with 200, stores closed, exit 0',
  { timeout: 30_000 },
  async () => {
    const keysDb = join(dir, 'keys.db');
    const instance = await spawnInstance({
      ...simEnv(sim),
      THREADMARK_KEYS_DB: keysDb,
      THREADMARK_UPSTREAM_TIMEOUT_MS: '10000',
      THREADMARK_UPSTREAM_RETRIES: '0',
    });
    const exited = once(instance.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    // SQLite in WAL mode keeps a -wal file while the database is open; a clean close removes it.
    assert.ok(existsSync(`${keysDb}-wal`), 'key store open while serving');

    const id = IDS.thread[4]!;
    sim.addFault({ target: 'fxtwitter', match: id, kind: 'latency', delayMs: 1500 });
    let settled = false;
    const inFlight = instance.get(`/${HANDLES.alice}/status/${id}?thread=off`).then(async (res) => {
      const body = await res.text();
      settled = true;
      return { status: res.status, body };
    });
    // The request has reached the upstream: it is in flight inside the service.
    await until(() => sim.calls({ target: 'fxtwitter', path: id }) > 0, 'the upstream call');

    instance.child.kill('SIGTERM');
    await until(() => refused(instance.port), 'the listener to close');
    assert.equal(settled, false, 'the listener closed while the request was still in flight');

    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.match(res.body, /alice_dev/);
    const [code, signal] = await exited;
    assert.deepEqual([code, signal], [0, null]);
    assert.ok(!existsSync(`${keysDb}-wal`), 'key store closed on shutdown');
    assert.ok(instance.logs().some((l) => l.msg === 'shutting down' && l.signal === 'SIGTERM'));
  },
);
