// `npm run demo` (scripts/demo.ts) as a newcomer runs it: its start-up output says where everything is and which
// settings move it, and following the walk-through's searches and exports does not run into rate limits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { runProcess } from '../helpers/cli-bin.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const DEMO = `${ROOT}scripts/demo.ts`;

async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as { port: number }).port;
  srv.close();
  await once(srv, 'close');
  return port;
}

let demo: ChildProcess;
let out = '';
let base: string;

before(async () => {
  const [port, simPort] = [await freePort(), await freePort()];
  demo = spawn(process.execPath, ['--import', 'tsx', DEMO], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), SIM_PORT: String(simPort), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  demo.stdout!.on('data', (d) => (out += d));
  demo.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 90_000;
  while (!out.includes('try:')) {
    if (demo.exitCode !== null || Date.now() > deadline) throw new Error(`the demo did not start: ${out}`);
    await sleep(100);
  }
  base = `http://127.0.0.1:${port}`;
  assert.ok(out.includes(`:${simPort}`), out);
});
after(async () => {
  if (demo.exitCode === null) {
    const exited = once(demo, 'exit');
    demo.kill('SIGTERM');
    await exited;
  }
});

test('the start-up output names PORT and SIM_PORT, the docs URL, and the raised allowances', () => {
  assert.match(out, /\bPORT\b/);
  assert.match(out, /\bSIM_PORT\b/);
  assert.match(out, /\/docs\b/);
  assert.match(out, /allowances/i);
  assert.match(out, /search-ip/);
  assert.match(out, /export-ip/);
});

test('--help documents PORT and SIM_PORT and exits 0 without starting anything', async () => {
  const r = await runProcess(process.execPath, ['--import', 'tsx', DEMO, '--help'], { cwd: ROOT, timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /PORT\b.*8080/);
  assert.match(r.stdout, /SIM_PORT\b.*8090/);
  assert.doesNotMatch(r.stdout, /try:/);
});

test('a walk-through of searches and exports stays inside the demo allowances', async () => {
  // Production allows 5 live searches a minute and 5 exports per 15 minutes per address.
  for (let i = 0; i < 12; i++) {
    const search = await fetch(`${base}/api/v1/search?q=caching+${i}&format=json`);
    assert.equal(search.status, 200, `search ${i + 1}`);
    await search.arrayBuffer();
  }
  for (let i = 0; i < 8; i++) {
    const exp = await fetch(`${base}/api/v1/profiles/alice_dev/posts?max_posts=5`);
    assert.equal(exp.status, 200, `export ${i + 1}`);
    await exp.arrayBuffer();
  }
});
