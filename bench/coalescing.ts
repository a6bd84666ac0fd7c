// (3) Coalescing: 100 concurrent cold reads of one post → upstream calls counted by the simulator (goal 1),
// against the baseline of 100 concurrent direct upstream requests (100 calls).
import { HANDLES, IDS } from '../sim/corpus.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { median, round } from './lib/stats.ts';
import { simCalls, startService } from './lib/targets.ts';

const CONCURRENCY = 100;
// A different cold post every round, read with thread=off (one upstream request when not coalesced).
const IDS_BY_ROUND = [IDS.thread[6]!, IDS.thread[7]!, IDS.thread[8]!, IDS.thread[9]!, IDS.thread[10]!];

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const service = await startService(ctx.sim, {}, ctx.serviceExecArgv);
  try {
    const rounds: Array<Record<string, number>> = [];
    for (let r = 0; r < Math.min(ctx.rounds, IDS_BY_ROUND.length); r++) {
      const id = IDS_BY_ROUND[r]!;
      const before = await simCalls(ctx.sim, id);
      const t0 = performance.now();
      const all = await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, i) =>
          fetch(`${service.url}/${HANDLES.alice}/status/${id}?thread=off`, {
            headers: { 'x-forwarded-for': `10.99.${r}.${i}` },
          }).then(async (res) => ({
            status: res.status,
            cache: res.headers.get('x-cache'),
            body: await res.arrayBuffer(),
          })),
        ),
      );
      const wallMs = performance.now() - t0;
      const serviceCalls = (await simCalls(ctx.sim, id)) - before;
      const ok = all.filter((x) => x.status === 200).length;
      // Baseline: the same burst straight at the upstream, which has nothing to share in-flight requests.
      const base0 = await simCalls(ctx.sim, id);
      await Promise.all(
        Array.from({ length: CONCURRENCY }, () =>
          fetch(`${ctx.sim.fxtwitterUrl}/2/status/${id}`).then((res) => res.arrayBuffer()),
        ),
      );
      const directCalls = (await simCalls(ctx.sim, id)) - base0;
      rounds.push({
        serviceUpstreamCalls: serviceCalls,
        directUpstreamCalls: directCalls,
        ok200: ok,
        misses: all.filter((x) => x.cache === 'miss').length,
        hits: all.filter((x) => x.cache === 'hit').length,
        wallMs: round(wallMs, 1),
        ratio: round(serviceCalls / directCalls),
      });
    }
    const med: Record<string, number> = {};
    for (const k of Object.keys(rounds[0]!)) med[k] = round(median(rounds.map((x) => x[k]!)));
    return {
      name: 'coalescing',
      goal: `${CONCURRENCY} concurrent cold reads of one post make 1 upstream call`,
      met: rounds.every((x) => x.serviceUpstreamCalls === 1 && x.ok200 === CONCURRENCY),
      ratio: med.ratio!,
      ratioOf: 'upstream calls via the service ÷ upstream calls of the same burst sent directly',
      median: med,
      rounds,
    };
  } finally {
    await service.stop();
  }
}
