// The optional engines (src/engines.ts) load on first use only: the service's modules import none of them at start,
// so an instance in embedded mode, or one that never writes a zip, never holds their code.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

const ENGINES = ['ioredis', 'pg', 'bullmq', 'yazl', 'yauzl', 'standardwebhooks', 'better-sqlite3'];

/** The engines a fresh process has loaded after running `script` (an ES module body). */
function loadedAfter(script: string): string[] {
  const probe = `
    import { createRequire } from 'node:module';
    ${script}
    const names = Object.keys(createRequire(import.meta.url).cache)
      .map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1])
      .filter((n) => ${JSON.stringify(ENGINES)}.includes(n));
    console.log(JSON.stringify([...new Set(names)].sort()));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as string[];
}

test('the composition root, the server and every route load none of the optional engines', () => {
  assert.deepEqual(loadedAfter("await import('./src/compose.ts');"), []);
});

test('an engine is loaded when it is first asked for (the probe sees loads)', () => {
  const script = "const { engines } = await import('./src/engines.ts'); engines.yazl(); engines.pg();";
  assert.deepEqual(loadedAfter(script), ['pg', 'yazl']);
});
