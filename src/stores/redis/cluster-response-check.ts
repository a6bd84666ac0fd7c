// The response store's check (stores/stored-response-check.ts) on a Redis Cluster. A check reads the cache entries
// a stored answer depends on (keys of whatever slots they hash to) and charges the caller's
// api-ip counter (the slot of that client's key), so one script cannot hold both. The batch is split instead: one
// script per slot compares the stored tails of that slot's entries, one per slot charges that slot's counters,
// all issued in the same turn so the client pipelines each node's calls into one write: one round trip per node
// per batch. A check whose entries changed was charged anyway; that point is given back at once (rare: an entry
// refreshed between the storing and the fast-path read), and the normal path then answers and charges as usual. Until
// the refund lands, later checks of the same client in that batch count the point: one may be declined as over
// the quota, and the normal path then answers it against the corrected counter, so the limit stays exact.
import type { Cluster } from 'ioredis';
import { RedisWindow, WINDOW_LUA } from '../limits/redis-window.ts';
import { groupBySlot } from './cluster.ts';

/** KEYS: cache entries of one slot; ARGV: the tail each must end with. Returns 1 (same) or 0 per entry. */
const COMPARE = `
local out = {}
for i = 1, #KEYS do
  local want = ARGV[i]
  out[i] = redis.call('getrange', KEYS[i], -#want, -1) == want and 1 or 0
end
return out
`;

/**
 * KEYS: api-ip counters of one slot (a counter repeats once per check it charges); ARGV[1] = window (ms),
 * ARGV[2] = quota. The limiter's window function (limits/redis-window.ts), one point per key: two numbers per key,
 * consumed (or -1 over the quota, charging nothing) and ms left in the window.
 */
const CHARGE = `${WINDOW_LUA}
local window_ms, quota = tonumber(ARGV[1]), tonumber(ARGV[2])
local out = {}
for i = 1, #KEYS do
  local allowed, consumed, left = tm_window(KEYS[i], 1, quota, window_ms, true)
  out[#out + 1] = allowed == 1 and consumed or -1
  out[#out + 1] = left
end
return out
`;

type WithCommands = Cluster & {
  tmHitCompare(n: number, ...args: string[]): Promise<number[]>;
  tmHitCharge(n: number, ...args: Array<string | number>): Promise<number[]>;
};

export interface SlotCheck {
  partition: string;
  deps: ReadonlyArray<readonly [string, string]>;
}

export interface SlotCheckOptions {
  limitKey: (partition: string) => string;
  cacheKey: (key: string) => string;
  quota: number;
  windowS: number;
}

export type SlotCheckResult = { consumed: number; ttlMs: number } | 'changed' | 'refused';

export function defineSlotCheckCommands(cluster: Cluster): void {
  const c = cluster as WithCommands;
  if (typeof c.tmHitCompare !== 'function') cluster.defineCommand('tmHitCompare', { lua: COMPARE });
  if (typeof c.tmHitCharge !== 'function') cluster.defineCommand('tmHitCharge', { lua: CHARGE });
}

/** The checks of one batch, answered in order; `calls` counts the script calls it made. */
export async function checkBySlot(
  cluster: Cluster,
  checks: readonly SlotCheck[],
  opts: SlotCheckOptions,
  count: (calls: number) => void = () => {},
): Promise<SlotCheckResult[]> {
  const c = cluster as WithCommands;
  // Each distinct (entry, tail) is compared once per batch, however many checks carry it.
  const id = (key: string, tail: string) => `${opts.cacheKey(key)}\n${tail}`;
  const entries = new Map<string, readonly [string, string]>();
  for (const check of checks)
    for (const [key, tail] of check.deps) entries.set(id(key, tail), [opts.cacheKey(key), tail]);
  const same = new Set<string>();
  const compares = groupBySlot(cluster, [...entries.values()], ([key]) => key).map(async (group) => {
    const out = await c.tmHitCompare(group.length, ...group.map(([k]) => k), ...group.map(([, t]) => t));
    group.forEach(([k, t], i) => Number(out[i]) === 1 && same.add(`${k}\n${t}`));
  });
  const counters = checks.map((check, i) => ({ i, key: opts.limitKey(check.partition) }));
  const charged: Array<{ consumed: number; ttlMs: number }> = [];
  const charges = groupBySlot(cluster, counters, (x) => x.key).map(async (group) => {
    const out = await c.tmHitCharge(group.length, ...group.map((x) => x.key), opts.windowS * 1000, opts.quota);
    group.forEach((x, j) => (charged[x.i] = { consumed: Number(out[2 * j]), ttlMs: Number(out[2 * j + 1]) }));
  });
  count(compares.length + charges.length);
  await Promise.all([...compares, ...charges]);
  return checks.map((check, i) => {
    const { consumed, ttlMs } = charged[i]!;
    const unchanged = check.deps.every(([key, tail]) => same.has(id(key, tail)));
    if (!unchanged) {
      // Given back so the normal path's own charge is the only one; it expires with the window if this fails.
      if (consumed > 0) new RedisWindow(cluster).refund(counters[i]!.key, 1).catch(() => {});
      return 'changed';
    }
    return consumed > 0 ? { consumed, ttlMs } : 'refused';
  });
}
