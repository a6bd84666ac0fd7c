// What the throwaway Redis setups (redis-cluster.ts, redis-sentinel.ts) share: the binaries, redis-cli against
// one node, an outright kill, and a bounded wait.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

export const REDIS_SERVER = process.env.THREADMARK_TEST_REDIS_SERVER ?? 'redis-server';
export const REDIS_CLI = process.env.THREADMARK_TEST_REDIS_CLI ?? 'redis-cli';

export function runnable(binary: string): boolean {
  return !spawnSync(binary, ['--version'], { stdio: 'ignore' }).error;
}

/** redis-cli against the loopback node on `port`; its stdout. */
export function redisCli(port: number, ...args: string[]): string {
  return (
    spawnSync(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 10_000 })
      .stdout ?? ''
  );
}

/** Kills a node outright, as a crash would. */
export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = once(child, 'exit');
  child.kill('SIGKILL');
  await gone;
}

export async function waitFor(cond: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`redis: timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** A data node on loopback with nothing written to disk, whose replicas sync at once instead of after 5 s. */
export function nodeArgs(port: number, dir: string): string[] {
  return `--port ${port} --bind 127.0.0.1 --appendonly no --dir ${dir} --repl-diskless-sync-delay 0`
    .split(' ')
    .concat(['--save', '']);
}
