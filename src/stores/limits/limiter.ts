import { DEFAULT_REDIS_PREFIX, type RedisClient } from '../redis/connect.ts';
import { type FixedPolicyName, type LimitState, type Policy, resolvePolicy } from './policies.ts';
import { RedisWindow } from './redis-window.ts';
import { untouched, windowState } from './window.ts';
import { WindowTable } from './window-table.ts';

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
 * Every policy counts in the one fixed window of window.ts. In process the counters live in one WindowTable per
 * policy (bounded memory, no timer per client, and synchronous, see consumeNow); with Redis they are shared by
 * every instance through the one window script of redis-window.ts, and the same tables count per
 * instance whenever a Redis call fails (an outage degrades to per-instance limits, never to failed requests or
 * unbounded memory: a flood of distinct addresses during an outage costs what it costs in embedded mode).
 */
export class Limiter {
  readonly #redis: RedisWindow | undefined;
  readonly #prefix: string;
  readonly #tables = new Map<string, WindowTable>();
  readonly #quotas: Readonly<Partial<Record<FixedPolicyName, number>>>;

  constructor(opts: LimiterOptions = {}) {
    this.#redis = opts.redis && new RedisWindow(opts.redis);
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
      const count = await this.#redis.consume(this.redisKey(p, partitionKey), points, p.quota, p.windowS * 1000);
      return windowState(p, count);
    } catch {
      // Redis is unreachable, and this instance counts alone until it is back.
      return this.#consumeTable(p, partitionKey, points);
    }
  }

  /** The current state without charging, for headers on responses that do not consume this policy. */
  async peek(policy: Policy | FixedPolicyName, partitionKey: string): Promise<LimitState> {
    const p = this.#resolve(policy);
    if (!this.#redis) return this.#peekTable(p, partitionKey);
    let got: { consumed: number; endsAt: number } | undefined;
    try {
      got = await this.#redis.peek(this.redisKey(p, partitionKey));
    } catch {
      return this.#peekTable(p, partitionKey);
    }
    return got ? peekState(p, got) : untouched(p);
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
      return await this.#redis.refund(this.redisKey(policy, partitionKey), points);
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
      await this.#redis.delete(this.redisKey(p, partitionKey));
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

  /** The Redis key of a partition's counter, for the response store's check, which charges it in the same window. */
  redisKey(policy: Policy | FixedPolicyName, partitionKey: string): string {
    return `${this.#prefix}${this.#resolve(policy).name}:${partitionKey}`;
  }

  /** A policy with the quota this limiter applies to it. */
  policy(policy: Policy | FixedPolicyName): Policy {
    return this.#resolve(policy);
  }

  /**
   * The state of a charge the response store's check counted in the shared counters with the window script
   * (stores/stored-response-check.ts): `consumed` points in the window, `msLeft` before it ends.
   */
  chargedState(policy: Policy | FixedPolicyName, consumed: number, msLeft: number): LimitState {
    return windowState(this.#resolve(policy), { allowed: true, consumed, endsAt: Date.now() + msLeft });
  }

  /** Whether consumeNow can answer (in-process counters). */
  get synchronous(): boolean {
    return !this.#redis;
  }

  #consumeTable(p: Policy, partitionKey: string, points: number, onlyIfAllowed = false): LimitState {
    return windowState(p, this.#tableFor(p).consume(partitionKey, points, p.quota, onlyIfAllowed));
  }

  #peekTable(p: Policy, partitionKey: string): LimitState {
    const got = this.#tableFor(p).peek(partitionKey);
    return got ? peekState(p, got) : untouched(p);
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
}

/** A look at a live window: allowed while another point would still fit. */
function peekState(p: Policy, got: { consumed: number; endsAt: number }): LimitState {
  return windowState(p, { ...got, allowed: got.consumed < p.quota });
}
