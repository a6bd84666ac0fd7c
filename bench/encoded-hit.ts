// (1b) Cache hits as real clients ask for them: browsers, CDNs, `curl --compressed`, Node's fetch and most HTTP
// libraries send Accept-Encoding. Each read is measured three ways (no Accept-Encoding; `gzip, deflate`, as
// Python's requests asks; `gzip, deflate, br`, as Node's fetch asks) against a bare node:http server writing the
// very bytes and headers the service answered that request with, in the same rounds (median of per-round ratios).
// Four reads: one post under the compression threshold (answered identity whatever is asked), one over it (a long
// post), the 12-post thread, and the thread's last post read with its ancestors.
// Goal: service ≥ 0.85 × bare on every read and coding, ≥ 0.9 on the single posts.
import { HANDLES, IDS } from '../sim/corpus.ts';
import {
  CONNECTIONS,
  HIT_GOAL,
  LAST_PATH,
  REPLAYED_MIN,
  SINGLE_PATH,
  THREAD_PATH,
  againstBare,
  replayedShare,
  warmService,
} from './cache-hit.ts';
import { captureRaw, type Captured } from './lib/capture.ts';
import type { Compared } from './lib/compare.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';

/** A long post alone, over the compression threshold. */
export const LONG_PATH = `/${HANDLES.alice}/status/${IDS.noteTweet}?thread=off`;
const SINGLE_GOAL = 0.9;

const READS = [
  { tag: 'single', path: SINGLE_PATH, goal: SINGLE_GOAL },
  { tag: 'long', path: LONG_PATH, goal: SINGLE_GOAL },
  { tag: 'thread', path: THREAD_PATH, goal: HIT_GOAL },
  { tag: 'last', path: LAST_PATH, goal: HIT_GOAL },
] as const;

const ASKS = [
  { tag: 'identity', headers: {} },
  { tag: 'gzip', headers: { 'Accept-Encoding': 'gzip, deflate' } },
  { tag: 'br', headers: { 'Accept-Encoding': 'gzip, deflate, br' } },
] as const;

interface Measured {
  tag: string;
  path: string;
  goal: number;
  hit: Captured;
  c: Compared;
  replayed: number;
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const { service } = await warmService(
    ctx,
    READS.map((r) => r.path),
  );
  try {
    const measured: Measured[] = [];
    for (const r of READS) {
      for (const a of ASKS) {
        // The first ask of a coding makes its bytes; the one after is what every later client gets.
        await captureRaw(service.url + r.path, a.headers);
        const hit = await captureRaw(service.url + r.path, a.headers);
        if (hit.status !== 200 || hit.headers['x-cache'] !== 'hit') {
          throw new Error(`expected a cached 200 for ${r.path} (${a.tag}), got ${hit.status}`);
        }
        const c = await againstBare(ctx, service, r.path, hit, { headers: a.headers });
        const replayed = await replayedShare(service, r.path, a.headers);
        measured.push({ tag: `${r.tag}.${a.tag}`, path: r.path, goal: r.goal, hit, c, replayed });
      }
    }
    const offPath = measured.filter((m) => !(m.replayed >= REPLAYED_MIN)).map((m) => m.tag);
    const errors = measured.reduce((n, m) => n + m.c.median.serviceErrors!, 0);
    const bound = measured.find((m) => m.c.generatorBound)?.c.generatorBound;
    const missed = measured.filter((m) => !(m.c.ratios.service! >= m.goal)).map((m) => m.tag);
    const worst = measured.reduce((a, b) => (b.c.ratios.service! < a.c.ratios.service! ? b : a));
    const summary: Record<string, number> = {};
    for (const m of measured) {
      summary[`${m.tag}Ratio`] = m.c.ratios.service!;
      summary[`${m.tag}CpuRatio`] = m.c.median.serviceCpuRatio!;
      summary[`${m.tag}BareRps`] = m.c.median.bareRps!;
      summary[`${m.tag}BareWrkCpu`] = m.c.median.bareWrkCpu!;
      summary[`${m.tag}BareServerCpu`] = m.c.median.bareServerCpu!;
      summary[`${m.tag}Bytes`] = m.hit.body.length;
      summary[`${m.tag}Replayed`] = Math.round(m.replayed * 1000) / 1000;
    }
    return {
      name: 'encoded-hit',
      goal: `service ≥ ${HIT_GOAL} × bare node:http req/s on cached reads in identity, gzip and br (≥ ${SINGLE_GOAL} on single posts)`,
      met: !bound && errors === 0 && offPath.length === 0 && missed.length === 0,
      ...(bound ? { inconclusive: bound } : {}),
      ratio: worst.c.ratios.service!,
      ratioOf: `service req/s ÷ bare node:http req/s (the lowest: ${worst.tag})`,
      cpu: {
        ratio: worst.c.median.serviceCpuRatio!,
        baselineUs: worst.c.median.bareUsPerReq!,
        serviceUs: worst.c.median.serviceUsPerReq!,
      },
      median: summary,
      rounds: measured.flatMap((m, read) => m.c.rounds.map((r) => ({ read, ...r }))),
      notes: [
        `reads (read index in rounds = position): ${measured.map((m) => m.tag).join(', ')}`,
        `GET ${READS.map((r) => r.path).join(', ')}; Accept-Encoding: none, "gzip, deflate", "gzip, deflate, br"; wrk, 1 thread, ${CONNECTIONS} connections, ${ctx.durationS} s per measurement, a new X-Forwarded-For per request (trusted proxy)`,
        '*Bytes: the body as sent (coded when a coding was answered); *BareWrkCpu/*BareServerCpu: cores used by wrk and by the bare server',
        ...(missed.length ? [`under the goal: ${missed.join(', ')}`] : []),
        ...(offPath.length ? [`not answered by the hit path: ${offPath.join(', ')}`] : []),
      ],
    };
  } finally {
    await service.stop();
  }
}
