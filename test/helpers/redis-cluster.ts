// A throwaway Redis Cluster from Debian's redis-server on loopback ports of its own: three masters, one replica
// each, a short node timeout so a killed master's replica takes over within a couple of seconds. Plain exported
// functions with no test-runner dependency, so scripts (npm run scale) start one too. CI
// (THREADMARK_REQUIRE_REDIS=1) fails rather than skips when redis-server or redis-cli is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  killChild,
  nodeArgs,
  REDIS_CLI as CLI,
  REDIS_SERVER as SERVER,
  redisCli as cli,
  runnable,
  waitFor,
} from './redis-procs.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const installed = [SERVER, CLI].every(runnable);
if (!installed && process.env.THREADMARK_REQUIRE_REDIS) {
  throw new Error(`THREADMARK_REQUIRE_REDIS is set but ${SERVER} or ${CLI} cannot be run`);
}

/** `skip` option for suites that start a cluster. */
export const redisClusterSkip: string | false = installed
  ? false
  : `${SERVER}/${CLI} not installed (set THREADMARK_REQUIRE_REDIS=1 to make this a failure)`;

export interface RedisClusterOptions {
  masters?: number;
  replicasPerMaster?: number;
  /** cluster-node-timeout: how long a master may be silent before its replica is promoted. */
  nodeTimeoutMs?: number;
}

export interface RedisCluster {
  /** Every node's port, masters first as created. */
  readonly ports: readonly number[];
  /** `127.0.0.1:port,…`: the value of THREADMARK_REDIS_CLUSTER. */
  readonly seeds: string;
  /** Runs redis-cli against one node; stdout. */
  cli(port: number, ...args: string[]): string;
  /** Ports of the current masters. */
  masters(): number[];
  /** Port of the master serving the slot of `key` (its hash tag, if any), by the cluster's own map. */
  masterOf(key: string): number | undefined;
  /** Kills a node outright, as a crash would. */
  kill(port: number): Promise<void>;
  /** Waits until every slot is served again (after a failover). */
  waitHealthy(limitMs?: number): Promise<void>;
  stop(): Promise<void>;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A port whose cluster bus port (port + 10000) is free too, below the ephemeral range. */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    if (taken.has(port) || taken.has(port + 10000)) continue;
    if ((await canListen(port)) && (await canListen(port + 10000))) {
      taken.add(port).add(port + 10000);
      return port;
    }
  }
}

export async function startRedisCluster(opts: RedisClusterOptions = {}): Promise<RedisCluster> {
  const masters = opts.masters ?? 3;
  const replicas = opts.replicasPerMaster ?? 1;
  const nodeTimeout = opts.nodeTimeoutMs ?? 1000;
  const dir = mkdtempSync(join(tmpdir(), 'tm-redis-cluster-'));
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < masters * (1 + replicas); i++) ports.push(await clusterPort(taken));
  const children = new Map<number, ChildProcess>();
  const stop = async () => {
    await Promise.all([...children.values()].map((c) => killChild(c)));
    children.clear();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const child = spawn(
        SERVER,
        [
          ...nodeArgs(port, dir),
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--cluster-node-timeout',
          String(nodeTimeout),
          // A replica promotes however long it was cut off: a test kills masters on purpose.
          '--cluster-replica-validity-factor',
          '0',
        ],
        { stdio: 'ignore' },
      );
      children.set(port, child);
    }
    for (const port of ports) await waitFor(() => cli(port, 'ping').trim() === 'PONG', `node ${port}`, 10_000);
    const created = spawnSync(
      CLI,
      [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        String(replicas),
        '--cluster-yes',
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`);
    const cluster: RedisCluster = {
      ports,
      seeds: ports.map((p) => `127.0.0.1:${p}`).join(','),
      cli,
      masters: () =>
        ports.filter((p) => children.has(p) && /^role:master$/m.test(cli(p, 'info', 'replication').replace(/\r/g, ''))),
      masterOf(key) {
        const live = [...children.keys()];
        const slot = Number(cli(live[0]!, 'cluster', 'keyslot', key).trim());
        for (const line of cli(live[0]!, 'cluster', 'nodes').split('\n')) {
          const f = line.trim().split(' ');
          if (!f[2]?.includes('master') || f[2].includes('fail') || f[7] !== 'connected') continue;
          const port = Number(/:(\d+)@/.exec(f[1] ?? '')?.[1]);
          for (const range of f.slice(8)) {
            const [lo, hi = lo] = range.split('-').map(Number);
            if (lo !== undefined && hi !== undefined && slot >= lo && slot <= hi) return port;
          }
        }
        return undefined;
      },
      async kill(port) {
        const child = children.get(port);
        children.delete(port);
        if (child) await killChild(child);
      },
      async waitHealthy(limitMs = 20_000) {
        await waitFor(
          () =>
            [...children.keys()].every((p) => {
              const info = cli(p, 'cluster', 'info').replace(/\r/g, '');
              return /cluster_state:ok/.test(info) && /cluster_slots_ok:16384/.test(info);
            }),
          'every slot served',
          limitMs,
        );
      },
      stop,
    };
    await cluster.waitHealthy();
    // Every replica attached and in sync, so a killed master has a replica with its data to promote.
    await waitFor(
      () =>
        cluster.masters().length === masters &&
        ports.every((p) => {
          const info = cli(p, 'info', 'replication');
          return /role:master/.test(info) || /master_link_status:up/.test(info);
        }) &&
        cluster.masters().every((p) => /connected_slaves:[1-9]/.test(cli(p, 'info', 'replication'))),
      'replicas in sync',
      20_000,
    );
    return cluster;
  } catch (err) {
    await stop();
    throw err;
  }
}
