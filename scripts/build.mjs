// `npm run build` (and `prestart`): bundles the service into dist/main.mjs for `npm start`. Plain node then
// runs one ES module: no tsx loader thread, no per-closure name helpers, no source-map handling at run
// time, which the benchmarks measured at about 45 MB of RSS and a share of every request (see bench/RESULTS.md).
// Packages stay external (native better-sqlite3, lazily imported SDKs); only our own TypeScript is bundled.
// Tests and `npm run dev`-style tools keep running the sources through tsx.
// esbuild is a dev dependency: a production install (`npm ci --omit=dev`) runs a bundle built beforehand (the
// Docker build stage does that), so without esbuild an existing bundle is used as it is.
// `node scripts/build.mjs --client` (`npm run build`) also builds the typed client's own package, packages/client
// (threadmark-client): its ES module for any JavaScript runtime and its declarations (scripts/build-client.mjs).
// `npm start` (prestart) leaves that out: the service and the CLI bundle the client's sources themselves.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles `entry` (relative to the repository root) into dist/<name>.mjs. Output stays one directory below
 * the root, where src/version.ts finds ../package.json at run time.
 */
export async function bundle(entry, name) {
  const outfile = `${ROOT}dist/${name}.mjs`;
  const { build } = await import('esbuild');
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

async function hasEsbuild() {
  try {
    await import('esbuild');
    return true;
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!(await hasEsbuild())) {
    if (!existsSync(`${ROOT}dist/main.mjs`) || !existsSync(`${ROOT}dist/cli.mjs`)) {
      console.error(
        'threadmark: esbuild (a dev dependency) is not installed and dist/ has no bundle: run `npm ci` (with dev dependencies) once to build it.',
      );
      process.exit(1);
    }
    console.error('threadmark: esbuild is not installed (production install); using the existing dist/ bundle.');
  } else {
    await bundle('src/main.ts', 'main');
    // The CLI for installs without tsx (dev dependency): bin/threadmark.mjs falls back to this bundle.
    await bundle('src/cli/program.ts', 'cli');
    if (process.argv.includes('--client')) {
      // Imported only here: the image's build stage copies this file alone (deploy/Dockerfile).
      const { buildClient } = await import('./build-client.mjs');
      await buildClient(ROOT);
    }
  }
}
