// `threadmark watch` through the real bin: create, list, show and delete against a running service (a delivery
// arrives at the callback), the usage error without a server, and the local mode printing a new post as it arrives.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HANDLES } from '../../sim/corpus.ts';
import { BIN, runBin } from '../helpers/cli-bin.ts';
import { startStack, upstreamEnv, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { until } from '../helpers/wait.ts';

describe('threadmark watch', () => {
  let s: Stack;
  let r: Receiver;
  let key: string;
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-cli-watch-'));

  before(async () => {
    s = await startStack({
      THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
      THREADMARK_WATCH_INTERVALS_MS: 'profile=100,search=100,thread=100,list=100',
    });
    r = await startReceiver();
    key = (await s.app.services.stores.keys.create({ name: 'cli' })).key;
  });
  after(async () => {
    await s.close();
    await r.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (args: string[]) => runBin(args, { cwd: dir, env: { THREADMARK_API_KEY: key } });

  test('create, list, show, delete against a running service', async () => {
    const created = await run([
      'watch',
      'create',
      `/${HANDLES.alice}`,
      '--callback',
      `${r.url}/cli`,
      '--server',
      s.url,
    ]);
    assert.equal(created.code, 0, created.stderr);
    const [first, secret] = created.stdout.trim().split('\n');
    const [id, state, source] = first!.split('\t');
    assert.match(id!, /^wh_[0-9a-f]{32}$/);
    assert.equal(state, 'active');
    assert.equal(source, `/${HANDLES.alice}`);
    assert.match(secret!, /^secret\twhsec_/);
    const list = await run(['watch', 'list', '--server', s.url]);
    assert.equal(list.code, 0);
    assert.ok(list.stdout.startsWith(`${id}\tactive\t/${HANDLES.alice}\t${r.url}/cli`));
    await until(
      async () => (await s.app.services.stores.watches.getMark(`profile:${HANDLES.alice}:posts`)) !== undefined,
      'first read',
    );
    s.sim.appendPost({ author: HANDLES.alice, text: 'Created from the command line.' });
    await until(() => r.of('POST').length === 1, 'the delivery');
    const shown = await run(['watch', 'show', id!, '--server', s.url]);
    assert.equal((JSON.parse(shown.stdout) as { id: string }).id, id);
    assert.equal((await run(['watch', 'delete', id!, '--server', s.url])).code, 0);
    const gone = await run(['watch', 'delete', id!, '--server', s.url]);
    assert.equal(gone.code, 3);
    assert.match(gone.stderr, /^threadmark: not_found: /);
  });

  test('create without a server is a usage error', async () => {
    const res = await run(['watch', 'create', `/${HANDLES.alice}`, '--callback', 'https://example.com/x']);
    assert.equal(res.code, 2);
    assert.match(res.stderr, /--server/);
  });

  test('follow prints a new post as it arrives (in-process)', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'watch', 'follow', `/${HANDLES.dave}`, '--interval', '0.1', '--count', '1'],
      {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ...upstreamEnv(s.sim), THREADMARK_KEYS_DB: join(dir, 'keys.db') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = once(child, 'exit');
    try {
      await until(() => stderr.includes('new posts appear below'), 'the first read', { limitMs: 30_000 });
      const id = s.sim.appendPost({ author: HANDLES.dave, text: 'Printed by the local follower.' });
      const [code] = (await exited) as [number];
      assert.equal(code, 0, stderr);
      assert.match(stdout, new RegExp(`Printed by the local follower\\. \\S+/status/${id}\\n$`));
    } finally {
      child.kill();
    }
  });
});
