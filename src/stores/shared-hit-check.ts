// One Redis round trip for a replayed cache hit in distributed mode: a script that charges the caller's api-ip
// counter (the very key and arithmetic of the shared limiter, so the normal path and the replay count together
// across every instance) and reads back the stored-at stamp of every cache entry the recorded response was built
// from. The replay answers only when each stamp is still the one it recorded: an entry refreshed by any
// instance has a new stamp, an evicted or expired one has none.
import type { Redis } from 'ioredis';

/**
 * KEYS[1] = the api-ip counter, KEYS[2..] = cache entries. ARGV = points, window (s), quota, then the stamp
 * each entry must still carry. Nothing is charged unless every stamp matches and the charge fits the quota
 * (the normal path then charges, and refuses or re-reads). Returns {status, consumed, ttl ms}: status 1 =
 * charged, 0 = an entry changed or is gone, -1 = over the quota.
 * Cache entries are stored as JSON ending in `"s":<stored at>,"f":<fresh until>,"t":<stale until>}`
 * (stores/cache/redis.ts): the last bytes carry the stamp, so the body itself never crosses the wire.
 */
const SCRIPT = `
for i = 2, #KEYS do
  local tail = redis.call('getrange', KEYS[i], -80, -1)
  local s = string.match(tail, '"s":(%d+),"f":%d+,"t":%d+}$')
  if s ~= ARGV[i + 2] then return {0, 0, 0} end
end
local points = tonumber(ARGV[1])
local current = tonumber(redis.call('get', KEYS[1]) or '0')
if current + points > tonumber(ARGV[3]) then return {-1, current, redis.call('pttl', KEYS[1])} end
redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], points)
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * tonumber(ARGV[2])
end
return {1, consumed, ttl}
`;

type WithCommand = Redis & { tmHitCheck(...args: Array<string | number>): Promise<number[]> };

export interface SharedHitCheckOptions {
  /** The limiter's Redis key for a partition of a policy. */
  limitKey: (partition: string) => string;
  /** The cache's Redis key for a cache key. */
  cacheKey: (key: string) => string;
  quota: number;
  windowS: number;
}

export class SharedHitCheck {
  readonly #redis: WithCommand;
  readonly #opts: SharedHitCheckOptions;

  constructor(redis: Redis, opts: SharedHitCheckOptions) {
    this.#redis = redis as WithCommand;
    this.#opts = opts;
    if (typeof this.#redis.tmHitCheck !== 'function') redis.defineCommand('tmHitCheck', { lua: SCRIPT });
  }

  /**
   * Charges one request to `partition` if every entry still carries its stamp and the quota allows it:
   * the consumed count and ms left in the window. 'changed' (an entry was refreshed, evicted or expired) and
   * 'refused' (over the quota) charge nothing: the normal path then answers.
   */
  async check(
    partition: string,
    deps: ReadonlyArray<readonly [string, number]>,
  ): Promise<{ consumed: number; ttlMs: number } | 'changed' | 'refused'> {
    const keys = [this.#opts.limitKey(partition), ...deps.map(([k]) => this.#opts.cacheKey(k))];
    const out = await this.#redis.tmHitCheck(
      keys.length,
      ...keys,
      1,
      this.#opts.windowS,
      this.#opts.quota,
      ...deps.map(([, s]) => String(s)),
    );
    const status = Number(out[0]);
    if (status === 0) return 'changed';
    if (status !== 1) return 'refused';
    return { consumed: Number(out[1]), ttlMs: Number(out[2]) };
  }
}
