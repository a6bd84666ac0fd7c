// One Redis round trip for a replayed cache hit in distributed mode: a script that charges the caller's api-ip
// counter (the very key and arithmetic of the shared limiter, so the normal path and the replay count together
// across every instance) and reads back the stored-at stamp of every cache entry the recorded response was built
// from. The replay answers only when each stamp is still the one it recorded: an entry refreshed by any
// instance has a new stamp, an evicted or expired one has none.
//
// The checks of hits that arrive together (every request read in one turn of the event loop) travel in one
// script call: one command to build, write and parse instead of one per request, which is most of what a
// Redis-backed hit costs the service (bench/RESULTS.md). Each request still waits for exactly one round trip,
// and the checks run in order inside one atomic script, as they would one by one.
import type { Redis } from 'ioredis';

/**
 * ARGV[1] = window (s), ARGV[2] = quota, ARGV[3] = how many checks; then per check its number of cache entries
 * followed by the stamp each must still carry. KEYS, per check: the api-ip counter, then its cache entries.
 * A check charges one point unless an entry changed or the charge would pass the quota. Returns three numbers
 * per check: status (1 = charged, 0 = an entry changed or is gone, -1 = over the quota), consumed, ttl ms.
 * Cache entries are stored as JSON ending in `"s":<stored at>,"f":<fresh until>,"t":<stale until>}`
 * (stores/cache/redis.ts): the last bytes carry the stamp, so the body itself never crosses the wire.
 */
const SCRIPT = `
local window, quota = tonumber(ARGV[1]), tonumber(ARGV[2])
local out = {}
local k, a = 1, 4
for c = 1, tonumber(ARGV[3]) do
  local counter = KEYS[k]
  local entries = tonumber(ARGV[a])
  local same = true
  for i = 1, entries do
    if same then
      local tail = redis.call('getrange', KEYS[k + i], -80, -1)
      same = string.match(tail, '"s":(%d+),"f":%d+,"t":%d+}$') == ARGV[a + i]
    end
  end
  k = k + entries + 1
  a = a + entries + 1
  if not same then
    out[#out + 1] = 0; out[#out + 1] = 0; out[#out + 1] = 0
  else
    -- Charged first and taken back when over the quota (atomic inside the script): two commands in the common
    -- case instead of a read, a conditional set, an increment and a ttl read.
    local consumed = redis.call('incr', counter)
    local ttl = -1
    if consumed > 1 then ttl = redis.call('pttl', counter) end
    if ttl < 0 then
      redis.call('expire', counter, window)
      ttl = 1000 * window
    end
    if consumed > quota then
      redis.call('decr', counter)
      out[#out + 1] = -1; out[#out + 1] = consumed - 1; out[#out + 1] = ttl
    else
      out[#out + 1] = 1; out[#out + 1] = consumed; out[#out + 1] = ttl
    end
  end
end
return out
`;

/**
 * Checks per script call. Eight already take the service's CPU per Redis-backed hit from about 25 µs to 18
 * (bench/RESULTS.md); larger calls save little more, and a turn's checks split over several calls sent back to
 * back let Redis answer the first while it runs the next, so the service answers in a stream rather than all at
 * once after the last check (64 per call measured 0.53–0.6 × in-process req/s, 4–16 per call 0.68–0.94).
 */
export const MAX_BATCH = 8;

type WithCommand = Redis & { tmHitCheckBatch(...args: Array<string | number>): Promise<number[]> };

export type HitCheckResult = { consumed: number; ttlMs: number } | 'changed' | 'refused';

interface Pending {
  partition: string;
  deps: ReadonlyArray<readonly [string, number]>;
  resolve: (r: HitCheckResult) => void;
  reject: (e: unknown) => void;
}

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
  #pending: Pending[] = [];
  /** Script calls made (tests check that concurrent checks share one). */
  calls = 0;

  constructor(redis: Redis, opts: SharedHitCheckOptions) {
    this.#redis = redis as WithCommand;
    this.#opts = opts;
    if (typeof this.#redis.tmHitCheckBatch !== 'function') redis.defineCommand('tmHitCheckBatch', { lua: SCRIPT });
  }

  /**
   * Charges one request to `partition` if every entry still carries its stamp and the quota allows it:
   * the consumed count and ms left in the window. 'changed' (an entry was refreshed, evicted or expired) and
   * 'refused' (over the quota) charge nothing: the normal path then answers.
   */
  check(partition: string, deps: ReadonlyArray<readonly [string, number]>): Promise<HitCheckResult> {
    return new Promise((resolve, reject) => {
      // The first check of a turn schedules the call; the ones read in the same turn join it.
      if (this.#pending.push({ partition, deps, resolve, reject }) === 1) setImmediate(this.#flush);
    });
  }

  readonly #flush = (): void => {
    const all = this.#pending;
    this.#pending = [];
    for (let i = 0; i < all.length; i += MAX_BATCH) this.#send(all.slice(i, i + MAX_BATCH));
  };

  #send(batch: Pending[]): void {
    const keys: string[] = [];
    const args: Array<string | number> = [this.#opts.windowS, this.#opts.quota, batch.length];
    for (const p of batch) {
      keys.push(this.#opts.limitKey(p.partition));
      args.push(p.deps.length);
      for (const [k, stamp] of p.deps) {
        keys.push(this.#opts.cacheKey(k));
        args.push(String(stamp));
      }
    }
    this.calls++;
    this.#redis.tmHitCheckBatch(keys.length, ...keys, ...args).then(
      (out) => {
        for (let i = 0; i < batch.length; i++) {
          const status = Number(out[3 * i]);
          batch[i]!.resolve(
            status === 0
              ? 'changed'
              : status !== 1
                ? 'refused'
                : { consumed: Number(out[3 * i + 1]), ttlMs: Number(out[3 * i + 2]) },
          );
        }
      },
      (err: unknown) => {
        for (const p of batch) p.reject(err);
      },
    );
  }
}
