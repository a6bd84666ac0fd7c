// API key and rate-limit guards, and the per-request live-lookup charge handed to the domain.
import type { FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { ReadPolicy } from '../domain/sourced.ts';
import { Problem } from '../problems/problem.ts';
import type { Limiter } from '../stores/limits/limiter.ts';
import { accountKeyPolicy, DEFAULT_ACCOUNT_QUOTA, type LimitState, type FixedPolicyName, type Policy } from '../stores/limits/policies.ts';
import { rateLimitHeaders } from '../stores/limits/headers.ts';
import { clientKey } from '../stores/limits/client-key.ts';
import type { KeyStore } from '../stores/keys/types.ts';
import { keyStateOf } from './key-state.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rateStates?: LimitState[];
    /** Fresh cache entries this request was answered from (key, entry, fresh until), for the hit replay. */
    cacheHits?: Array<[string, object, number]>;
    /** Live-lookup charges taken by this request, so a feed poll that ends in 304 can give them back. */
    liveCharges?: Array<[Policy | FixedPolicyName, string]>;
  }
}

/** `Authorization: Bearer <key>`; every other scheme (Basic, custom) is ignored, as the contract says. */
export function bearerOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer(?:\s+(.*))?$/i.exec(h.trim());
  return m ? (m[1] ?? '').trim() : undefined;
}

/** Keeps the latest state per policy, so a response lists each policy once. */
function record(req: FastifyRequest, states: LimitState[]): void {
  const names = new Set(states.map((s) => s.policy));
  req.rateStates = [...(req.rateStates ?? []).filter((s) => !names.has(s.policy)), ...states];
}

export class Guards {
  constructor(
    private readonly limiter: Limiter,
    private readonly keys: KeyStore,
  ) {}

  private partition(req: FastifyRequest): string {
    return this.partitionOf(req.ip);
  }

  /** The api-ip partition of a client address (also used by the hit replay, which has no Fastify request). */
  partitionOf(ip: string): string {
    return clientKey(ip);
  }

  private async charge(req: FastifyRequest, policy: Policy | FixedPolicyName, partition: string): Promise<void> {
    await this.chargeAll(req, [[policy, partition]]);
  }

  /**
   * Charges every policy or none: when one refuses, the points already taken from the others are given
   * back, so a refused request never uses up another allowance.
   */
  private async chargeAll(req: FastifyRequest, charges: Array<[Policy | FixedPolicyName, string]>): Promise<void> {
    const taken: Array<{ state: LimitState; policy: Policy | FixedPolicyName; partition: string }> = [];
    for (const [policy, partition] of charges) {
      const state = await this.limiter.consume(policy, partition);
      if (state.allowed) {
        taken.push({ state, policy, partition });
        continue;
      }
      for (const t of taken) {
        await this.limiter.refund(t.policy, t.partition);
        t.state = { ...t.state, remaining: Math.min(t.state.limit, t.state.remaining + 1) };
      }
      record(req, [...taken.map((t) => t.state), state]);
      throw new Problem('rate_limited', `The ${state.policy} allowance is used up; retry in ${state.resetS} s.`);
    }
    record(req, taken.map((t) => t.state));
  }

  /** preValidation hooks for a declared route: key first (key-aware routes only), then api-ip. */
  hooks({ keyAware }: { keyAware: boolean }): preValidationHookHandler[] {
    return [
      async (req: FastifyRequest) => {
        // A refused key is still a request: api-ip is charged before the 401, so guessing keys is rate-limited too.
        const refused = keyAware ? await this.verifyKey(req).then(() => undefined, (err: unknown) => err) : undefined;
        await this.charge(req, 'api-ip', this.partition(req));
        if (refused) throw refused;
      },
    ];
  }

