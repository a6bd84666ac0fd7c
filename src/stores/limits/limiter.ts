import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DEFAULT_REDIS_PREFIX } from '../redis.ts';
import { type FixedPolicyName, type LimitState, type Policy, resolvePolicy } from './policies.ts';

/** A refund this close to the end of its window is skipped: it could reach the store after the window rolled over. */
const REFUND_MARGIN_MS = 250;

export interface LimiterOptions {
  /** Set = counters shared by every instance through Redis, with an in-process insurance limiter. */
  redis?: Redis;
  prefix?: string;
}

/**
 * Fixed-window counters per policy and partition (client IP group or key id). The account-key policy
 * may carry a different quota per key; all quotas of one policy share a counter namespace.
 */
export class Limiter {
  readonly #redis: Redis | undefined;
  readonly #prefix: string;
  readonly #limiters = new Map<string, RateLimiterAbstract>();

  constructor(opts: LimiterOptions = {}) {
    this.#redis = opts.redis;
    this.#prefix = `${opts.prefix ?? DEFAULT_REDIS_PREFIX}rl:`;
  }

  async consume(policy: Policy | FixedPolicyName, partitionKey: string, points = 1): Promise<LimitState> {
    const p = resolvePolicy(policy);
    try {
      const res = await this.#limiterFor(p).consume(partitionKey, points);
      return { ...toState(p, true, res), windowEndsAt: Date.now() + res.msBeforeNext };
    } catch (e) {
      if (e instanceof RateLimiterRes) return { ...toState(p, false, e), windowEndsAt: Date.now() + e.msBeforeNext };
      throw e;
    }
  }

  /** The current state without charging, for headers on responses that do not consume this policy. */
  async peek(policy: Policy | FixedPolicyName, partitionKey: string): Promise<LimitState> {
    const p = resolvePolicy(policy);
    const res = await this.#limiterFor(p).get(partitionKey);
    if (!res) return { allowed: true, policy: p.name, limit: p.quota, windowS: p.windowS, remaining: p.quota, resetS: p.windowS };
    return toState(p, res.consumedPoints < p.quota, res);
  }

  /**
   * Gives back points charged to a request that another policy then refused. `windowEndsAt` is the end of the
   * window the charge was taken in (from `consume`): once that window has closed the points are already back,
   * and a reward then would open the next window below zero, i.e. with extra allowance. Returns whether it
   * refunded.
   */
  async refund(policy: Policy | FixedPolicyName, partitionKey: string, windowEndsAt: number, points = 1): Promise<boolean> {
    if (Date.now() + REFUND_MARGIN_MS >= windowEndsAt) return false;
    await this.#limiterFor(resolvePolicy(policy)).reward(partitionKey, points);
    return true;
  }

  /** Clears a partition's counter (operator tooling and tests). */
  async reset(policy: Policy | FixedPolicyName, partitionKey: string): Promise<void> {
    await this.#limiterFor(resolvePolicy(policy)).delete(partitionKey);
  }

  #limiterFor(p: Policy): RateLimiterAbstract {
    const id = `${p.name}/${p.quota}/${p.windowS}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) {
      const base = { points: p.quota, duration: p.windowS, keyPrefix: `${this.#prefix}${p.name}` };
      const memory = new RateLimiterMemory(base);
      // A Redis outage degrades to per-instance counting instead of failing requests.
      limiter = this.#redis
        ? new RateLimiterRedis({ ...base, storeClient: this.#redis, rejectIfRedisNotReady: true, insuranceLimiter: memory })
        : memory;
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }
}

function toState(p: Policy, allowed: boolean, res: RateLimiterRes): LimitState {
  const resetS = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return {
    allowed,
    policy: p.name,
    limit: p.quota,
    windowS: p.windowS,
    remaining: Math.max(0, p.quota - res.consumedPoints),
    resetS: Math.min(resetS, p.windowS),
  };
}
