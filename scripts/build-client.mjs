// The typed client as the package publishes it (`threadmark/client`): one ES module with no Node built-ins and no
// packages (it runs in browsers, Deno and Bun as in Node), and its declarations. tsc emits declarations for all of
// src/ (the same program `npm run typecheck` checks); only the files the client's declarations reach are kept, so
// the package ships no server internals as types. The read contract's declarations spell its zod schemas out
// structurally, so what is kept imports nothing but zod.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * The declaration files reachable from `entry` through relative imports.
 * @param {string} root
 * @param {string} entry
 * @returns {string[]}
 */
function reachable(root, entry) {
  /** @type {Set<string>} */
  const seen = new Set();
  /** @param {string} file */
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      visit(normalize(join(dirname(file), String(m[1]).replace(/\.ts$/, '.d.ts'))));
    }
  };
  visit(entry);
  return [...seen];
}

/** @param {string} ROOT the repository root, with its trailing slash */
export async function buildClient(ROOT) {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/client/index.ts'],
    outfile: `${ROOT}dist/client.mjs`,
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  const all = join(ROOT, 'dist/types-all');
  rmSync(all, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.types.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  const out = join(ROOT, 'dist/types');
  rmSync(out, { recursive: true, force: true });
  for (const file of reachable(all, 'client/index.d.ts')) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    cpSync(join(all, file), join(out, file));
  }
  rmSync(all, { recursive: true, force: true });
}
