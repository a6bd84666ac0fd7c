// The fixed window (window.ts) in Redis: one counter key per partition, charged by one Lua function. The
// limiter's script runs it on one key per call, and the response store's checks (stores/stored-response-check.ts,
// stores/redis/cluster-response-check.ts) embed the very same function for the fast path's charge, so a request
// answered by either path counts against the same counter with the same arithmetic on every instance. One key per
// charge keeps every call inside one hash slot of a Redis Cluster.
import type { Redis } from 'ioredis';
import type { RedisClient } from '../redis/connect.ts';
import type { WindowState } from './window.ts';

/**
 * `tm_window(key, points, quota, window_ms, only_if_allowed)` charges `points` to the counter at `key`; the
 * window opens with the first charge and the key expires with it. A refused charge stays counted (a client over
 * its quota stays over it) unless `only_if_allowed`, which takes it back. Returns allowed (1 or 0), the points
 * consumed in the window and the ms left in it.
 */
export const WINDOW_LUA = `
local function tm_window(key, points, quota, window_ms, only_if_allowed)
  local consumed = redis.call('incrby', key, points)
  local left = redis.call('pttl', key)
  if left < 0 then
    redis.call('pexpire', key, window_ms)
    left = window_ms
  end
  if consumed <= quota then return 1, consumed, left end
  if only_if_allowed then consumed = redis.call('decrby', key, points) end
  return 0, consumed, left
end
`;

/**
 * KEYS[1]: the counter. ARGV: op ('charge', 'peek' or 'refund'), points, quota, window (ms), only-if-allowed (1/0).
 * Returns allowed, consumed and ms left (-2 when the partition has no live window). A refund gives points back only
 * to a live window and never below zero.
 */
const SCRIPT = `${WINDOW_LUA}
local key, op, points = KEYS[1], ARGV[1], tonumber(ARGV[2])
if op == 'charge' then
  local allowed, consumed, left = tm_window(key, points, tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5] == '1')
  return {allowed, consumed, left}
end
local consumed = tonumber(redis.call('get', key) or '0')
local left = redis.call('pttl', key)
if op == 'refund' then
  if left <= 0 or consumed <= 0 then return {0, consumed, left} end
  consumed = redis.call('decrby', key, math.min(points, consumed))
  return {1, consumed, left}
end
return {1, consumed, left}
`;

type WithCommand = Redis & { tmWindow(key: string, ...args: Array<string | number>): Promise<number[]> };

/** The Redis backend of the fixed window: the counters every instance shares. Calls reject while Redis is down. */
export class RedisWindow {
  readonly #redis: WithCommand;

  constructor(redis: RedisClient) {
    this.#redis = redis as WithCommand;
    if (typeof this.#redis.tmWindow !== 'function') redis.defineCommand('tmWindow', { numberOfKeys: 1, lua: SCRIPT });
  }

  async consume(
    key: string,
    points: number,
    quota: number,
    windowMs: number,
    onlyIfAllowed = false,
  ): Promise<WindowState> {
    const [allowed, consumed, left] = await this.#redis.tmWindow(
      key,
      'charge',
      points,
      quota,
      windowMs,
      onlyIfAllowed ? 1 : 0,
    );
    return { allowed: Number(allowed) === 1, consumed: Number(consumed), endsAt: Date.now() + Number(left) };
  }

  /** The live window's count, or undefined when the partition has none. */
  async peek(key: string): Promise<{ consumed: number; endsAt: number } | undefined> {
    const [, consumed, left] = await this.#redis.tmWindow(key, 'peek', 0);
    return Number(left) > 0 ? { consumed: Number(consumed), endsAt: Date.now() + Number(left) } : undefined;
  }

  /** Gives `points` back to the live window; whether there was one to give them to. */
  async refund(key: string, points: number): Promise<boolean> {
    const [done] = await this.#redis.tmWindow(key, 'refund', points);
    return Number(done) === 1;
  }

  async delete(key: string): Promise<void> {
    await this.#redis.del(key);
  }
}
