#!/usr/bin/env node
// The `threadmark` command. The sources are TypeScript, so tsx (a runtime dependency) is registered as
// the module loader before they are imported; this works from a clone (npx threadmark) and a global install.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/program.ts');
const outcome = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
if (outcome !== 'serving') {
  // Exit once both streams have flushed (pipes are asynchronous on some platforms), even if a library
  // left a timer or keep-alive socket behind.
  let pending = 2;
  const finish = () => --pending === 0 && process.exit(outcome);
  process.stdout.write('', finish);
  process.stderr.write('', finish);
}
