// (5) Memory: RSS of a fresh service after filling its in-process cache with 10,000 posts (goal ≤ 120 MB),
// against the same process idle, and the LRU byte bound.
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { startChild } from './lib/proc.ts';
import { median, round } from './lib/stats.ts';
import { BENCH_ENV } from './lib/targets.ts';

type Fill = Record<string, number>;

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const rounds: Fill[] = [];
  // Each round is a fresh process: RSS is a process-wide figure.
  for (let r = 0; r < Math.min(ctx.rounds, 2); r++) {
    const child = await startChild<Fill>('fill.ts', {
      bundled: true,
      execArgv: ['--expose-gc'],
      timeoutMs: 120_000,
      env: {
        ...BENCH_ENV,
        THREADMARK_FXTWITTER_URL: ctx.sim.fxtwitterUrl,
        THREADMARK_SYNDICATION_URL: ctx.sim.syndicationUrl,
        THREADMARK_X_API_URL: ctx.sim.xApiUrl,
        LOG_LEVEL: 'silent',
      },
    });
    await child.stop();
    rounds.push({ ...child.ready, ratio: round(child.ready.filledRssMb! / child.ready.idleRssMb!) });
  }
  const med: Record<string, number> = {};
  for (const k of Object.keys(rounds[0]!)) med[k] = round(median(rounds.map((x) => x[k]!)), 2);
  return {
    name: 'memory',
    goal: 'RSS ≤ 120 MB with 10,000 posts offered to the in-process cache; the LRU byte bound holds',
    met: med.filledRssMb! <= 120 && med.defaultBoundHeld === 1 && med.smallBoundHeld === 1,
    ratio: med.ratio!,
    ratioOf: 'RSS after the fill ÷ RSS of the same process idle',
    median: med,
    rounds,
    notes: [
      'the default LRU keeps up to 10,000 entries (DEFAULT_CACHE_MAX_ENTRIES) within 20 MB of JSON (DEFAULT_CACHE_MAX_BYTES): every post is kept',
      'the fill process is bundled and started with the node flags of `npm start`, as the service runs in production',
      'small bound: the same posts through an LRU bounded at 1 MB',
    ],
  };
}
