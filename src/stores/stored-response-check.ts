// The response store's check in distributed mode (http/responses/): one Redis round trip per answer served by
// the fast path, a script that charges the caller's api-ip counter (the very key and window function of the shared
// limiter, limits/redis-window.ts, so the normal path and the fast path count together across every instance) and compares the stamps
// that end every cache entry the stored answer depends on with the ones it was stored with. The fast path
// answers only when each is still the same: an entry refreshed by any instance has new stamps, an evicted or
// expired one has none.
//
// The checks of answers that arrive together (every request read in one turn of the event loop) travel in one
// script call: one command to build, write and parse instead of one per request, which is most of what a
// Redis-backed hit costs the service (bench/RESULTS.md). Each request still waits for exactly one round trip,
// and the checks run in order inside one atomic script, as they would one by one.
import type { Redis } from 'ioredis';
import type { RedisClient } from './redis/connect.ts';
import { isCluster } from './redis/cluster.ts';
import { WINDOW_LUA } from './limits/redis-window.ts';
import { checkBySlot, defineSlotCheckCommands } from './redis/cluster-response-check.ts';

/**
 * ARGV[1] = window (ms), ARGV[2] = quota, ARGV[3] = how many entry sets; then per set its number of cache entries
 * followed by the last bytes each must still end with; then per check the number of its set. KEYS: the entries of
 * every set, then the api-ip counter of every check. The answers of a turn are mostly the same few stored answers,
 * so each one's entries are read once per call, not once per request: atomic inside the script, that is the
 * same answer. A check charges one point with the limiter's window function (limits/redis-window.ts) unless an
 * entry of its set changed or the charge would pass the quota.
 * Returns two numbers per check: consumed (> 0, charged) or 0 (an entry changed or is gone) or -1 (over the
 * quota), then ms left in the window.
 * Cache entries are stored as JSON ending in their stamps (`storedTail` in stores/cache/redis.ts), so the body
 * itself never crosses the wire; a missing key reads as "" and a shorter value whole, neither equal to a tail.
 */
const SCRIPT = `${WINDOW_LUA}
local window_ms, quota = tonumber(ARGV[1]), tonumber(ARGV[2])
local same = {}
local k, a = 1, 4
for set = 1, tonumber(ARGV[3]) do
  local entries = tonumber(ARGV[a])
  local ok = true
  for i = 1, entries do
    if ok then
      local want = ARGV[a + i]
      ok = redis.call('getrange', KEYS[k + i - 1], -#want, -1) == want
    end
  end
  same[set] = ok
  k = k + entries
  a = a + entries + 1
end
local out = {}
for c = 0, #KEYS - k do
  if not same[tonumber(ARGV[a + c])] then
    out[#out + 1] = 0; out[#out + 1] = 0
  else
    local allowed, consumed, left = tm_window(KEYS[k + c], 1, quota, window_ms, true)
    out[#out + 1] = allowed == 1 and consumed or -1
    out[#out + 1] = left
  end
end
return out
`;

/**
 * Checks per script call. Under wrk's 50 connections a turn of the event loop reads about 20 hits; one call for
 * all of them costs the least CPU on both sides, but the service then idles while Redis runs the whole turn, and a
 * turn split over calls sent back to back lets Redis answer the first while it runs the next. Of 8, 16, 32 and 64
 * per call, 32 kept the Redis-backed hit rate highest (the figures are in bench/RESULTS.md).
 */
export const MAX_BATCH = 32;

type WithCommand = Redis & { tmHitCheckBatch(...args: Array<string | number>): Promise<number[]> };

export type StoredResponseCheckResult = { consumed: number; ttlMs: number } | 'changed' | 'refused';

interface Pending {
  partition: string;
  deps: ReadonlyArray<readonly [string, string]>;
  resolve: (r: StoredResponseCheckResult) => void;
  reject: (e: unknown) => void;
}

export interface StoredResponseCheckOptions {
  /** The limiter's Redis key for a partition of a policy. */
  limitKey: (partition: string) => string;
  /** The cache's Redis key for a cache key. */
  cacheKey: (key: string) => string;
  quota: number;
  windowS: number;
}

export class StoredResponseCheck {
  readonly #redis: WithCommand;
  readonly #cluster: RedisClient | undefined;
  readonly #opts: StoredResponseCheckOptions;
  #pending: Pending[] = [];
  /** Script calls made (tests check that concurrent checks share one). */
  calls = 0;

  constructor(redis: RedisClient, opts: StoredResponseCheckOptions) {
    this.#redis = redis as WithCommand;
    this.#opts = opts;
    // A cluster splits each batch by slot (redis/cluster-response-check.ts); a single Redis runs the script below.
    if (isCluster(redis)) {
      this.#cluster = redis;
      defineSlotCheckCommands(redis);
    } else if (typeof this.#redis.tmHitCheckBatch !== 'function')
      redis.defineCommand('tmHitCheckBatch', { lua: SCRIPT });
  }

  /**
   * Charges one request to `partition` if every entry (cache key, `storedTail` of the entry the response was
   * built from) still ends with those bytes and the quota allows it:
   * the consumed count and ms left in the window. 'changed' (an entry was refreshed, evicted or expired) and
   * 'refused' (over the quota) charge nothing: the normal path then answers.
   */
  check(partition: string, deps: ReadonlyArray<readonly [string, string]>): Promise<StoredResponseCheckResult> {
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
    if (this.#cluster && isCluster(this.#cluster)) {
      checkBySlot(this.#cluster, batch, this.#opts, (n) => (this.calls += n)).then(
        (out) => batch.forEach((p, i) => p.resolve(out[i]!)),
        (err: unknown) => batch.forEach((p) => p.reject(err)),
      );
      return;
    }
    const { cacheKey, limitKey, quota, windowS } = this.#opts;
    // Checks of one stored answer carry the very same deps array, so identity finds the sets.
    const sets: Array<Pending['deps']> = [];
    const keys: string[] = [];
    const args: Array<string | number> = [windowS * 1000, quota, 0];
    const setOf: number[] = [];
    for (const p of batch) {
      let set = sets.indexOf(p.deps);
      if (set < 0) {
        set = sets.push(p.deps) - 1;
        args.push(p.deps.length);
        for (const [k, tail] of p.deps) {
          keys.push(cacheKey(k));
          args.push(tail);
        }
      }
      setOf.push(set + 1);
    }
    args[2] = sets.length;
    for (let i = 0; i < batch.length; i++) {
      keys.push(limitKey(batch[i]!.partition));
      args.push(setOf[i]!);
    }
    this.calls++;
    this.#redis.tmHitCheckBatch(keys.length, ...keys, ...args).then(
      (out) => {
        for (let i = 0; i < batch.length; i++) {
          const consumed = Number(out[2 * i]);
          batch[i]!.resolve(
            consumed > 0 ? { consumed, ttlMs: Number(out[2 * i + 1]) } : consumed === 0 ? 'changed' : 'refused',
          );
        }
      },
      (err: unknown) => {
        for (const p of batch) p.reject(err);
      },
    );
  }
}
