// Type-checking a program that uses threadmark-client, as a reader's project would: strict, ES modules, the
// project's own TypeScript.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from './cli-bin.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

/** Writes `dir`/tsconfig.json for `files` (strict NodeNext, no emit, `extra` on top) and runs tsc; its output on failure. */
export async function typeCheck(
  dir: string,
  files: string[],
  extra: Record<string, unknown>,
): Promise<{ ok: boolean; output: string }> {
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    ...extra,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  const r = await runProcess(process.execPath, [TSC, '-p', dir], { cwd: dir, env: {}, timeoutMs: 240_000 });
  return { ok: r.code === 0, output: r.stdout + r.stderr };
}
