// (1) Cache-hit throughput under wrk: cached posts in Markdown against a bare node:http server writing the same
// bytes with the same headers, a hook-less Fastify doing the same from a route handler, and a Fastify doing it from
// its first onRequest hook as the service's hit path does (the framework's own share of the gap), all measured in
// the same rounds. Three reads: one post alone (~0.6 KB), a 12-post thread from its root (~6 KB), and
// the last post of that thread by its bare permalink (~4 KB), the link people paste most: the default read walks
// up through its eleven ancestors, so the answer depends on more than one cache entry.
// Goal: service ≥ 0.85 × bare on every read.
import { HANDLES, IDS } from '../sim/corpus.ts';
import { capture, type Captured } from './lib/capture.ts';
import { compareUnderLoad, type Compared } from './lib/compare.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { startBare, startService, type ServiceTarget, type Target } from './lib/targets.ts';
import { load } from './lib/wrk.ts';

/** One post with a photo, alone (~0.6 KB of compact Markdown). */
export const SINGLE_PATH = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
/** The 12-post self-thread without replies, expanded Markdown (~6 KB). */
export const THREAD_PATH = `/${HANDLES.alice}/status/${IDS.threadRoot}?replies=off&full=true`;
/** The thread's last post with every default (whole thread, full context, top replies): its ancestors above it. */
export const LAST_PATH = `/${HANDLES.alice}/status/${IDS.threadLast}`;
export const CONNECTIONS = 50;
/** Redis-backed hits against in-process ones (redis-hit). */
export const GOAL = 0.8;
/** Cache hits against bare node:http. */
export const HIT_GOAL = 0.85;

/** The reads measured, by the tag their figures carry. */
const READS = [
  { tag: 'single', path: SINGLE_PATH },
  { tag: 'thread', path: THREAD_PATH },
  { tag: 'last', path: LAST_PATH },
] as const;

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

/** Below this share of a run answered by the cache-hit replay, the read is not on the fast path. */
export const REPLAYED_MIN = 0.99;

/**
 * The share of a short load run on `path` that the cache-hit replay answered (1 = every request; wrk does not
 * count the requests still in flight when it stops, so it can be a little above 1). NaN when the replay is off.
 */
export async function replayedShare(
  service: ServiceTarget,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const before = await service.replayed();
  const run = await load({
    url: service.url + path,
    serverPid: service.pid,
    connections: CONNECTIONS,
    durationS: 1,
    headers,
  });
  const after = await service.replayed();
  return before === null || after === null ? Number.NaN : (after - before) / run.requests;
}

/**
 * `service` on `path` against a bare node:http server writing `hit` (and, with `fastify`, a hook-less Fastify doing
 * the same), asked with `headers`, in alternating rounds.
 */
