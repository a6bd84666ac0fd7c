// `npm run demo` starts and stops like a program: a taken port is one line on stderr and exit 1 (as `npm start`),
// and a SIGTERM to the npm that runs it, as a process manager sends, stops both the service and the simulator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../helpers/instance.ts';
import { runProcess } from '../helpers/cli-bin.ts';
import { refused, until } from '../helpers/wait.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const DEMO = `${ROOT}scripts/demo.ts`;

/** A port this test holds, so the demo finds it taken. */
async function holdPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  return {
    port: (srv.address() as { port: number }).port,
    release: () => new Promise((resolve) => srv.close(() => resolve())),
  };
}

for (const which of ['PORT', 'SIM_PORT'] as const) {
  test(`a taken ${which}: one line on stderr, exit 1, nothing left listening`, { timeout: 120_000 }, async () => {
    const held = await holdPort();
    const other = await freePort();
    try {
      const ports = which === 'PORT' ? { PORT: held.port, SIM_PORT: other } : { PORT: other, SIM_PORT: held.port };
      const r = await runProcess(process.execPath, ['--import', 'tsx', DEMO], {
        cwd: ROOT,
        env: { PORT: String(ports.PORT), SIM_PORT: String(ports.SIM_PORT), HOST: '127.0.0.1' },
        timeoutMs: 90_000,
      });
      assert.equal(r.code, 1, r.stderr);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0]!, new RegExp(`^threadmark demo: .*${held.port}.*in use`), r.stderr);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.ok(await refused(other), 'the other server is not left listening');
    } finally {
      await held.release();
    }
  });
}

test('SIGTERM to npm run demo stops both the service and the simulator', { timeout: 180_000 }, async () => {
  const [port, simPort] = [await freePort(), await freePort()];
  const npm = spawn('npm', ['run', 'demo'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: `${port}`, SIM_PORT: `${simPort}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout.on('data', (d) => (out += d));
  npm.stderr.on('data', (d) => (out += d));
  try {
    const deadline = Date.now() + 120_000;
    while (!out.includes('try:')) {
      if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`the demo did not start: ${out}`);
      await sleep(100);
    }
    assert.equal(await refused(port), false);
    assert.equal(await refused(simPort), false);
    npm.kill('SIGTERM');
    await until(async () => (await refused(port)) && (await refused(simPort)), 'both ports to close', {
      limitMs: 30_000,
      stepMs: 100,
    });
  } finally {
    if (npm.exitCode === null) npm.kill('SIGKILL');
  }
});
