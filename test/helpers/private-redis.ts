// A redis-server of the run's own on a free loopback port, for measurements that read the server's global counters
// (INFO commandstats, INFO stats bytes) and must not count other processes' commands. Anything that starts
// shared state for instances takes a RedisBackend, so a cluster helper can stand in for this one.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { freePort } from './instance.ts';
import { refused, until } from './wait.ts';

export interface RedisCounters {
  /** Commands executed, INFO excluded. */
  commands: number;
  /** Bytes read from and written to clients. */
  bytesIn: number;
  bytesOut: number;
  /** Calls per command name. */
  perCommand: Record<string, number>;
}

/** Where the instances keep shared state, as the environment that points them there. */
export interface RedisBackend {
  /** THREADMARK_REDIS_URL (or the cluster's seed variable). */
  env: Record<string, string>;
  /** Summed over every node. */
  counters(): Promise<RedisCounters>;
  close(): Promise<void>;
}

async function countersOf(client: Redis): Promise<RedisCounters> {
  const [commandstats, stats] = await Promise.all([client.info('commandstats'), client.info('stats')]);
  const perCommand: Record<string, number> = {};
  let commands = 0;
  for (const m of commandstats.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (m[1] === 'info') continue;
    perCommand[m[1]!] = Number(m[2]);
    commands += Number(m[2]);
  }
  const num = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
  return { commands, bytesIn: num('total_net_input_bytes'), bytesOut: num('total_net_output_bytes'), perCommand };
}

/** The difference between two readings, `overhead` (what one reading itself costs) taken out. */
export function counterDelta(a: RedisCounters, b: RedisCounters, overhead?: RedisCounters): RedisCounters {
  const perCommand: Record<string, number> = {};
  for (const [k, v] of Object.entries(b.perCommand)) {
    const d = v - (a.perCommand[k] ?? 0);
    if (d) perCommand[k] = d;
  }
  return {
    commands: b.commands - a.commands - (overhead?.commands ?? 0),
    bytesIn: b.bytesIn - a.bytesIn - (overhead?.bytesIn ?? 0),
    bytesOut: b.bytesOut - a.bytesOut - (overhead?.bytesOut ?? 0),
    perCommand,
  };
}

/** Starts redis-server (no persistence) on a free loopback port. */
export async function startPrivateRedis(): Promise<RedisBackend & { url: string }> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: 'ignore' },
  );
  let exited = false;
  child.once('exit', () => (exited = true));
  await until(async () => exited || !(await refused(port)), 'redis-server to listen', { limitMs: 10_000 });
  if (exited) throw new Error('redis-server exited at start');
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(port, '127.0.0.1', { lazyConnect: false, maxRetriesPerRequest: 1 });
  return {
    url,
    env: { THREADMARK_REDIS_URL: url },
    counters: () => countersOf(client),
    async close() {
      client.disconnect();
      if (child.exitCode === null && child.signalCode === null) {
        const gone = once(child, 'exit');
        child.kill('SIGTERM');
        await gone;
      }
    },
  };
}
