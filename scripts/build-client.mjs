// The typed client as its own package (packages/client, `threadmark-client`): one ES module with no Node built-ins
// and no packages (it runs in browsers, Deno and Bun as in Node), and its declarations. tsc emits declarations for
// all of src/ (the same program `npm run typecheck` checks); the client's contract-types.d.ts is replaced by the
// types spelled out (scripts/client-types.mjs), and only the files the client's declarations then reach are kept,
// so the package ships no server internals as types and its declarations import no package.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractTypes } from './client-types.mjs';

/** Where the package's built files go, relative to the repository root. */
export const CLIENT_DIST = 'packages/client/dist';

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
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      const spec = String(m[1]);
      if (!spec.startsWith('.')) throw new Error(`${file} imports the package ${spec}`);
      visit(normalize(join(dirname(file), spec.replace(/\.ts$/, '.d.ts'))));
    }
  };
  visit(entry);
  return [...seen];
}

/** @param {string} ROOT the repository root, with its trailing slash */
export async function buildClient(ROOT) {
  const dist = join(ROOT, CLIENT_DIST);
  rmSync(dist, { recursive: true, force: true });
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/client/index.ts'],
    outfile: join(dist, 'index.mjs'),
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
  const all = join(ROOT, 'dist/types-all');
  rmSync(all, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.types.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  writeFileSync(join(all, 'client/contract-types.d.ts'), contractTypes(ROOT));
  const out = join(dist, 'types');
  for (const file of reachable(all, 'client/index.d.ts')) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    cpSync(join(all, file), join(out, file));
  }
  rmSync(all, { recursive: true, force: true });
}

// `npm pack` in packages/client (its prepack) builds the package alone.
if (process.argv[1] === fileURLToPath(import.meta.url))
  await buildClient(fileURLToPath(new URL('..', import.meta.url)));
