// `npm run build` (and `prestart`): bundles the service into dist/main.mjs for `npm start`. Plain node then
// runs one ES module: no tsx loader thread, no per-closure name helpers, no source-map handling at run
// time, which the benchmarks measured at about 45 MB of RSS and a share of every request (see README).
// Packages stay external (native better-sqlite3, lazily imported SDKs); only our own TypeScript is bundled.
// Tests and `npm run dev`-style tools keep running the sources through tsx.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles `entry` (relative to the repository root) into dist/<name>.mjs. Output stays one directory below
 * the root, where src/version.ts finds ../package.json at run time.
 */
export async function bundle(entry, name) {
  const outfile = `${ROOT}dist/${name}.mjs`;
  await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle('src/main.ts', 'main');
}
