// `npm run capacity`: the capacity model of docs/capacity.md measured on this machine. Measures each read class's
// cost against the simulator and a Redis of its own, checks the formulas against a mixed run (printed side by
// side, 20 % tolerance), measures one instance's CPU per hit and per miss in a child process, and prints the sizes
// the model gives for 1, 10 and 100 million reads a day. Loopback only; about a minute.
import { readFileSync } from 'node:fs';
import { startSimulator } from '../sim/server.ts';
import { TEST_BASE } from '../test/helpers/stack.ts';
import { simEnv, spawnInstance } from '../test/helpers/instance.ts';
import { startPrivateRedis } from '../test/helpers/private-redis.ts';
import { calibrate, realisticMix, runMix, sessionsCheck, within, type ClassDef } from './lib/capacity-sim.ts';
import { SESSIONS, sessionsFile, startCapacityStack } from './lib/capacity-stack.ts';
import {
  instancesFor,
  perRead,
  sessionsFor,
  upstreamPerSecond,
  type ClassCost,
  type MixClass,
} from './lib/capacity-model.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** User + system CPU seconds of a process so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** One instance in a child process: CPU per miss (distinct posts) and per hit (one post again and again). */
async function instanceCpu(classes: readonly ClassDef[]): Promise<{ hitUs: number; missUs: number }> {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const redis = await startPrivateRedis();
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-capacity-cpu-'));
  const inst = await spawnInstance({
    ...simEnv(sim),
    ...redis.env,
    THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
    THREADMARK_X_SESSIONS: sessionsFile(dir),
    THREADMARK_TRUST_PROXY: 'true',
  }).catch(async (err: unknown) => {
    await redis.close();
    await sim.close();
    throw err;
  });
  try {
    const posts = classes.find((c) => c.name === 'post')!.keys;
    const pid = inst.child.pid!;
    let ip = 0;
    const get = async (path: string) => {
      ip++;
      const res = await fetch(inst.url + path, { headers: { 'x-forwarded-for': `10.9.${ip >> 8}.${ip & 255}` } });
      await res.arrayBuffer();
    };
    await get(posts[0]!);
    let t0 = cpuSeconds(pid);
    for (const p of posts.slice(1)) await get(p);
    const missUs = ((cpuSeconds(pid) - t0) / (posts.length - 1)) * 1e6;
    const hits = 2000;
    t0 = cpuSeconds(pid);
    for (let i = 0; i < hits; i += 8) await Promise.all(Array.from({ length: 8 }, () => get(posts[1]!)));
    const hitUs = ((cpuSeconds(pid) - t0) / hits) * 1e6;
    return { hitUs, missUs };
  } finally {
    await inst.stop();
    await redis.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printCosts(costs: Record<string, ClassCost>): void {
  console.log('\nCost of one read, by class (miss / first hit / repeat hit):');
  console.log('class          upstream calls per miss      up bytes  Redis ops         Redis bytes');
  for (const [name, c] of Object.entries(costs)) {
    const calls =
      Object.entries(c.upstreamCalls)
        .map(([k, v]) => `${k} ${fmt(v, 2)}`)
        .join(', ') || '-';
    console.log(
      `${name.padEnd(14)} ${calls.padEnd(28)} ${fmt(c.upstreamBytes, 0).padStart(8)}  ` +
        `${fmt(c.redisOps.miss)}/${fmt(c.redisOps.hit)}/${fmt(c.redisOps.repeat)}`.padEnd(18) +
        `${fmt(c.redisBytes.miss, 0)}/${fmt(c.redisBytes.hit, 0)}/${fmt(c.redisBytes.repeat, 0)}`,
    );
  }
}

/** The sizes the model gives for a daily volume, with the assumptions named in docs/capacity.md. */
function sizes(
  classes: readonly ClassDef[],
  costs: Record<string, ClassCost>,
  cpu: { hitUs: number; missUs: number },
): void {
  const HIT = 0.9;
  const CDN = 0.6;
  const PEAK = 3;
  const X_LIMIT = 50;
  const mix: MixClass[] = classes.map((c) => ({ name: c.name, share: c.share, hitRatio: HIT, repeatShare: 0.9 }));
  const per = perRead(mix, costs);
  const xPerRead = per.upstreamCalls.x ?? 0;
  const allUp = Object.values(per.upstreamCalls).reduce((a, b) => a + b, 0);
  console.log(
    `\nSizes (service hit ratio ${HIT}, CDN answers ${CDN}, peak ${PEAK}× the daily mean, X limit ${X_LIMIT} per 15 min):`,
  );
  console.log(
    'reads/day   peak reads/s at instances  instances  Redis ops/s  Redis MB/s  upstream calls/s  X calls/s  X sessions',
  );
  for (const m of [1e6, 1e7, 1e8]) {
    const rps = (m / 86_400) * PEAK * (1 - CDN);
    const inst = instancesFor(rps, HIT, 1e6 / cpu.hitUs, 1e6 / cpu.missUs);
    const x = upstreamPerSecond(m, CDN, xPerRead, PEAK);
    console.log(
      `${fmt(m / 1e6, 0).padStart(4)} M    ${fmt(rps).padStart(12)}               ${String(inst).padStart(4)}   ` +
        `${fmt(rps * per.redisOps, 0).padStart(10)}  ${fmt((rps * per.redisBytes) / 1e6, 2).padStart(9)}  ` +
        `${fmt(upstreamPerSecond(m, CDN, allUp, PEAK), 2).padStart(15)}  ${fmt(x, 3).padStart(9)}  ${String(sessionsFor(x, X_LIMIT)).padStart(9)}`,
    );
  }
}

const started = Date.now();
const s = await startCapacityStack();
let failed = false;
const classes = realisticMix(TEST_BASE, 60);
let costs: Record<string, ClassCost>;
try {
  costs = await calibrate(s, classes);
  printCosts(costs);
  const run = await runMix(s, classes, costs, 1000);
  console.log(`\nMixed run of 1,000 reads (statuses ${JSON.stringify(run.statuses)}): formula vs measured`);
  for (const c of run.comparisons) {
    const ok = within(c);
    failed ||= !ok;
    console.log(
      `  ${c.figure.padEnd(40)} ${fmt(c.predicted, 0).padStart(10)} ${fmt(c.measured, 0).padStart(10)}  ` +
        `${fmt(c.measured / (c.predicted || 1), 3)}  ${ok ? 'ok' : 'OFF BY MORE THAN 20 %'}`,
    );
  }
  const w = await sessionsCheck(s, SESSIONS, 4, costs['media search']?.upstreamCalls.x ?? 1);
  failed ||= !within(w);
  console.log(`  ${w.figure.padEnd(40)} ${fmt(w.predicted, 0).padStart(10)} ${fmt(w.measured, 0).padStart(10)}`);
} finally {
  await s.close();
}
const cpu = await instanceCpu(classes);
console.log(
  `\nOne instance, CPU per read: hit ${fmt(cpu.hitUs, 0)} µs (${fmt(1e6 / cpu.hitUs, 0)}/s per core), ` +
    `miss ${fmt(cpu.missUs, 0)} µs (${fmt(1e6 / cpu.missUs, 0)}/s per core)`,
);
sizes(classes, costs, cpu);
console.log(`\n${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = failed ? 1 : 0;
