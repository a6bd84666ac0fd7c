// The service as a child process: configuration errors, start-up against the simulator, graceful shutdown.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
let sim: Simulator;
let dir: string;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'threadmark-e2e-'));
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', THREADMARK_KEYS_DB: join(dir, 'keys.db'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function collect(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

for (const [name, value, needle] of [
  ['PORT', 'eighty', 'PORT'],
  ['THREADMARK_PROVIDERS', 'fxtwitter,nitter', 'THREADMARK_PROVIDERS'],
  ['THREADMARK_CACHE_TTL_S', '-5', 'THREADMARK_CACHE_TTL_S'],
  ['THREADMARK_FXTWITTER_URL', 'ftp://example', 'THREADMARK_FXTWITTER_URL'],
  ['THREADMARK_TRUST_PROXY', 'perhaps', 'THREADMARK_TRUST_PROXY'],
  ['THREADMARK_REDIS_URL', 'http://localhost', 'THREADMARK_REDIS_URL'],
  ['THREADMARK_REDIS_CLUSTER', '127.0.0.1:7000,redis-b', 'THREADMARK_REDIS_CLUSTER must be a comma-separated list'],
  ['THREADMARK_DATABASE_URL', 'mysql://db/threadmark', 'THREADMARK_DATABASE_URL must be a postgres'],
  ['THREADMARK_DATABASE_SCHEMA', 'Drop Table', 'THREADMARK_DATABASE_SCHEMA must be a lower-case identifier'],
] as const) {
  test(`a bad ${name} stops start-up with one line naming it`, async () => {
    const { code, stderr } = await collect(start({ [name]: value }));
    assert.equal(code, 2);
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, new RegExp(needle));
  });
}

for (const [what, env, needle] of [
  [
    'a Redis URL and a cluster',
    { THREADMARK_REDIS_URL: 'redis://127.0.0.1:6379', THREADMARK_REDIS_CLUSTER: '127.0.0.1:7000' },
    'THREADMARK_REDIS_URL and THREADMARK_REDIS_CLUSTER are mutually exclusive',
  ],
  [
    'a cluster and Sentinels',
    {
      THREADMARK_REDIS_CLUSTER: '127.0.0.1:7000',
      THREADMARK_REDIS_SENTINELS: '127.0.0.1:26379',
      THREADMARK_REDIS_SENTINEL_NAME: 'main',
    },
    'THREADMARK_REDIS_CLUSTER and THREADMARK_REDIS_SENTINELS are mutually exclusive',
  ],
  [
    'Sentinels without a master name',
    { THREADMARK_REDIS_SENTINELS: '127.0.0.1:26379' },
    'THREADMARK_REDIS_SENTINELS needs THREADMARK_REDIS_SENTINEL_NAME',
  ],
] as const) {
  test(`${what} stop start-up with one line saying why`, async () => {
    const { code, stderr } = await collect(start(env));
    assert.equal(code, 2);
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, new RegExp(needle));
  });
}

test('a bad THREADMARK_X_OPERATIONS file stops start-up with one line naming the bad key', async () => {
  const file = join(dir, 'bad-operations.json');
  writeFileSync(
    file,
    JSON.stringify({
      SearchTimeline: { queryId: 'fresh_id_1234', features: { rweb_video_timestamps_enabled: 'yes' } },
    }),
  );
  const { code, stderr } = await collect(start({ THREADMARK_X_OPERATIONS: file, THREADMARK_X_DISCOVER: 'false' }));
  assert.equal(code, 2);
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(
    lines[0]!,
    /THREADMARK_X_OPERATIONS .*SearchTimeline\.features\.rweb_video_timestamps_enabled must be true, false or null/,
  );
});

test('a secret is never echoed in the configuration error', async () => {
  const { stderr } = await collect(start({ THREADMARK_ADMIN_TOKEN: 'short' }));
  assert.match(stderr, /THREADMARK_ADMIN_TOKEN/);
  assert.doesNotMatch(stderr, /short"/);
});

test('starts, serves a post from the simulator, and shuts down on SIGTERM', async () => {
  const child = start({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    THREADMARK_BASE_URL: 'http://threadmark.test',
    THREADMARK_FXTWITTER_URL: sim.fxtwitterUrl,
    THREADMARK_SYNDICATION_URL: sim.syndicationUrl,
    THREADMARK_X_API_URL: sim.xApiUrl,
  });
  const exited = collect(child);
  // PORT=0: the kernel picks a free port, which the listen log line reports.
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no listen line in: ${out}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  const res = await fetch(`http://127.0.0.1:${port}/${HANDLES.alice}/status/${IDS.threadRoot}`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /alice_dev/);
  child.kill('SIGTERM');
  const { code } = await exited;
  assert.equal(code, 0);
});

test('a malformed THREADMARK_REDIS_URL stops start-up without printing its password', async () => {
  const password = 'Pr1vate-Redis-Pass';
  const child = start({ THREADMARK_REDIS_URL: `redis://default:${password}@redis.internal:not-a-port/0` });
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += d));
  const { code, stderr } = await collect(child);
  assert.equal(code, 2);
  assert.match(stderr, /THREADMARK_REDIS_URL/);
  assert.match(stderr, /redis\.internal/);
  for (const out of [stdout, stderr]) {
    assert.ok(!out.includes(password), out);
    assert.ok(!out.includes('Pr1vate'), out);
  }
});

test('an unreachable Redis is reported without the password of its URL', async () => {
  const password = 'Pr1vate-Redis-Pass';
  // Port 1 on loopback refuses at once: the service starts degraded and logs the outage.
  const child = start({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'debug',
    THREADMARK_REDIS_URL: `redis://default:${password}@127.0.0.1:1/0`,
    THREADMARK_FXTWITTER_URL: sim.fxtwitterUrl,
    THREADMARK_SYNDICATION_URL: sim.syndicationUrl,
    THREADMARK_X_API_URL: sim.xApiUrl,
  });
  const exited = collect(child);
  let stdout = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listen line in: ${stdout}`)), 20_000);
    child.stdout!.on('data', (d) => {
      stdout += d;
      if (/listening at/.test(stdout) && /redis unreachable/.test(stdout)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.kill('SIGTERM');
  const { stderr } = await exited;
  for (const out of [stdout, stderr]) assert.ok(!out.includes(password), out);
});

test('an unreachable PostgreSQL stops start-up with one line naming the variable, without its password', async () => {
  const password = 'Pr1vate-Pg-Pass';
  const { code, stderr } = await collect(
    start({ THREADMARK_DATABASE_URL: `postgres://postgres:${password}@127.0.0.1:1/test` }),
  );
  assert.equal(code, 1);
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0]!, /cannot use PostgreSQL \(THREADMARK_DATABASE_URL\)/);
  assert.doesNotMatch(stderr, new RegExp(password));
});
