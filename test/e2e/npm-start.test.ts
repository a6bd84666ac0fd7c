// `npm start` as people run it: npm, the shell npm runs the script in, and the service under them. A SIGTERM or
// SIGINT to any of them ends the service with its drain (listener closed, stores closed, exit), rather than leaving
// a re-parented service holding the port.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { simEnv } from '../helpers/instance.ts';
import { refused, until } from '../helpers/wait.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
let sim: Simulator;
let dir: string;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'threadmark-npm-start-'));
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The parent pid of a process, from /proc (undefined once it is gone). */
function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) is in parentheses and may hold spaces; the parent pid is the 2nd field after it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Gone, or a zombie waiting for whoever adopted it to reap it: either way it no longer runs. */
function ended(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^[0-9]+$/.test(d))
    .map(Number)
    .filter((p) => parentOf(p) === pid);
}

interface Started {
  npm: ChildProcess;
  /** The service's own pid and port, from its "listening" log line. */
  pid: number;
  port: number;
  log(): string;
}

async function npmStart(args: string[]): Promise<Started> {
  const npm = spawn('npm', ['start', ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      ...simEnv(sim),
      THREADMARK_KEYS_DB: join(dir, `keys-${Date.now()}.db`),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout.on('data', (d) => (out += d));
  npm.stderr.on('data', (d) => (out += d));
  // The first run builds dist/ (prestart) on a loaded machine: give it time.
  const deadline = Date.now() + 120_000;
  let listening: { pid: number; port: number } | undefined;
  while (!listening) {
    const m = /\{[^\n]*"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"[^\n]*\}/.exec(out);
    if (m) listening = { pid: (JSON.parse(m[0]) as { pid: number }).pid, port: Number(m[1]) };
    else if (npm.exitCode !== null || Date.now() > deadline) {
      npm.kill('SIGKILL');
      throw new Error(`npm start did not listen: ${out}`);
    }
    await sleep(100);
  }
  return { npm, ...listening, log: () => out };
}

async function assertDrained(s: Started): Promise<void> {
  try {
    await until(() => ended(s.pid), 'the service to exit', { limitMs: 15_000, stepMs: 50 });
    assert.ok(await refused(s.port), 'port closed');
    assert.match(s.log(), /"msg":"shutting down"/, 'the documented drain ran');
  } finally {
    if (!ended(s.pid)) process.kill(s.pid, 'SIGKILL');
    if (s.npm.exitCode === null) s.npm.kill('SIGKILL');
  }
}

test('SIGTERM to npm ends the service npm start started, with its drain', { timeout: 180_000 }, async () => {
  const s = await npmStart([]);
  assert.equal((await fetch(`http://127.0.0.1:${s.port}/healthz`)).status, 200);
  s.npm.kill('SIGTERM');
  await assertDrained(s);
});

test('SIGINT to the process npm started ends the service, with its drain', { timeout: 180_000 }, async () => {
  // dist/ was built by the first test; the script runs without its prestart build.
  assert.ok(existsSync(join(ROOT, 'dist', 'main.mjs')));
  const s = await npmStart(['--ignore-scripts']);
  const [started] = childrenOf(s.npm.pid!);
  assert.ok(started !== undefined, 'npm started a process');
  process.kill(started, 'SIGINT');
  await assertDrained(s);
});

test(
  'npm killed outright (SIGKILL, nothing forwarded) still ends the service, with its drain',
  { timeout: 180_000 },
  async () => {
    const s = await npmStart(['--ignore-scripts']);
    s.npm.kill('SIGKILL');
    await assertDrained(s);
  },
);