export async function againstBare(
  ctx: BenchContext,
  service: Target,
  path: string,
  hit: Captured,
  { headers = {}, fastify = false }: { headers?: Record<string, string>; fastify?: boolean } = {},
): Promise<Compared> {
  const bare = await startBare(hit.body, hit.headers);
  const hookless = fastify ? await startBare(hit.body, hit.headers, 'bare-fastify.ts') : undefined;
  const hook = fastify ? await startBare(hit.body, hit.headers, 'hook-fastify.ts') : undefined;
  try {
    const opts = (t: Target) => ({
      url: t.url + path,
      serverPid: t.pid,
      connections: CONNECTIONS,
      durationS: ctx.durationS,
      headers,
    });
    return await compareUnderLoad(
      [
        { label: 'bare', opts: opts(bare) },
        ...(hookless ? [{ label: 'fastify', opts: opts(hookless) }] : []),
        ...(hook ? [{ label: 'hook', opts: opts(hook) }] : []),
        { label: 'service', opts: opts(service) },
      ],
      'bare',
      ctx.rounds,
    );
  } finally {
    await bare.stop();
    await hookless?.stop();
    await hook?.stop();
  }
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const { service, hits } = await warmService(
    ctx,
    READS.map((r) => r.path),
  );
  try {
    const measured: Array<{ tag: string; path: string; hit: Captured; c: Compared; replayed: number }> = [];
    for (const [i, r] of READS.entries()) {
      const c = await againstBare(ctx, service, r.path, hits[i]!, { fastify: true });
      measured.push({ ...r, hit: hits[i]!, c, replayed: await replayedShare(service, r.path) });
    }
    // The service must have answered hits throughout: a 429 or error would make it look fast.
    const after = await Promise.all(READS.map((r) => capture(service.url + r.path)));
    const stillHit = after.every((a) => a.status === 200 && a.headers['x-cache'] === 'hit');
    // A read the replay does not answer is measured on the normal path: the figure would say nothing of the fast one.
    const offPath = measured.filter((m) => !(m.replayed >= REPLAYED_MIN)).map((m) => m.tag);
    const errors = measured.reduce((n, m) => n + m.c.median.serviceErrors!, 0);
    const bound = measured.find((m) => m.c.generatorBound)?.c.generatorBound;
    const ratio = Math.min(...measured.map((m) => m.c.ratios.service!));
    // The read with the lowest CPU ratio, as `ratio` takes the lowest throughput ratio.
    const worst = measured.reduce((a, b) => (b.c.median.serviceCpuRatio! < a.c.median.serviceCpuRatio! ? b : a));
    const prefix = (tag: string, m: Record<string, number>) =>
      Object.fromEntries(Object.entries(m).map(([k, v]) => [`${tag}.${k}`, v]));
    const summary: Record<string, number> = {};
    for (const m of measured) {
      summary[`${m.tag}Ratio`] = m.c.ratios.service!;
      summary[`${m.tag}FastifyRatio`] = m.c.ratios.fastify!;
      summary[`${m.tag}HookRatio`] = m.c.ratios.hook!;
      summary[`${m.tag}CpuRatio`] = m.c.median.serviceCpuRatio!;
      summary[`${m.tag}Bytes`] = m.hit.body.length;
      summary[`${m.tag}Replayed`] = Math.round(m.replayed * 1000) / 1000;
    }
    return {
      name: 'cache-hit',
      goal: `service ≥ ${HIT_GOAL} × bare node:http req/s on cached Markdown: single post, 12-post thread, last post with its ancestors`,
      met: !bound && errors === 0 && stillHit && offPath.length === 0 && ratio >= HIT_GOAL,
      ...(bound ? { inconclusive: bound } : {}),
      ratio,
      ratioOf: 'service req/s ÷ bare node:http req/s (the lowest of the three reads)',
      cpu: {
        ratio: worst.c.median.serviceCpuRatio!,
        baselineUs: worst.c.median.bareUsPerReq!,
        serviceUs: worst.c.median.serviceUsPerReq!,
      },
      median: measured.reduce((all, m) => ({ ...all, ...prefix(m.tag, m.c.median) }), summary),
      rounds: measured.flatMap((m, size) => m.c.rounds.map((r) => ({ size, ...r }))),
      notes: [
        `GET ${READS.map((r) => r.path).join(', ')} (sizes 0, 1, 2 in rounds); wrk, 1 thread, ${CONNECTIONS} connections, ${ctx.durationS} s per measurement, a new X-Forwarded-For per request (trusted proxy), identity coding`,
        'fastify*: Fastify 5 with no hooks replaying the same response from a route handler; hook*: Fastify 5 replaying it from an onRequest hook with no other work, the ceiling of an answer inside its lifecycle; *Cpu: cores used by wrk and by the server during the run',
        "*CpuRatio: bare CPU time per request ÷ the service's (a second view of the same rounds, less sensitive to a busy machine)",
        `*Replayed: share of a 1 s run on the read answered by the cache-hit replay (goal needs ≥ ${REPLAYED_MIN} on each)`,
        ...(offPath.length ? [`not answered by the cache-hit replay: ${offPath.join(', ')}`] : []),
      ],
    };
  } finally {
    await service.stop();
  }
}