  /**
   * /mcp: the bearer key is checked before any protocol message is handled. A refused key is charged to api-ip
   * (guessing keys costs allowance, as on REST) and answered 401; the tool calls themselves are charged by the
   * routes that serve them, so an accepted request is not charged here.
   */
  keyHook(): preValidationHookHandler {
    return async (req: FastifyRequest, reply: FastifyReply) => {
      try {
        await this.verifyKey(req);
      } catch (err) {
        await this.charge(req, 'api-ip', this.partition(req));
        throw err;
      }
      reply.header('x-api-key-status', keyStateOf(req).status);
    };
  }

  private async verifyKey(req: FastifyRequest): Promise<void> {
    const token = bearerOf(req);
    if (token === undefined) {
      req.apiKey = { status: 'anonymous' };
      return;
    }
    const result = token ? await this.keys.verify(token) : ({ status: 'invalid' } as const);
    if (result.status === 'invalid') {
      req.apiKey = { status: 'invalid' };
      throw new Problem('invalid_key', 'The bearer key is unknown or disabled.', { headers: { 'x-api-key-status': 'invalid' } });
    }
    req.apiKey =
      result.status === 'valid'
        ? { status: 'valid', id: result.record.id, accountQuota: result.record.accountQuota }
        : { status: 'unverified' };
  }

  /**
   * The read policy of one request. Keyed callers never touch the shared cache. `search` lookups charge the
   * live-lookup quota once when the request first reaches an upstream (search-ip or search-key, plus account-ip
   * or account-key for the account-backed feeds); other routes charge it only for `nocache`.
   */
  policy(req: FastifyRequest, opts: { nocache: boolean; search?: 'plain' | 'account' }): ReadPolicy {
    const key = keyStateOf(req);
    const keyed = key.status === 'valid' && key.id !== undefined;
    const mode = keyed ? 'private' : opts.nocache ? 'refresh' : 'shared';
    const charged = opts.search !== undefined || opts.nocache;
    if (!charged) return mode === 'shared' ? { mode, onHit: (k, e, f) => (req.cacheHits ??= []).push([k, e, f]) } : { mode };
    // One request is one live lookup, however many upstream reads it takes (profile + posts, page=N walks).
    let once: Promise<void> | undefined;
    return {
      mode,
      beforeLive: () => {
        const partition = keyed ? key.id! : this.partition(req);
        const charges: Array<[Policy | FixedPolicyName, string]> = [];
        if (opts.search === 'account') {
          charges.push([keyed ? accountKeyPolicy(key.accountQuota ?? DEFAULT_ACCOUNT_QUOTA) : 'account-ip', partition]);
        }
        charges.push([keyed ? 'search-key' : 'search-ip', partition]);
        return (once ??= this.chargeAll(req, charges).then(() => {
          req.liveCharges = charges;
        }));
      },
    };
  }

  /** Gives back this request's live-lookup charges (a feed poll answered 304 costs no quota). */
  async refundLive(req: FastifyRequest): Promise<void> {
    const charges = req.liveCharges ?? [];
    req.liveCharges = undefined;
    const refunded = new Set<string>();
    for (const [policy, partition] of charges) {
      await this.limiter.refund(policy, partition);
      refunded.add(typeof policy === 'string' ? policy : policy.name);
    }
    if (refunded.size) req.rateStates = req.rateStates?.map((s) => (refunded.has(s.policy) ? { ...s, remaining: Math.min(s.limit, s.remaining + 1) } : s));
  }

  /**
   * onSend: every response advertises its quota; responses that consumed nothing show api-ip as it stands.
   * A charged request (the usual case) is answered synchronously; only a peek at the limiter returns a promise.
   */
  headers(req: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    const states = req.rateStates;
    if (states && states.length > 0) {
      reply.headers(rateLimitHeaders(states));
      return undefined;
    }
    return this.peekApiIp(req).then((state) => {
      if (state) reply.headers(rateLimitHeaders([state]));
    });
  }

  /** api-ip as it stands; undefined when the limiter cannot say (the response then goes without the headers). */
  private async peekApiIp(req: FastifyRequest): Promise<LimitState | undefined> {
    try {
      return await this.limiter.peek('api-ip', this.partition(req));
    } catch {
      return undefined;
    }
  }
}
