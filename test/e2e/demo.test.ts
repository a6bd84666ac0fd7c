// `npm run demo` (scripts/demo.ts) as a newcomer runs it: its start-up output says where everything is and which
// settings move it, and following the walk-through's searches and exports does not run into rate limits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDS } from '../../sim/corpus.ts';
import { runBin, runProcess } from '../helpers/cli-bin.ts';
import { startReceiver } from '../helpers/receiver.ts';
import { readZip } from '../helpers/zip.ts';
import { until } from '../helpers/wait.ts';

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
let dir: string;

/** The `export NAME=value` lines of the start-up output, as the shell would set them. */
function exported(): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const m of out.matchAll(/^\s*export (THREADMARK_[A-Z_]+)=(.*)$/gm)) {
    vars[m[1]!] = m[2]!.replace(/^'(.*)'$/, '$1');
  }
  return vars;
}

before(async () => {
  const [port, simPort] = [await freePort(), await freePort()];
  dir = mkdtempSync(join(tmpdir(), 'threadmark-demo-test-'));
  // Run from an empty folder (the loader named by its path there), to see the demo leave it empty.
  demo = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), DEMO], {
    cwd: dir,
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
  rmSync(dir, { recursive: true, force: true });
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

test('the start-up output gives every export line the CLI needs: server, media hosts, a demo API key', () => {
  const vars = exported();
  assert.equal(new URL(vars.THREADMARK_SERVER!).port, new URL(base).port, out);
  assert.match(vars.THREADMARK_MEDIA_HOSTS ?? '', /pbs\.twimg\.com=http:\/\/127\.0\.0\.1:\d+/, out);
  assert.match(vars.THREADMARK_API_KEY ?? '', /^\S{20,}$/, out);
  assert.match(
    out,
    /local callbacks[^\n]*\n[^\n]*this is the demo/,
    'the notice that local callbacks are the demo only',
  );
  assert.match(out, /__sim\/posts/, 'how to add a simulated post');
  assert.deepEqual(readdirSync(dir), [], 'the demo leaves its working directory as it was');
});

test('with the exports, the CLI saves media from the demo (--media)', { timeout: 120_000 }, async () => {
  const vault = mkdtempSync(join(dir, '..', 'threadmark-demo-vault-'));
  try {
    const r = await runBin(
      [
        'read',
        `alice_dev/status/${IDS.threadPhoto}`,
        '--thread',
        'off',
        '--format',
        'obsidian',
        '--out',
        vault,
        '--media',
      ],
      { cwd: vault, env: { ...exported(), HOME: vault }, timeoutMs: 90_000 },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /media: [1-9]\d* fetched/, r.stderr);
    assert.doesNotMatch(r.stderr, /warning|failed/i, r.stderr);
    assert.ok(readdirSync(join(vault, 'attachments')).some((f) => /\.(png|jpg|gif|webp|mp4)$/.test(f)));
  } finally {
    rmSync(vault, { recursive: true, force: true });
  }
});

test(
  'a webhook watch with the demo key and a local callback fires on a simulated post',
  { timeout: 180_000 },
  async () => {
    const receiver = await startReceiver();
    try {
      const created = await runBin(['watch', 'create', '/alice_dev', '--callback', `${receiver.url}/hook`], {
        cwd: ROOT,
        env: exported(),
        timeoutMs: 60_000,
      });
      assert.equal(created.code, 0, created.stderr);
      const sim = /curl -X POST '([^']+\/__sim\/posts)'/.exec(out)?.[1];
      assert.ok(sim, out);
      const posted = await fetch(sim, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ author: 'alice_dev', text: 'A new post for the demo watch' }),
      });
      assert.equal(posted.status, 201);
      await until(
        () => receiver.of('POST').some((r) => r.body.includes('A new post for the demo watch')),
        'the webhook',
        { limitMs: 120_000, stepMs: 250 },
      );
    } finally {
      await receiver.close();
    }
  },
);

test("the demo's service fetches media from the simulator: format=zip&media=local holds attachments", async () => {
  const res = await fetch(`${base}/api/v1/profiles/alice_dev/posts?max_posts=30&format=zip&media=local`);
  assert.equal(res.status, 200);
  const zip = readZip(Buffer.from(await res.arrayBuffer()));
  assert.ok(
    [...zip.keys()].some((n) => /^attachments\/[0-9a-f]{32}\.\w+$/.test(n)),
    [...zip.keys()].join(' '),
  );
});
