import { createRequire } from 'node:module';
import type { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { DEFAULT_REDIS_PREFIX, type RedisClient } from '../redis/connect.ts';
import { type FixedPolicyName, type LimitState, type Policy, resolvePolicy } from './policies.ts';
import { WindowTable } from './window-table.ts';

// The Redis limiter's package is loaded with the first shared limiter: embedded mode never needs it, and loading it
// costs an instance memory it would hold for nothing.
const require = createRequire(import.meta.url);
const rateLimiterFlexible = () => require('rate-limiter-flexible') as typeof import('rate-limiter-flexible');

/** A refund this close to the end of its window is skipped: it could reach the store after the window rolled over. */
const REFUND_MARGIN_MS = 250;

export interface LimiterOptions {
  /** Set = counters shared by every instance through Redis, counted in process while it is unreachable. */
  redis?: RedisClient;
  prefix?: string;
  /** Quotas in place of the contract's (the demo's exploring allowances); production never sets this. */
  quotas?: Readonly<Partial<Record<FixedPolicyName, number>>>;
}

/**
 * Fixed-window counters per policy and partition (client IP group or key id). The account-key policy
 * may carry a different quota per key; all quotas of one policy share a counter namespace.
 * In process the counters live in one WindowTable per policy (bounded memory, no timer per client, and
 * synchronous, see consumeNow); with Redis they are shared by every instance, and the same tables count per
 * instance whenever a Redis call fails (an outage degrades to per-instance limits, never to failed requests or
 * unbounded memory: a flood of distinct addresses during an outage costs what it costs in embedded mode).
 */
export class Limiter {
  readonly #redis: RedisClient | undefined;
  readonly #prefix: string;
  readonly #limiters = new Map<string, RateLimiterRedis>();
  readonly #tables = new Map<string, WindowTable>();
  readonly #quotas: Readonly<Partial<Record<FixedPolicyName, number>>>;

  constructor(opts: LimiterOptions = {}) {
    this.#redis = opts.redis;
    this.#prefix = `${opts.prefix ?? DEFAULT_REDIS_PREFIX}rl:`;
    this.#quotas = opts.quotas ?? {};
  }

  /** A policy by name, with its quota replaced when this limiter was given one. */
  #resolve(policy: Policy | FixedPolicyName): Policy {
    const p = resolvePolicy(policy);
    const quota = typeof policy === 'string' ? this.#quotas[policy] : undefined;
    return quota === undefined ? p : { ...p, quota };
  }

  async consume(policy: Policy | FixedPolicyName, partitionKey: string, points = 1): Promise<LimitState> {
    const p = this.#resolve(policy);
    if (!this.#redis) return this.#consumeTable(p, partitionKey, points);
    try {
      const res = await this.#limiterFor(p).consume(partitionKey, points);
      return { ...toState(p, true, res), windowEndsAt: Date.now() + res.msBeforeNext };
    } catch (e) {
      if (e instanceof rateLimiterFlexible().RateLimiterRes)
        return { ...toState(p, false, e), windowEndsAt: Date.now() + e.msBeforeNext };
      // Not a refusal: Redis is unreachable, and this instance counts alone until it is back.
      return this.#consumeTable(p, partitionKey, points);
    }
  }

  /** The current state without charging, for headers on responses that do not consume this policy. */
  async peek(policy: Policy | FixedPolicyName, partitionKey: string): Promise<LimitState> {
    const p = this.#resolve(policy);
    if (!this.#redis) return this.#peekTable(p, partitionKey);
    let res: RateLimiterRes | null;
    try {
      res = await this.#limiterFor(p).get(partitionKey);
    } catch {
      return this.#peekTable(p, partitionKey);
    }
    if (!res) return untouched(p);
    return toState(p, res.consumedPoints < p.quota, res);
  }

  /**
   * Gives back points charged to a request that another policy then refused. `windowEndsAt` is the end of the
   * window the charge was taken in (from `consume`): once that window has closed the points are already back,
   * and a refund then would open the next window below zero, i.e. with extra allowance. Returns whether it
   * refunded.
   */
  async refund(
    policy: Policy | FixedPolicyName,
    partitionKey: string,
    windowEndsAt: number,
    points = 1,
  ): Promise<boolean> {
    if (Date.now() + REFUND_MARGIN_MS >= windowEndsAt) return false;
    // The table refunds only into the window that ends at `windowEndsAt`, never into a later one.
    const table = () => this.#tableFor(this.#resolve(policy)).refund(partitionKey, points, windowEndsAt);
    if (!this.#redis) return table();
    try {
      await this.#limiterFor(this.#resolve(policy)).reward(partitionKey, points);
      return true;
    } catch {
      return table();
    }
  }

  /** Clears a partition's counter (operator tooling and tests). */
  async reset(policy: Policy | FixedPolicyName, partitionKey: string): Promise<void> {
    const p = this.#resolve(policy);
    this.#tableFor(p).delete(partitionKey);
    if (!this.#redis) return;
    try {
      await this.#limiterFor(p).delete(partitionKey);
    } catch {
      // Unreachable: only this instance's count (cleared above) is in use meanwhile.
    }
  }

  /**
   * The in-process charge, synchronous: the cache-hit fast path charges api-ip without a promise. Undefined
   * with Redis (the shared counters need a round trip).
   */
  consumeNow(
    policy: Policy | FixedPolicyName,
    partitionKey: string,
    points = 1,
    onlyIfAllowed = false,
  ): LimitState | undefined {
    return this.#redis ? undefined : this.#consumeTable(this.#resolve(policy), partitionKey, points, onlyIfAllowed);
  }

  /** Bytes held by the in-process window tables (every policy; with Redis, only what an outage counted). */
  tableBytes(): number {
    let n = 0;
    for (const t of this.#tables.values()) n += t.bytes;
    return n;
  }

  /** The Redis key of a partition's counter (the shared limiter's own naming), for scripts that charge it. */
  redisKey(policy: Policy | FixedPolicyName, partitionKey: string): string {
    return `${this.#prefix}${this.#resolve(policy).name}:${partitionKey}`;
  }

  /** A policy with the quota this limiter applies to it. */
  policy(policy: Policy | FixedPolicyName): Policy {
    return this.#resolve(policy);
  }

  /**
   * The state of a charge counted in the shared counters by a script of the same arithmetic
   * (stores/stored-response-check.ts): `consumed` points in the window, `msLeft` before it ends.
   */
  chargedState(policy: Policy | FixedPolicyName, consumed: number, msLeft: number): LimitState {
    return toState(this.#resolve(policy), true, { consumedPoints: consumed, msBeforeNext: msLeft });
  }

  /** Whether consumeNow can answer (in-process counters). */
  get synchronous(): boolean {
    return !this.#redis;
  }

  #consumeTable(p: Policy, partitionKey: string, points: number, onlyIfAllowed = false): LimitState {
    const now = Date.now();
    const got = this.#tableFor(p).consume(partitionKey, points, p.quota, onlyIfAllowed);
    return tableState(p, got.allowed, got.consumed, got.endsAt, now);
  }

  #peekTable(p: Policy, partitionKey: string): LimitState {
    const got = this.#tableFor(p).peek(partitionKey);
    if (!got) return untouched(p);
    return tableState(p, got.consumed < p.quota, got.consumed, got.endsAt, Date.now());
  }

  #tableFor(p: Policy): WindowTable {
    // One table per policy name: every account-key quota shares one counter namespace, as with Redis.
    let table = this.#tables.get(p.name);
    if (!table) {
      table = new WindowTable({ windowMs: p.windowS * 1000 });
      this.#tables.set(p.name, table);
    }
    return table;
  }

  /** Only with Redis; a failed call (not a refusal) falls back to the tables. */
  #limiterFor(p: Policy): RateLimiterRedis {
    const id = `${p.name}/${p.quota}/${p.windowS}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) {
      limiter = new (rateLimiterFlexible().RateLimiterRedis)({
        points: p.quota,
        duration: p.windowS,
        keyPrefix: `${this.#prefix}${p.name}`,
        storeClient: this.#redis,
        rejectIfRedisNotReady: true,
      });
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }
}

function untouched(p: Policy): LimitState {
  return { allowed: true, policy: p.name, limit: p.quota, windowS: p.windowS, remaining: p.quota, resetS: p.windowS };
}

function toState(
  p: Policy,
  allowed: boolean,
  res: Pick<RateLimiterRes, 'consumedPoints' | 'msBeforeNext'>,
): LimitState {
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

function tableState(p: Policy, allowed: boolean, consumed: number, endsAt: number, now: number): LimitState {
  return {
    allowed,
    policy: p.name,
    limit: p.quota,
    windowS: p.windowS,
    remaining: Math.max(0, p.quota - consumed),
    resetS: Math.min(p.windowS, Math.max(1, Math.ceil((endsAt - now) / 1000))),
    windowEndsAt: endsAt,
  };
}
