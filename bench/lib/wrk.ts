// Closed-loop load with wrk (a C load generator, Debian package `wrk`): N connections, each sending its next
// request when the previous answer arrives, every request from its own client address (rotate-ip.lua).
// While it runs, the CPU time of wrk and of the server under test is sampled from /proc, so a measurement
// bound by the load generator (wrk's thread saturated while the server still has room) can be told apart
// from one bound by the server.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface LoadOptions {
  url: string;
  /** Pid of the server under test, for its CPU share. */
  serverPid: number;
  connections?: number;
  threads?: number;
  durationS?: number;
  headers?: Record<string, string>;
  /** `cycle` (default): a range of addresses reused in turn; `unique`: a new address for every request. */
  mode?: 'cycle' | 'unique';
  /** How many addresses the run may use (a unique-mode run wraps after this many). */
  addresses?: number;
  /** Stop after this many seconds even if the run is longer (a flood's own guard). */
  timeoutS?: number;
}

export interface LoadFigures {
  rps: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses with status ≥ 400 plus socket errors and timeouts. */
  errors: number;
  /** CPU used by wrk and by the server while loaded, in cores (1 = one core busy all the time). */
  wrkCpu: number;
  serverCpu: number;
}

const SCRIPT = fileURLToPath(new URL('./rotate-ip.lua', import.meta.url));
const TICKS_PER_S = 100;

/** Where `wrk` is, or undefined when it is not installed. */
export function wrkAvailable(): boolean {
  const r = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  return !r.error && /wrk/i.test(`${r.stdout}${r.stderr}`);
}

export const WRK_MISSING =
  'wrk is not installed: the throughput benchmarks need it (Debian/Ubuntu: `apt-get install -y wrk`; macOS: `brew install wrk`)';

/** utime + stime of a process, all threads, in seconds (Linux /proc). */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

// Each run takes a fresh block of addresses, so counters from earlier runs (same minute) never add up.
let nextAddress = 1 << 16;

export function load(opts: LoadOptions): Promise<LoadFigures> {
  const threads = opts.threads ?? 1;
  const durationS = opts.durationS ?? 3;
  const addresses = opts.addresses ?? 65_536;
  const first = nextAddress;
  nextAddress = (nextAddress + addresses) % (1 << 24);
  const headerArgs = Object.entries(opts.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const args = [
    '-t',
    String(threads),
    '-c',
    String(opts.connections ?? 50),
    '-d',
    `${durationS}s`,
    '--timeout',
    '5s',
    ...headerArgs,
    '-s',
    SCRIPT,
    opts.url,
    '--',
    String(first),
    String(addresses),
    opts.mode ?? 'cycle',
    String(threads),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let threadsDone = 0;
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      out += text;
      // A unique-mode run is over when every thread has sent its share; wrk prints its figures on SIGINT.
      threadsDone += text.split('WRK_THREAD_DONE').length - 1;
      if (threadsDone >= threads) child.kill('SIGINT');
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // CPU shares over the loaded part of the run: first sample after start-up, last one just before the end.
    let first: { t: number; wrk: number; server: number } | undefined;
    let last: typeof first;
    const sample = () => {
      const w = cpuSeconds(child.pid!);
      const s = cpuSeconds(opts.serverPid);
      if (w === undefined || s === undefined) return;
      const now = { t: performance.now() / 1000, wrk: w, server: s };
      if (!first) first = now;
      else last = now;
    };
    const startTimer = setTimeout(() => {
      sample();
      timer = setInterval(sample, 200);
    }, 300);
    let timer: NodeJS.Timeout | undefined;
    const guard = opts.timeoutS ? setTimeout(() => child.kill('SIGINT'), opts.timeoutS * 1000) : undefined;
    child.on('error', (e) => reject(e));
    child.on('exit', (code) => {
      clearTimeout(startTimer);
      if (timer) clearInterval(timer);
      if (guard) clearTimeout(guard);
      const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
      if (!line) return reject(new Error(`wrk exited with ${code} without figures: ${err.trim() || out.trim()}`));
      const j = JSON.parse(line.slice('WRK_JSON '.length)) as Record<string, number>;
      const span = first && last ? last.t - first.t : 0;
      resolve({
        rps: j.requests! / (j.durationUs! / 1e6),
        requests: j.requests!,
        p50Ms: j.p50Us! / 1000,
        p99Ms: j.p99Us! / 1000,
        errors: j.status! + j.connect! + j.read! + j.write! + j.timeout!,
        wrkCpu: span > 0 ? (last!.wrk - first!.wrk) / span : Number.NaN,
        serverCpu: span > 0 ? (last!.server - first!.server) / span : Number.NaN,
      });
    });
  });
}
