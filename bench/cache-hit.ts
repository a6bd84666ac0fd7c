// (1) Cache-hit throughput under wrk: a cached post in compact Markdown, single (~0.6 KB) and a 12-post thread
// (~6 KB), against a bare node:http server writing the same bytes with the same headers, and a hook-less
// Fastify doing the same (the framework's own share of the gap), all measured in the same rounds.
// Goal: service ≥ 0.8 × bare on both sizes (0.9 is the aim).
import { HANDLES, IDS } from '../sim/corpus.ts';
import { capture, type Captured } from './lib/capture.ts';
import { compareUnderLoad } from './lib/compare.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { startBare, startService, type Target } from './lib/targets.ts';

/** One post with a photo, alone (~0.6 KB of compact Markdown). */
export const SINGLE_PATH = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
/** The 12-post self-thread without replies, expanded Markdown (~6 KB). */
export const THREAD_PATH = `/${HANDLES.alice}/status/${IDS.threadRoot}?replies=off&full=true`;
export const CONNECTIONS = 50;
export const GOAL = 0.8;

/** Reads `path` twice (the miss, then the hit) and returns the hit's bytes and headers. */
export async function warm(service: Target, path: string): Promise<Captured> {
  await capture(service.url + path);
  const hit = await capture(service.url + path);
  if (hit.status !== 200 || hit.headers['x-cache'] !== 'hit') {
    throw new Error(`expected a cached 200 for ${path}, got ${hit.status} x-cache=${hit.headers['x-cache']}`);
  }
  return hit;
}

/** Starts a service and warms the cache with the given paths. */
export async function warmService(ctx: BenchContext, paths: string[], env: Record<string, string> = {}) {
  const service = await startService(ctx.sim, env, ctx.serviceExecArgv);
  try {
    const hits = [];
    for (const p of paths) hits.push(await warm(service, p));
    return { service, hits };
  } catch (err) {
    await service.stop();
    throw err;
  }
}

async function measureSize(ctx: BenchContext, service: Target, path: string, hit: Captured) {
  const bare = await startBare(hit.body, hit.headers);
  const fastify = await startBare(hit.body, hit.headers, 'bare-fastify.ts');
  try {
    const opts = (t: Target) => ({
      url: t.url + path,
      serverPid: t.pid,
      connections: CONNECTIONS,
      durationS: ctx.durationS,
    });
    return await compareUnderLoad(
      [
        { label: 'bare', opts: opts(bare) },
        { label: 'fastify', opts: opts(fastify) },
        { label: 'service', opts: opts(service) },
      ],
      'bare',
      ctx.rounds,
    );
  } finally {
    await bare.stop();
    await fastify.stop();
  }
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const { service, hits } = await warmService(ctx, [SINGLE_PATH, THREAD_PATH]);
  try {
    const single = await measureSize(ctx, service, SINGLE_PATH, hits[0]!);
    const thread = await measureSize(ctx, service, THREAD_PATH, hits[1]!);
    // The service must have answered hits throughout: a 429 or error would make it look fast.
    const after = await capture(service.url + THREAD_PATH);
    const errors = single.median.serviceErrors! + thread.median.serviceErrors!;
    const bound = single.generatorBound ?? thread.generatorBound;
    const ratio = Math.min(single.ratios.service!, thread.ratios.service!);
    // The size with the lower CPU ratio, as `ratio` takes the lower throughput ratio.
    const worst = single.median.serviceCpuRatio! <= thread.median.serviceCpuRatio! ? single : thread;
    const prefix = (tag: string, m: Record<string, number>) =>
      Object.fromEntries(Object.entries(m).map(([k, v]) => [`${tag}.${k}`, v]));
    return {
      name: 'cache-hit',
      goal: `service ≥ ${GOAL} × bare node:http req/s on cached Markdown, single post and 12-post thread`,
      met: !bound && errors === 0 && after.headers['x-cache'] === 'hit' && ratio >= GOAL,
      ...(bound ? { inconclusive: bound } : {}),
      ratio,
      ratioOf: 'service req/s ÷ bare node:http req/s (the lower of the two sizes)',
      cpu: {
        ratio: worst.median.serviceCpuRatio!,
        baselineUs: worst.median.bareUsPerReq!,
        serviceUs: worst.median.serviceUsPerReq!,
      },
      median: {
        singleRatio: single.ratios.service!,
        threadRatio: thread.ratios.service!,
        singleFastifyRatio: single.ratios.fastify!,
        threadFastifyRatio: thread.ratios.fastify!,
        singleCpuRatio: single.median['serviceCpuRatio']!,
        threadCpuRatio: thread.median['serviceCpuRatio']!,
        singleBytes: hits[0]!.body.length,
        threadBytes: hits[1]!.body.length,
        ...prefix('single', single.median),
        ...prefix('thread', thread.median),
      },
      rounds: [...single.rounds.map((r) => ({ size: 0, ...r })), ...thread.rounds.map((r) => ({ size: 1, ...r }))],
      notes: [
        `GET ${SINGLE_PATH} and ${THREAD_PATH}; wrk, 1 thread, ${CONNECTIONS} connections, ${ctx.durationS} s per measurement, a new X-Forwarded-For per request (trusted proxy), identity coding`,
        'fastify*: Fastify 5 with no hooks replaying the same response; *Cpu: cores used by wrk and by the server during the run',
        "*CpuRatio: bare CPU time per request ÷ the service's (a second view of the same rounds, less sensitive to a busy machine)",
      ],
    };
  } finally {
    await service.stop();
  }
}
