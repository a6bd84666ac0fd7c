// The shipped edge configurations run for real: Varnish with deploy/varnish.vcl and HAProxy with
// deploy/haproxy.cfg, on loopback ports of their own, pointed at services started by the caller. Used by the CDN
// test and by npm run scale.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './instance.ts';
import { refused, until } from './wait.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
export const VCL_PATH = join(ROOT, 'deploy/varnish.vcl');
export const HAPROXY_PATH = join(ROOT, 'deploy/haproxy.cfg');
const run = promisify(execFile);
/** Debian installs both daemons in /usr/sbin, which a non-root PATH may lack. */
const SBIN_PATH = `${process.env.PATH ?? ''}:/usr/sbin:/usr/local/sbin`;

export interface Address {
  host: string;
  port: number;
}

export interface Edge {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface VarnishEdge extends Edge {
  /** varnishstat's counters (MAIN.cache_hit, MAIN.fetch_304, ...). */
  counters(): Promise<Record<string, number>>;
}

/** The shipped VCL with its backend pointed at `backend`; throws if the file no longer has the expected lines. */
export function vclFor(backend: Address): string {
  const vcl = readFileSync(VCL_PATH, 'utf8');
  const out = vcl
    .replace(/\.host = "[^"]*";/, `.host = "${backend.host}";`)
    .replace(/\.port = "[^"]*";/, `.port = "${backend.port}";`);
  if (out === vcl || !out.includes(`.port = "${backend.port}";`))
    throw new Error('deploy/varnish.vcl: no backend to point');
  return out;
}

/** The shipped HAProxy configuration listening on `port`, balancing over `servers`. */
export function haproxyFor(port: number, servers: readonly Address[]): string {
  const cfg = readFileSync(HAPROXY_PATH, 'utf8');
  const lines = cfg.split('\n');
  const first = lines.findIndex((l) => /^\s+server\s/.test(l));
  if (first < 0 || !/^\s+bind :\d+$/m.test(cfg)) throw new Error('deploy/haproxy.cfg: no bind or server lines');
  const kept = lines.filter((l) => !/^\s+server\s/.test(l));
  kept.splice(first, 0, ...servers.map((s, i) => `    server threadmark-${i + 1} ${s.host}:${s.port}`));
  return kept.join('\n').replace(/^(\s+)bind :\d+$/m, `$1bind 127.0.0.1:${port}`);
}

async function started(child: ChildProcess, port: number, what: string, output: () => string): Promise<void> {
  let exited = false;
  child.once('exit', () => (exited = true));
  await until(async () => exited || !(await refused(port)), `${what} to listen`, { limitMs: 30_000, stepMs: 100 });
  if (exited) throw new Error(`${what} exited: ${output()}`);
}

/** Spawns `command` in the foreground and waits for `port` to listen; on failure kills it and removes `dir`. */
async function daemon(command: string, args: string[], port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: SBIN_PATH } });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  try {
    await started(child, port, command, () => output);
    return child;
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = once(child, 'exit');
  child.kill('SIGTERM');
  await gone;
}

/** varnishd in the foreground with the shipped VCL in front of `backend`. */
export async function startVarnish(backend: Address): Promise<VarnishEdge> {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-varnish-'));
  const vclFile = join(dir, 'threadmark.vcl');
  writeFileSync(vclFile, vclFor(backend));
  const port = await freePort();
  const name = join(dir, 'n');
  const args = [
    '-F',
    '-j',
    'none',
    '-n',
    name,
    '-a',
    `127.0.0.1:${port}`,
    '-T',
    'none',
    '-f',
    vclFile,
    '-s',
    'malloc,64m',
  ];
  const child = await daemon('varnishd', args, port, dir);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async counters() {
      const { stdout } = await run('varnishstat', ['-n', name, '-1', '-j'], {
        env: { ...process.env, PATH: SBIN_PATH },
      });
      const json = JSON.parse(stdout) as { counters?: Record<string, { value: number }> };
      const out: Record<string, number> = {};
      for (const [k, v] of Object.entries(json.counters ?? json)) if (typeof v?.value === 'number') out[k] = v.value;
      return out;
    },
    async close() {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** HAProxy in the foreground with the shipped configuration over `servers`. */
export async function startHaproxy(servers: readonly Address[]): Promise<Edge> {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-haproxy-'));
  const cfgFile = join(dir, 'haproxy.cfg');
  const port = await freePort();
  writeFileSync(cfgFile, haproxyFor(port, servers));
  const child = await daemon('haproxy', ['-db', '-f', cfgFile], port, dir);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
