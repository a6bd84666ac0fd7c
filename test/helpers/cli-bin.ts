// The real `threadmark` bin (or any command) as a child process, with only the environment a test gives it (plus PATH), so
// nothing leaks in from the test runner.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
export const BIN = join(ROOT, 'bin', 'threadmark.mjs');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export function runBin(args: string[], opts: RunOptions): Promise<Run> {
  return runProcess(process.execPath, [BIN, ...args], opts);
}

export async function runProcess(command: string, args: string[], opts: RunOptions): Promise<Run> {
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: { PATH: process.env.PATH ?? '', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Whether util-linux `script` is here to give the bin a pseudo-terminal. */
export function hasScript(): boolean {
  return spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
}

const shellQuote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** Runs the bin with a pseudo-terminal as stdout and stderr (util-linux `script`): both arrive in `stdout`. */
export function runBinInTerminal(args: string[], opts: RunOptions): Promise<Run> {
  const argv = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  return runProcess('script', ['-qec', argv, '/dev/null'], opts);
}
