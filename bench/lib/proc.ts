// Child processes for the servers under test: the service, the simulator and the bare baseline each get
// their own process (and event loop), as in production, and report readiness over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundle } from '../../scripts/build.mjs';

export interface Child<M> {
  /** The first IPC message, sent by the child once it listens. */
  ready: M;
  proc: ChildProcess;
  send(msg: unknown): void;
  /** Waits for the next IPC message. */
  next<T>(): Promise<T>;
  stop: () => Promise<void>;
}

const TSX = ['--import', 'tsx'];

/**
 * The node flags of `npm start` (package.json), so a bundled child runs as the service does in production.
 * Read from the script itself: one source of truth.
 */
const START_FLAGS: string[] = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .filter((t) => t.startsWith('--'));

/** One bundle per server script and run, built the way `npm start` builds the service (scripts/build.mjs). */
const bundles = new Map<string, Promise<string>>();
function bundled(script: string): Promise<string> {
  let out = bundles.get(script);
  if (!out) {
    out = bundle(`bench/servers/${script}`, `bench-${script.replace(/\.ts$/, '')}`);
    bundles.set(script, out);
  }
  return out;
}

export async function startChild<M>(
  script: string,
  opts: {
    env?: Record<string, string>;
    execArgv?: string[];
    timeoutMs?: number;
    /** Run the script bundled with plain node, as `npm start` runs the service, instead of through tsx. */
    bundled?: boolean;
  } = {},
): Promise<Child<M>> {
  const path = opts.bundled ? await bundled(script) : fileURLToPath(new URL(`../servers/${script}`, import.meta.url));
  // stdout is discarded like a production log shipper would take it: the service still formats and writes.
  const proc = fork(path, [], {
    env: { ...process.env, ...opts.env },
    execArgv: [...(opts.bundled ? START_FLAGS : TSX), ...(opts.execArgv ?? [])],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const inbox: unknown[] = [];
  const waiters: Array<(m: unknown) => void> = [];
  proc.on('message', (m) => {
    const w = waiters.shift();
    if (w) w(m);
    else inbox.push(m);
  });
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (inbox.length) return resolve(inbox.shift() as T);
      const timer = setTimeout(
        () => reject(new Error(`${script}: no message within ${opts.timeoutMs ?? 30_000} ms`)),
        opts.timeoutMs ?? 30_000,
      );
      const exited = (code: number | null) => reject(new Error(`${script} exited with ${code}`));
      proc.once('exit', exited);
      waiters.push((m) => {
        clearTimeout(timer);
        proc.off('exit', exited);
        resolve(m as T);
      });
    });
  const ready = await next<M>();
  return {
    ready,
    proc,
    send: (msg) => proc.send(msg as never),
    next,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}
