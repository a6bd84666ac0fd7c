// (1) Cache-hit throughput: a cached post in compact Markdown under load, against a bare node:http server
// writing the same bytes with the same headers. Goal: ratio ≥ 0.9. A hook-less Fastify replaying the same
// response is measured in the same rounds, to show the framework's own share of the gap.
import { HANDLES, IDS } from '../sim/corpus.ts';
import { capture } from './lib/capture.ts';
import { compareUnderLoad } from './lib/compare.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { round } from './lib/stats.ts';
import { startBare, startService, type Target } from './lib/targets.ts';

export const HIT_PATH = `/${HANDLES.alice}/status/${IDS.threadRoot}`;
export const CONNECTIONS = 10;

/** Starts a service, reads the post once (the miss) and returns it with the hit response's bytes. */
export async function warmService(ctx: BenchContext, env: Record<string, string> = {}) {
  const service = await startService(ctx.sim, env, ctx.serviceExecArgv);
  await capture(service.url + HIT_PATH);
  const hit = await capture(service.url + HIT_PATH);
  if (hit.status !== 200 || hit.headers['x-cache'] !== 'hit') {
    await service.stop();
    throw new Error(`expected a cached 200, got ${hit.status} x-cache=${hit.headers['x-cache']}`);
  }
  return { service, hit };
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const { service, hit } = await warmService(ctx);
  const others: Target[] = [];
  try {
    const bare = await startBare(hit.body, hit.headers);
    others.push(bare);
    const fastify = await startBare(hit.body, hit.headers, 'bare-fastify.ts');
    others.push(fastify);
    const opts = (t: Target) => ({ url: t.url + HIT_PATH, connections: CONNECTIONS, durationS: ctx.durationS });
    const p = await compareUnderLoad({ label: 'service', opts: opts(service) }, { label: 'bare', opts: opts(bare) }, ctx.rounds);
    // The framework alone, against the same baseline (fewer rounds: it is context, not the goal).
    const f = await compareUnderLoad({ label: 'fastify', opts: opts(fastify) }, { label: 'bare', opts: opts(bare) }, Math.max(1, ctx.rounds - 1), 0.5);
    return {
      name: 'cache-hit',
      goal: 'service ≥ 0.9 × bare node:http throughput on a cached compact-Markdown post',
      met: p.ratio >= 0.9,
      ratio: p.ratio,
      ratioOf: 'service req/s ÷ bare node:http req/s',
      median: {
        ...p.median,
        hooklessFastifyRps: f.median.fastifyRps!,
        hooklessFastifyRatio: f.ratio,
        serviceVsHooklessFastify: round(p.ratio / f.ratio),
        bodyBytes: hit.body.length,
      },
      rounds: p.rounds,
      notes: [
        `GET ${HIT_PATH}, ${CONNECTIONS} connections, ${ctx.durationS} s per measurement, identity coding`,
        'hooklessFastify*: Fastify 5 with no hooks replaying the same response, ratio against bare in its own rounds',
      ],
    };
  } finally {
    for (const t of others) await t.stop();
    await service.stop();
  }
}
