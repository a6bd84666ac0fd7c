// (6) Distributed mode: cache hits under wrk against a service on the Redis backend (its own key prefix),
// compared with an in-process service in the same rounds. Goal: ≥ 0.8 × in-process (one Redis round trip
// per cached read).
import { randomBytes } from 'node:crypto';
import type { BenchContext } from './lib/context.ts';
import { compareUnderLoad } from './lib/compare.ts';
import type { BenchResult } from './lib/result.ts';
import { CONNECTIONS, GOAL, SINGLE_PATH, warmService } from './cache-hit.ts';

/**
 * Three processes (wrk, the service, Redis) share the cores here, so one round's ratio swings widely on a small
 * machine (bench/RESULTS.md): the median needs more rounds than the other benchmarks', and two contenders keep
 * them short.
 */
const MIN_ROUNDS = 7;
const REDIS_URL = process.env.THREADMARK_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const prefix = `tm-bench:${process.pid}-${randomBytes(4).toString('hex')}:`;
  const { deleteByPrefix, openTestRedis } = await import('../test/unit/stores/redis-env.ts');
  const redis = await openTestRedis();
  const distributed = await warmService(ctx, [SINGLE_PATH], {
    THREADMARK_REDIS_URL: REDIS_URL,
    THREADMARK_REDIS_PREFIX: prefix,
  });
  const embedded = await warmService(ctx, [SINGLE_PATH]);
  try {
    const opts = (t: { url: string; pid: number }) => ({
      url: t.url + SINGLE_PATH,
      serverPid: t.pid,
      connections: CONNECTIONS,
      durationS: ctx.durationS,
    });
    const p = await compareUnderLoad(
      [
        { label: 'inProcess', opts: opts(embedded.service) },
        { label: 'redis', opts: opts(distributed.service) },
      ],
      'inProcess',
      Math.max(ctx.rounds, MIN_ROUNDS),
    );
    const ratio = p.ratios.redis!;
    return {
      name: 'redis-hit',
      ...(p.generatorBound ? { inconclusive: p.generatorBound } : {}),
      goal: `Redis-backed cache hits ≥ ${GOAL} × in-process req/s (shared limits and cache, one round trip per read)`,
      met: !p.generatorBound && p.median.redisErrors === 0 && ratio >= GOAL,
      ratio,
      ratioOf: 'Redis-backed req/s ÷ in-process req/s',
      cpu: {
        ratio: p.median.redisCpuRatio!,
        baselineUs: p.median.inProcessUsPerReq!,
        serviceUs: p.median.redisUsPerReq!,
      },
      median: p.median,
      rounds: p.rounds,
      notes: [
        `GET ${SINGLE_PATH}; ${REDIS_URL}, prefix ${prefix} (removed afterwards); rate limits and the cache both live in Redis`,
      ],
    };
  } finally {
    await distributed.service.stop();
    await embedded.service.stop();
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
  }
}
