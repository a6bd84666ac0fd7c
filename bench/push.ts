// Push: upstream reads per interval of one watched source with 1, 100 and 10,000 followers (goal: one read per
// interval, whatever the followers), and the delivery latency from the upstream change (a post appended to the
// simulator) to each callback receiving it (p50, p99). The service runs in this process (embedded mode, SQLite
// watch store); watches go straight into its store, the receiver is a loopback HTTP server.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NO_FILTER } from '../src/domain/feed-filters.ts';
import { composeRuntime } from '../src/compose.ts';
import { loadConfig } from '../src/config.ts';
import { HANDLES } from '../sim/corpus.ts';
import { startReceiver } from '../test/helpers/receiver.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { percentile, round } from './lib/stats.ts';
import { simCalls } from './lib/targets.ts';

const INTERVAL_MS = 500;
/** Intervals the read count is watched over after the change. */
const WINDOW_INTERVALS = 6;
const CASES: Array<{ followers: number; handle: string }> = [
  { followers: 1, handle: HANDLES.carol },
  { followers: 100, handle: HANDLES.dave },
  { followers: 10_000, handle: HANDLES.big },
];

async function until(cond: () => boolean | Promise<boolean>, what: string, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-bench-push-'));
  const arrivals: number[] = [];
  const receiver = await startReceiver(() => {
    arrivals.push(performance.now());
    return { status: 204 };
  });
  const config = loadConfig({
    THREADMARK_FXTWITTER_URL: ctx.sim.fxtwitterUrl,
    THREADMARK_SYNDICATION_URL: ctx.sim.syndicationUrl,
    THREADMARK_X_API_URL: ctx.sim.xApiUrl,
    THREADMARK_PROVIDERS: 'fxtwitter,syndication',
    THREADMARK_KEYS_DB: join(dir, 'keys.db'),
    THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
    THREADMARK_WATCH_INTERVALS_MS: `profile=${INTERVAL_MS}`,
    LOG_LEVEL: 'silent',
  });
  const app = await composeRuntime(config, { logger: false });
  const { follow } = app.push;
  const rounds: Array<Record<string, number>> = [];
  try {
    for (const { followers, handle } of CASES) {
      const sourceKey = `profile:${handle}:posts`;
      for (let i = 0; i < followers; i++) {
        await follow.store.addWatch({
          id: `wh_${randomUUID().replaceAll('-', '')}`,
          keyId: 'bench',
          source: `/${handle}`,
          sourceKey,
          target: { kind: 'profile', handle, feed: 'posts' },
          filter: NO_FILTER,
          callback: `${receiver.url}/w${i}`,
          secret: follow.newSecret(),
          state: 'active',
          createdAt: new Date().toISOString(),
        });
      }
      await follow.follow(sourceKey, 'profile');
      await until(async () => (await follow.store.getMark(sourceKey)) !== undefined, 'the first read', 30_000);
      arrivals.length = 0;
      const readsBefore = follow.stats.reads;
      const callsBefore = await simCalls(ctx.sim, handle);
      const t0 = performance.now();
      const res = await fetch(`${ctx.sim.url}/__sim/posts`, {
        method: 'POST',
        body: JSON.stringify({ author: handle, text: `Benchmark post for ${followers} followers.` }),
      });
      if (res.status !== 201) throw new Error(`the simulator refused the post: ${res.status}`);
      const progress = setInterval(
        () => console.log(`  [push] ${followers} followers: ${arrivals.length} delivered`),
        10_000,
      );
      try {
        await until(() => arrivals.length >= followers, `${followers} deliveries`, 400_000);
      } finally {
        clearInterval(progress);
      }
      const latencies = arrivals.map((t) => t - t0);
      // Reads over a fixed window after the change (at least WINDOW_INTERVALS intervals, the deliveries included).
      const windowEnd = t0 + Math.max(WINDOW_INTERVALS * INTERVAL_MS, performance.now() - t0);
      await sleep(Math.max(0, windowEnd - performance.now()));
      const intervals = (performance.now() - t0) / INTERVAL_MS;
      const reads = follow.stats.reads - readsBefore;
      const calls = (await simCalls(ctx.sim, handle)) - callsBefore;
      rounds.push({
        followers,
        reads,
        intervals: round(intervals, 1),
        readsPerInterval: round(reads / intervals),
        upstreamCallsPerRead: round(calls / Math.max(1, reads), 2),
        deliveries: arrivals.length,
        latencyP50Ms: round(percentile(latencies, 50), 1),
        latencyP99Ms: round(percentile(latencies, 99), 1),
      });
      await follow.queue.unschedule(sourceKey);
    }
  } finally {
    await app.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const worst = Math.max(...rounds.map((r) => r.readsPerInterval!));
  const median: Record<string, number> = {};
  for (const r of rounds) {
    const n = r.followers!;
    median[`readsPerInterval_${n}`] = r.readsPerInterval!;
    median[`latencyP50Ms_${n}`] = r.latencyP50Ms!;
    median[`latencyP99Ms_${n}`] = r.latencyP99Ms!;
  }
  return {
    name: 'push',
    goal: `at most one upstream read of a watched source per ${INTERVAL_MS} ms interval, for 1, 100 and 10,000 followers`,
    met: worst <= 1,
    ratio: worst,
    ratioOf: 'worst upstream reads per interval (goal ≤ 1)',
    median,
    rounds,
    notes: [
      'latency = upstream change to callback receipt; it includes the wait for the next read (up to one interval)',
      'one "round" per follower count, each on its own source',
    ],
  };
}
