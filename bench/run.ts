// `npm run bench [-- name...]`: every benchmark against its baseline in the same run, on loopback, a few
// minutes in all. Figures go to the console and to bench/results.json (untracked); bench/RESULTS.md keeps a
// dated summary of deliberate measurements.
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './lib/context.ts';
import { cpuLine, printResult, type BenchResult } from './lib/result.ts';
import { startSim } from './lib/targets.ts';
import { closeAgent } from './lib/timed-get.ts';
import { WRK_MISSING, wrkAvailable } from './lib/wrk.ts';
import * as cacheHit from './cache-hit.ts';
import * as encodedHit from './encoded-hit.ts';
import * as missOverhead from './miss-overhead.ts';
import * as coalescing from './coalescing.ts';
import * as render from './render.ts';
import * as memory from './memory.ts';
import * as redisHit from './redis-hit.ts';
import * as flood from './flood.ts';
import * as stall from './stall.ts';
import * as upstreamClient from './upstream-client.ts';
import * as vaultMedia from './vault-media.ts';
import * as push from './push.ts';

/** Benchmarks that drive load with wrk. */
const NEEDS_WRK = new Set(['cache-hit', 'encoded-hit', 'redis-hit', 'flood']);

const BENCHMARKS: Array<[string, (ctx: BenchContext) => Promise<BenchResult>]> = [
  ['cache-hit', cacheHit.run],
  ['encoded-hit', encodedHit.run],
  ['miss-overhead', missOverhead.run],
  ['coalescing', coalescing.run],
  ['render', render.run],
  ['memory', memory.run],
  ['redis-hit', redisHit.run],
  ['flood', flood.run],
  ['stall', stall.run],
  ['upstream-client', upstreamClient.run],
  ['vault-media', vaultMedia.run],
  ['push', push.run],
];

const args = process.argv.slice(2);
const only = args.filter((a) => !a.startsWith('--'));
const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const unknown = only.filter((n) => !BENCHMARKS.some(([b]) => b === n));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${BENCHMARKS.map(([b]) => b).join(', ')}`);
  process.exit(2);
}

const haveWrk = wrkAvailable();
if (!haveWrk)
  console.error(
    `\n*** ${WRK_MISSING}.\n*** The throughput benchmarks (${[...NEEDS_WRK].join(', ')}) will be reported as FAILED.\n`,
  );

const sim = await startSim();
const ctx: BenchContext = {
  sim: sim.info,
  rounds: Number(flag('rounds') ?? 3),
  durationS: Number(flag('duration') ?? 3),
  serviceExecArgv: flag('cpu-prof-dir') ? ['--cpu-prof', `--cpu-prof-dir=${flag('cpu-prof-dir')}`] : [],
};

const started = Date.now();
const results: BenchResult[] = [];
const failures: Array<{ name: string; error: string }> = [];
console.log(
  `threadmark bench: ${ctx.rounds} rounds, ${ctx.durationS} s per load measurement, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)}`,
);
try {
  for (const [name, run] of BENCHMARKS) {
    if (only.length && !only.includes(name)) continue;
    if (NEEDS_WRK.has(name) && !haveWrk) {
      failures.push({ name, error: WRK_MISSING });
      console.log(`\n[${name}] FAILED: ${WRK_MISSING}`);
      continue;
    }
    try {
      const r = await run(ctx);
      results.push(r);
      printResult(r);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      failures.push({ name, error });
      console.log(`\n[${name}] FAILED: ${error}`);
    }
  }
} finally {
  closeAgent();
  await sim.stop();
}

const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\nsummary (${seconds} s):`);
for (const r of results) {
  const verdict = r.inconclusive ? 'UNSURE' : r.met ? 'ok    ' : 'MISSED';
  console.log(`  ${verdict} ${r.name.padEnd(14)} ratio ${String(r.ratio).padEnd(8)} ${r.ratioOf}`);
  if (r.cpu) console.log(`         ${''.padEnd(14)} ${cpuLine(r.cpu)}`);
  if (r.inconclusive) console.log(`         ${''.padEnd(14)} ${r.inconclusive}`);
}
for (const f of failures) console.log(`  FAILED ${f.name.padEnd(14)} ${f.error}`);

const out = {
  when: new Date().toISOString(),
  node: process.version,
  cores: availableParallelism(),
  loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
  seconds,
  rounds: ctx.rounds,
  durationS: ctx.durationS,
  results,
  failures,
};
writeFileSync(fileURLToPath(new URL('./results.json', import.meta.url)), `${JSON.stringify(out, null, 2)}\n`);
process.exit(failures.length ? 1 : 0);
