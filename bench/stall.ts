// (7) Bounded waits: with the default per-call timeout and deadline, every upstream stalls (accepts the request
// and never answers). A read with a cached copy must answer stale, a read without one the provider problem, both
// within 10 s. The baseline is the same reads with healthy upstreams, measured in the same run.
import { HANDLES, IDS } from '../sim/corpus.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { round } from './lib/stats.ts';
import { startService } from './lib/targets.ts';
import { timedGet } from './lib/timed-get.ts';

/** One request on a connection of its own (the shared keep-alive agent would queue the two reads). */
async function timedFetch(url: string, ip: string) {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { 'x-forwarded-for': ip } });
  await res.arrayBuffer();
  return {
    status: res.status,
    ms: performance.now() - t0,
    headers: { 'x-cache': res.headers.get('x-cache') ?? undefined },
  };
}

const LIMIT_MS = 10_000;

async function fault(simUrl: string, on: boolean): Promise<void> {
  await fetch(
    `${simUrl}/__sim/faults`,
    on ? { method: 'POST', body: JSON.stringify({ target: '*', kind: 'timeout' }) } : { method: 'DELETE' },
  );
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  // A one-second cache lifetime, so the cached copy is stale by the time the upstreams stall.
  const service = await startService(ctx.sim, { THREADMARK_CACHE_TTL_S: '1' }, ctx.serviceExecArgv);
  try {
    const cached = `${service.url}/${HANDLES.alice}/status/${IDS.thread[8]}?thread=off`;
    const uncached = `${service.url}/${HANDLES.alice}/status/${IDS.thread[9]}`;
    const healthy = await timedGet(cached, { 'x-forwarded-for': '192.0.2.77' });
    await new Promise((r) => setTimeout(r, 1100));
    await fault(ctx.sim.url, true);
    let stale;
    let problem;
    try {
      [stale, problem] = await Promise.all([timedFetch(cached, '192.0.2.78'), timedFetch(uncached, '192.0.2.79')]);
    } finally {
      await fault(ctx.sim.url, false);
    }
    const worst = Math.max(stale.ms, problem.ms);
    const med = {
      healthyMissMs: round(healthy.ms, 1),
      staleMs: round(stale.ms, 0),
      staleStatus: stale.status,
      staleIsStale: stale.headers['x-cache'] === 'stale' ? 1 : 0,
      problemMs: round(problem.ms, 0),
      problemStatus: problem.status,
      limitMs: LIMIT_MS,
    };
    return {
      name: 'stall',
      goal: 'every upstream stalled: stale copy, else the provider problem, within 10 s (default timeouts)',
      met: worst < LIMIT_MS && stale.status === 200 && med.staleIsStale === 1 && problem.status === 502,
      ratio: round(worst / LIMIT_MS),
      ratioOf: 'slowest answer with stalled upstreams ÷ the 10 s budget',
      median: med,
      rounds: [med],
      notes: [
        'defaults: 4 s per upstream call, 9 s per read (THREADMARK_UPSTREAM_TIMEOUT_MS, THREADMARK_UPSTREAM_DEADLINE_MS)',
      ],
    };
  } finally {
    await service.stop();
  }
}
