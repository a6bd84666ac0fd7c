// The bundled service (dist/, as `npm start` and the Docker image run it) finds the guides of docs/ it serves under
// /docs, as the sources do: both sit one directory below the repository root.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundle } from '../../scripts/build.mjs';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-bundle-guides-'));
let outfile: string | undefined;
after(() => {
  rmSync(dir, { recursive: true, force: true });
  if (outfile) for (const f of [outfile, `${outfile}.map`]) rmSync(f, { force: true });
});

test('the bundle serves /docs/api from docs/api.md', async () => {
  outfile = await bundle('src/main.ts', `guides-check-${process.pid}`);
  const child = spawn(process.execPath, [outfile], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      THREADMARK_KEYS_DB: join(dir, 'keys.db'),
      THREADMARK_BASE_URL: 'http://threadmark.test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.once('exit', (code) => reject(new Error(`exited ${code} before listening: ${err}`)));
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
    });
    const res = await fetch(`http://127.0.0.1:${port}/docs/api`);
    const body = await res.text();
    assert.equal(res.status, 200, body.slice(0, 300));
    assert.match(body, /<h1[^>]*>Using the API<\/h1>/);
    assert.ok(body.includes('B=http://threadmark.test'));
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
});
