// API key and rate-limit guards, and the per-request live-lookup charge handed to the domain.
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { ReadPolicy } from '../../domain/sourced.ts';
import { Problem } from '../../problems/problem.ts';
import type { Limiter } from '../../stores/limits/limiter.ts';
import {
  accountKeyPolicy,
  DEFAULT_ACCOUNT_QUOTA,
  type LimitState,
  type FixedPolicyName,
  type Policy,
} from '../../stores/limits/policies.ts';
import { rateLimitHeaders } from '../../stores/limits/headers.ts';
import { clientKey } from '../../stores/limits/client-key.ts';
import { chargeAllOrNone, limiterPayer, usedUp, type PayerIdentity } from '../../stores/limits/payers.ts';
import type { Payer } from '../../domain/payer.ts';
import { clientAddress } from './client-address.ts';
import type { KeyStore } from '../../stores/keys/types.ts';
import { keyStateOf } from './key-state.ts';
import type { RequestGuards } from '../../contract/services.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rateStates?: LimitState[];
    /**
     * Fresh cache entries the answer depends on (key, entry, fresh until): the response layer (http/responses/)
     * stores an answer built only from such entries, for as long as they stay the same.
     */
    dependsOn?: Array<[string, object, number]>;
    /**
     * A passing upstream failure shaped the answer (a part that failed to load, a stale copy, a walk cut short):
     * the response layer must not store it, or it would outlive the failure.
     */
    degraded?: boolean;
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
    return this.partitionOf(clientAddress(req));
  }

  /** The api-ip partition of a client address (also used by the response layer's fast path, before Fastify). */
  partitionOf(ip: string): string {
    return clientKey(ip);
  }

  /**
   * The api-ip charge of an answer the fast path gives without a Fastify request, when the limiter counts in
   * process: the state its RateLimit fields advertise (`rateLimitHeaders`), or undefined when it would be refused
   * (the guards then answer and count the refusal). Undefined too with shared counters, which need a round trip.
   */
  chargeApiIpNow(address: string): LimitState | undefined {
    const state = this.limiter.consumeNow('api-ip', this.partitionOf(address), 1, true);
    return state?.allowed ? state : undefined;
  }

  /** The api-ip state of a charge the response store's shared check counted (`consumed` points, `msLeft`). */
  apiIpCharged(consumed: number, msLeft: number): LimitState {
    return this.limiter.chargedState('api-ip', consumed, msLeft);
  }

  /** Whether `chargeApiIpNow` can answer (in-process counters). */
  get chargesNow(): boolean {
    return this.limiter.synchronous;
  }

  private async charge(req: FastifyRequest, policy: Policy | FixedPolicyName, partition: string): Promise<void> {
    await this.chargeAll(req, [[policy, partition]]);
  }

  /**
   * Charges every policy or none: when one refuses, the points already taken from the others are given
   * back, so a refused request never uses up another allowance.
   */
  private async chargeAll(req: FastifyRequest, charges: Array<[Policy | FixedPolicyName, string]>): Promise<void> {
    const { states, refused } = await chargeAllOrNone(this.limiter, charges);
    record(req, states);
    if (refused) throw usedUp(refused);
  }

  /**
   * Charges api-ip `points` at once, for a request that stands for several (a batch of MCP messages).
   * Refused → 429 rate_limited, with the state recorded for the headers.
   */
  async chargeApi(req: FastifyRequest, points: number): Promise<void> {
    const state = await this.limiter.consume('api-ip', this.partition(req), points);
    record(req, [state]);
    if (!state.allowed) throw usedUp(state);
  }

  /** preValidation hooks for a declared route: key first (key-aware routes only), then api-ip. */
  hooks({ keyAware, policy }: { keyAware: boolean; policy?: 'media-ip' }): preValidationAsyncHookHandler[] {
    return [
      async (req: FastifyRequest) => {
        // A refused key is still a request: api-ip is charged before the 401, so guessing keys is rate-limited too.
        const refused = keyAware
          ? await this.verifyKey(req).then(
              () => undefined,
              (err: unknown) => ({ err }),
            )
          : undefined;
        await this.charge(req, policy ?? 'api-ip', this.partition(req));
        if (refused) throw refused.err;
      },
    ];
  }

  /**
   * /mcp: the bearer key is checked before any protocol message is handled. A refused key is charged to api-ip
   * (guessing keys costs allowance, as on REST) and answered 401; the tool calls themselves are charged by the
   * routes that serve them, so an accepted request is not charged here.
   */
  keyHook(): preValidationAsyncHookHandler {
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
      throw new Problem('invalid_key', 'The bearer key is unknown or disabled.', {
        headers: { 'x-api-key-status': 'invalid' },
      });
    }
    req.apiKey =
      result.status === 'valid'
        ? { status: 'valid', id: result.record.id, accountQuota: result.record.accountQuota }
        : { status: 'unverified' };
  }

  /** The guards as a handler sees them: bound to its request. */
  for(req: FastifyRequest): RequestGuards {
    return {
      key: keyStateOf(req),
      policy: (opts) => this.policy(req, opts),
      exportPolicy: () => this.exportPolicy(req),
      checkExport: () => this.checkExport(req),
      payer: () => this.payer(req),
      degraded: () => {
        req.degraded = true;
      },
    };
  }

  /**
   * Who pays for the upstream calls of one request: its key when it is valid, else its client address. What the
   * payer is charged is recorded on the request for its RateLimit fields.
   */
  payer(req: FastifyRequest): Payer {
    const key = keyStateOf(req);
    const who: PayerIdentity =
      key.status === 'valid' && key.id !== undefined
        ? { kind: 'key', id: key.id, ...(key.accountQuota !== undefined ? { accountQuota: key.accountQuota } : {}) }
        : { kind: 'address', id: this.partition(req) };
    return limiterPayer(who, (charges) => this.chargeAll(req, charges));
  }

  /**
   * The read policy of one request. Keyed callers never touch the shared cache, so every live upstream read they
   * cause is charged to their live-key budget. Account-backed reads (search feeds, X Lists) charge account-ip or
   * account-key per upstream page (a page=N walk is N pages of an X session's window); every other read charges
   * the same allowance per call it makes with a logged-in session (`chargeSession`). `search` lookups and
   * `nocache` reads also charge the live-lookup quota (search-ip or search-key) per live read: one request can
   * fan out (a merged feed reads every account, a nocache conversation every post of it), and a charge per
   * request let one point buy tens of upstream calls.
   */
  policy(
    req: FastifyRequest,
    opts: { nocache: boolean; search?: 'plain' | 'account'; accountBacked?: boolean },
  ): ReadPolicy {
    const key = keyStateOf(req);
    const keyed = key.status === 'valid' && key.id !== undefined;
    const mode = keyed ? 'private' : opts.nocache ? 'refresh' : 'shared';
    const lookup = opts.search !== undefined || opts.nocache;
    const account = opts.search === 'account' || opts.accountBacked === true;
    const partition = keyed ? key.id! : this.partition(req);
    const accountCharge: [Policy | FixedPolicyName, string] = [
      keyed ? accountKeyPolicy(key.accountQuota ?? DEFAULT_ACCOUNT_QUOTA) : 'account-ip',
      partition,
    ];
    // Any other read that reaches a logged-in session (a fallback, or the confirmation of a "not found") pays for
    // that call from the same allowance: the sessions are one shared pool, however a read comes to use them.
    const payer = this.payer(req);
    const chargeSession = account ? undefined : () => payer.chargeSession();
    if (!lookup && !keyed && !account)
      return mode === 'shared'
        ? {
            mode,
            payer,
            dependsOn: (k, e, f) => (req.dependsOn ??= []).push([k, e, f]),
            onDegraded: () => (req.degraded = true),
            chargeSession,
          }
        : { mode, payer, chargeSession };
    const perRead: Array<[Policy | FixedPolicyName, string]> = [];
    if (keyed) perRead.push(['live-key', partition]);
    if (account) perRead.push(accountCharge);
    if (lookup) perRead.push([keyed ? 'search-key' : 'search-ip', partition]);
    // Later reads wait for the first one's charge, so a refused request stops before any of them go out.
    let first: Promise<void> | undefined;
    return {
      mode,
      payer,
      ...(chargeSession ? { chargeSession } : {}),
      beforeLive: async () => {
        if (!first) return (first = this.chargeAll(req, perRead));
        await first;
        await this.chargeAll(req, perRead);
      },
    };
  }

  /**
   * The read policy of an export: one point of export-ip (export-key for a key holder) up front, whatever the
   * cache holds, since the walk is many reads. Keyed exports skip the shared cache like every keyed read, so each
   * upstream page also costs a live-key point; anonymous ones read and fill the cache (never the response store: a
   * stream is not an answer to store).
   */
  async exportPolicy(req: FastifyRequest): Promise<ReadPolicy> {
    const { keyed, policy, partition } = this.exportQuota(req);
    await this.charge(req, policy, partition);
    const payer = this.payer(req);
    if (!keyed) return { mode: 'shared', payer };
    return { mode: 'private', payer, beforeLive: () => this.chargeAll(req, [['live-key', partition]]) };
  }

  /**
   * The export allowances as they stand, for a HEAD: nothing is charged, but an allowance already used up is the
   * 429 the GET would answer.
   */
  async checkExport(req: FastifyRequest): Promise<void> {
    const { keyed, policy, partition } = this.exportQuota(req);
    // A keyed export also spends live-key on its first page: a HEAD shows (and honours) that allowance too.
    const policies: FixedPolicyName[] = keyed ? [policy, 'live-key'] : [policy];
    const states = await Promise.all(policies.map((p) => this.limiter.peek(p, partition)));
    record(req, states);
    const refused = states.find((s) => !s.allowed);
    if (refused) throw usedUp(refused);
  }

  private exportQuota(req: FastifyRequest): { keyed: boolean; policy: FixedPolicyName; partition: string } {
    const key = keyStateOf(req);
    const keyed = key.status === 'valid' && key.id !== undefined;
    return { keyed, policy: keyed ? 'export-key' : 'export-ip', partition: keyed ? key.id! : this.partition(req) };
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
