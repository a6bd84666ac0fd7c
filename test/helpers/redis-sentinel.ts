// A throwaway Sentinel setup from Debian's redis-server and redis-sentinel on spare loopback ports: one master,
// one replica and three Sentinels (quorum 2) with a one-second down-after, so a failover completes in a few
// seconds. Plain exported functions, usable from a script as well as a test. CI (THREADMARK_REQUIRE_REDIS=1)
// fails rather than skips when a binary is missing.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  killChild,
  nodeArgs,
  REDIS_CLI as CLI,
  REDIS_SERVER as SERVER,
  redisCli as cli,
  runnable,
  waitFor,
} from './redis-procs.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './instance.ts';

const SENTINEL = process.env.THREADMARK_TEST_REDIS_SENTINEL ?? 'redis-sentinel';

const installed = [SERVER, CLI, SENTINEL].every(runnable);
if (!installed && process.env.THREADMARK_REQUIRE_REDIS) {
  throw new Error(`THREADMARK_REQUIRE_REDIS is set but ${SERVER}, ${SENTINEL} or ${CLI} cannot be run`);
}

/** `skip` option for suites that start Sentinels. */
export const redisSentinelSkip: string | false = installed
  ? false
  : `${SENTINEL}/${SERVER}/${CLI} not installed (set THREADMARK_REQUIRE_REDIS=1 to make this a failure)`;

export const SENTINEL_MASTER_NAME = 'tm-test-main';

export interface RedisSentinelSet {
  readonly masterName: string;
  /** `127.0.0.1:port,…` of the three Sentinels: the value of THREADMARK_REDIS_SENTINELS. */
  readonly sentinels: string;
  /** Data nodes (first the initial master, then the replica). */
  readonly dataPorts: readonly number[];
  /** The port the Sentinels currently name as master. */
  masterPort(): number | undefined;
  cli(port: number, ...args: string[]): string;
  /** Asks a Sentinel to fail over now (the master stays up and becomes a replica). */
  failover(): void;
  stop(): Promise<void>;
}

export async function startRedisSentinels(): Promise<RedisSentinelSet> {
  const dir = mkdtempSync(join(tmpdir(), 'tm-redis-sentinel-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(killChild));
    children.length = 0;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const master = await freePort();
    const replica = await freePort();
    children.push(spawn(SERVER, nodeArgs(master, dir), { stdio: 'ignore' }));
    children.push(
      spawn(SERVER, [...nodeArgs(replica, dir), '--replicaof', '127.0.0.1', String(master)], {
        stdio: 'ignore',
      }),
    );
    for (const p of [master, replica]) await waitFor(() => cli(p, 'ping').trim() === 'PONG', `redis ${p}`);
    await waitFor(() => /master_link_status:up/.test(cli(replica, 'info', 'replication')), 'replica in sync');
    const sentinelPorts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      sentinelPorts.push(port);
      // Sentinel rewrites its configuration file, so each one gets a writable file of its own.
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${master} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 1000`,
          `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 5000`,
          `sentinel parallel-syncs ${SENTINEL_MASTER_NAME} 1`,
          '',
        ].join('\n'),
      );
      children.push(spawn(SENTINEL, [conf], { stdio: 'ignore' }));
    }
    const masterPort = () => {
      const out = cli(sentinelPorts[0]!, 'sentinel', 'get-master-addr-by-name', SENTINEL_MASTER_NAME).trim();
      const port = Number(out.split('\n')[1]);
      return Number.isInteger(port) && port > 0 ? port : undefined;
    };
    // Every Sentinel knows the others and the replica before a failover can be agreed on.
    await waitFor(
      () =>
        sentinelPorts.every((p) => {
          const info = cli(p, 'sentinel', 'master', SENTINEL_MASTER_NAME);
          const num = (field: string) => Number(new RegExp(`^${field}\\n(\\d+)$`, 'm').exec(info)?.[1] ?? 0);
          return num('num-other-sentinels') === 2 && num('num-slaves') === 1;
        }),
      'sentinels agreed',
      20_000,
    );
    return {
      masterName: SENTINEL_MASTER_NAME,
      sentinels: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
      dataPorts: [master, replica],
      masterPort,
      cli,
      failover() {
        const out = cli(sentinelPorts[0]!, 'sentinel', 'failover', SENTINEL_MASTER_NAME);
        if (!/OK/.test(out)) throw new Error(`SENTINEL FAILOVER refused: ${out}`);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
