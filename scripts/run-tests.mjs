// Runs every *.test.ts under test/ with Node's own runner (tsx as the TypeScript loader).
// Node 20's runner does not discover .ts files itself, so the list is built here.
// A test (or hook) that runs past five minutes fails instead of holding the whole run until CI gives up, and a test
// file whose tests are over exits even if a server it started (for a service that then failed to start) still
// listens (--test-force-exit).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

/** @param {string} dir @returns {string[]} */
function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...collect(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = collect('test').filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)));
const res = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-reporter=spec',
    '--test-concurrency=2',
    '--test-timeout=300000',
    '--test-force-exit',
    ...files,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
);
process.stdout.write(res.stdout ?? '');
const pass = Number(/ℹ pass (\d+)/.exec(res.stdout ?? '')?.[1] ?? 0);
const fail = Number(/ℹ fail (\d+)/.exec(res.stdout ?? '')?.[1] ?? 0);
const skipped = Number(/ℹ skipped (\d+)/.exec(res.stdout ?? '')?.[1] ?? 0);
const failed = fail + (res.status !== 0 && fail === 0 ? 1 : 0);
console.log(`${pass} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ''));
// exitCode, not exit(): writes to a pipe are asynchronous, and exit() would cut the report (and this summary)
// short when the output is piped, as in `npm test | tail`.
process.exitCode = res.status === 0 && failed === 0 && pass > 0 ? 0 : 1;
