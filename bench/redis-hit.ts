// (6) Distributed mode: the cache-hit load against a service on the Redis backend (its own key prefix),
// compared with an in-process service in the same rounds.
import { randomBytes } from 'node:crypto';
import type { BenchContext } from './lib/context.ts';
import { compareUnderLoad } from './lib/compare.ts';
import type { BenchResult } from './lib/result.ts';
import { CONNECTIONS, HIT_PATH, warmService } from './cache-hit.ts';

const REDIS_URL = process.env.THREADMARK_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const prefix = `tm-bench:${process.pid}-${randomBytes(4).toString('hex')}:`;
  const { deleteByPrefix, openTestRedis } = await import('../test/unit/stores/redis-env.ts');
  const redis = await openTestRedis();
  const distributed = await warmService(ctx, { THREADMARK_REDIS_URL: REDIS_URL, THREADMARK_REDIS_PREFIX: prefix });
  const embedded = await warmService(ctx);
  try {
    const p = await compareUnderLoad(
      { label: 'redis', opts: { url: distributed.service.url + HIT_PATH, connections: CONNECTIONS, durationS: ctx.durationS } },
      { label: 'inProcess', opts: { url: embedded.service.url + HIT_PATH, connections: CONNECTIONS, durationS: ctx.durationS } },
      ctx.rounds,
    );
    return {
      name: 'redis-hit',
      goal: 'report the cost of the shared cache and limits (no fixed goal; Redis adds round trips per request)',
      met: p.median.redisNon2xx === 0,
      ratio: p.ratio,
      ratioOf: 'Redis-backed req/s ÷ in-process req/s',
      median: p.median,
      rounds: p.rounds,
      notes: [`${REDIS_URL}, prefix ${prefix} (removed afterwards); rate limits and the cache both live in Redis`],
    };
  } finally {
    await distributed.service.stop();
    await embedded.service.stop();
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
  }
}
