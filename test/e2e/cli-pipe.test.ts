// The real `threadmark` bin writing into a pipe whose reader goes away early (`threadmark … | head -2`): the command
// stops at once, reads no further pages, and exits 0 without a word on stderr, as Unix filters do.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { upstreamEnv } from '../helpers/stack.ts';
import { BIN } from '../helpers/cli-bin.ts';

let sim: Simulator;
let dir: string;
before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'threadmark-pipe-'));
});
after(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: string[];
  stderr: string;
}

/** Runs the bin in-process against the simulator; its stdout is read until `keep` lines arrived, then closed. */
async function runIntoClosingReader(args: string[], keep: number): Promise<Ended> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      ...upstreamEnv(sim),
      THREADMARK_KEYS_DB: join(dir, 'keys.db'),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  let out = '';
  const lines: string[] = [];
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (d) => {
      out += d;
      const complete = out.split('\n').slice(0, -1);
      if (complete.length >= keep) {
        lines.push(...complete.slice(0, keep));
        // The reader goes away, as `head` does: the pipe's read end is closed.
        child.stdout.destroy();
        resolve();
      }
    });
    child.stdout.on('end', () => resolve());
  });
  const [code, signal] = await exited;
  clearTimeout(timer);
  return { code, signal, lines, stderr };
}

test('followers --all into a reader that leaves after two lines: paging stops, exit 0, no stack trace', async () => {
  sim.resetCalls();
  const r = await runIntoClosingReader(['followers', HANDLES.big, '--all'], 2);
  assert.equal(r.lines[0], `# Followers of @${HANDLES.big}`);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /EPIPE|Error|at /);
  // 23 pages of followers in all; the first page alone answers the reader, and at most the page being read when
  // the pipe closed follows it.
  const pages = sim.calls({ target: 'fxtwitter', path: '/followers' });
  assert.ok(pages >= 1 && pages <= 3, `${pages} follower pages read after the reader left`);
});

test('read --format obsidian --out into a reader that leaves after one line: exit 0, no EPIPE', async () => {
  const vault = join(dir, 'vault');
  const r = await runIntoClosingReader(
    [
      'read',
      `${HANDLES.alice}/status/${IDS.threadRoot}`,
      '--format',
      'obsidian',
      '--out',
      vault,
      '--vault-notes',
      'post',
    ],
    1,
  );
  assert.match(r.lines[0]!, /^written\t/);
  assert.equal(r.code, 0, r.stderr);
  // Nothing but the run's summary, when the notes were all listed before the reader left.
  assert.match(r.stderr, /^(threadmark: notes in .*: \d+ written, \d+ unchanged\n)?$/);
});
