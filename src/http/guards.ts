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
import type { RouteDef } from './route-decl.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rateStates?: LimitState[];
  }
}

/** `Authorization: Bearer <key>`; every other scheme (Basic, custom) is ignored, as the contract says. */
export function bearerOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return undefined;
  const m = /^Bearer(?:\s+(.*))?$/i.exec(h.trim());
  return m ? (m[1] ?? '').trim() : undefined;
}

export class Guards {
  constructor(
    private readonly limiter: Limiter,
    private readonly keys: KeyStore,
  ) {}

  private partition(req: FastifyRequest): string {
    return clientKey(req.ip);
  }

  private async charge(req: FastifyRequest, policy: Policy | FixedPolicyName, partition: string): Promise<void> {
    const state = await this.limiter.consume(policy, partition);
    (req.rateStates ??= []).push(state);
    if (!state.allowed) {
      throw new Problem('rate_limited', `The ${state.policy} allowance is used up; retry in ${state.resetS} s.`);
    }
  }

  /** preValidation hooks for a declared route: key first (key-aware routes only), then api-ip. */
  hooks(def: RouteDef): preValidationHookHandler[] {
    const keyAware = def.decl.keyAware;
    return [
      async (req: FastifyRequest) => {
        if (keyAware) await this.verifyKey(req);
        await this.charge(req, 'api-ip', this.partition(req));
      },
    ];
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
   * live-lookup quota on every upstream call (search-ip or search-key, plus account-ip or account-key for
   * the account-backed feeds); other routes charge it only for `nocache`.
   */
  policy(req: FastifyRequest, opts: { nocache: boolean; search?: 'plain' | 'account' }): ReadPolicy {
    const key = keyStateOf(req);
    const keyed = key.status === 'valid' && key.id !== undefined;
    const mode = keyed ? 'private' : opts.nocache ? 'refresh' : 'shared';
    const charged = opts.search !== undefined || opts.nocache;
    if (!charged) return { mode };
    return {
      mode,
      beforeLive: async () => {
        const partition = keyed ? key.id! : this.partition(req);
        if (opts.search === 'account') {
          await this.charge(req, keyed ? accountKeyPolicy(key.accountQuota ?? DEFAULT_ACCOUNT_QUOTA) : 'account-ip', partition);
        }
        await this.charge(req, keyed ? 'search-key' : 'search-ip', partition);
      },
    };
  }

  /** onSend: every response advertises its quota; responses that consumed nothing show api-ip as it stands. */
  async headers(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    let states = req.rateStates;
    if (!states || states.length === 0) {
      try {
        states = [await this.limiter.peek('api-ip', this.partition(req))];
      } catch {
        return;
      }
    }
    reply.headers(rateLimitHeaders(states));
  }
}
