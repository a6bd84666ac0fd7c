#!/usr/bin/env node
// The `threadmark` command. From a clone (dev dependencies installed) the TypeScript sources run through tsx, so
// the CLI is always the code you see; a production install (`npm ci --omit=dev`, the Docker image) has no tsx and
// runs the bundle `npm run build` made (dist/cli.mjs). The published package ships no sources, only the bundle,
// whether or not the project that installed it has a tsx of its own.
import { existsSync } from 'node:fs';

/** @typedef {typeof import('../src/cli/program.ts')} Cli the bundle has the same exports as the source */
/** @returns {Promise<Cli>} */
async function loadCli() {
  let tsx;
  try {
    if (!existsSync(new URL('../src/cli/program.ts', import.meta.url))) throw new Error('no sources: a packed install');
    tsx = await import('tsx/esm/api');
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- dist/ is build output, untyped and maybe absent
    return import('../dist/cli.mjs');
  }
  tsx.register();
  return import('../src/cli/program.ts');
}

// A reader that has gone away (`threadmark … | head -3`) ends the command at once and quietly, with exit 0. Node
// ignores SIGPIPE, so the next write would otherwise raise EPIPE with a stack trace while the command went on
// reading pages nobody reads; exiting here also drops whatever request is in flight.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (/** @type {NodeJS.ErrnoException} */ err) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

const { runCli } = await loadCli();
const outcome = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
if (outcome !== 'serving') {
  // Exit once both streams have flushed (pipes are asynchronous on some platforms), even if a library
  // left a timer or keep-alive socket behind.
  let pending = 2;
  const finish = () => --pending === 0 && process.exit(outcome);
  process.stdout.write('', finish);
  process.stderr.write('', finish);
}
