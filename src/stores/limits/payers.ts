// Payers charged through the limiter: which allowance pays for each kind of upstream call, for a key and for a
// client address. Request payers record what they charge on the request (the guards, for the RateLimit fields);
// background payers (polls of watched sources) have no request to record on.
import type { CallKind, Payer, PayerKind } from '../../domain/payer.ts';
import { AllowanceRefused } from '../../domain/failures.ts';
import type { Limiter } from './limiter.ts';
import {
  accountKeyPolicy,
  DEFAULT_ACCOUNT_QUOTA,
  type FixedPolicyName,
  type LimitState,
  type Policy,
} from './policies.ts';

/**
 * The allowance one upstream call of each kind costs (one point), by kind of payer. A `read` costs nothing here: its
 * request already paid api-ip, and per live read live-key (keys), search-ip or search-key (lookups), or the account
 * allowance (account-backed reads).
 */
export const CALL_ALLOWANCES: Readonly<
  Record<Exclude<CallKind, 'read'>, Readonly<Record<PayerKind, FixedPolicyName>>>
> = {
  poll: { key: 'poll-key', address: 'poll-ip' },
  translation: { key: 'translate-key', address: 'translate-ip' },
  // The media route charges media-ip per request; a file fetched from X's media hosts costs one point more.
  media: { key: 'live-key', address: 'media-ip' },
};

/** Charges every policy or none, and rejects with AllowanceRefused when one refuses. */
export type ChargeAll = (charges: Array<[Policy | FixedPolicyName, string]>) => Promise<void>;

export interface PayerIdentity {
  kind: PayerKind;
  /** The key's id or the address's partition (clientKey). */
  id: string;
  /** A key's account quota (the account-key allowance); unused for an address. */
  accountQuota?: number;
}

/** A payer whose charges go to `chargeAll` (the guards' for a request, `refusingCharge` in the background). */
export function limiterPayer(who: PayerIdentity, chargeAll: ChargeAll): Payer {
  const account: Policy | FixedPolicyName =
    who.kind === 'key' ? accountKeyPolicy(who.accountQuota ?? DEFAULT_ACCOUNT_QUOTA) : 'account-ip';
  return {
    kind: who.kind,
    id: who.id,
    charge(call) {
      if (call === 'read') return who.kind;
      return chargeAll([[CALL_ALLOWANCES[call][who.kind], who.id]]).then(() => who.kind);
    },
    chargeSession: () => chargeAll([[account, who.id]]),
  };
}

/**
 * A refused (or already used-up) allowance, thrown where the charge is made: into a read's callbacks too, where the
 * layers below know it by its type. The edge answers it 429 rate_limited (http/failures/problem-of.ts).
 */
export function usedUp(state: LimitState): AllowanceRefused {
  return new AllowanceRefused(state.policy, state.resetS);
}

/**
 * Charges every policy or none: when one refuses, the points already taken from the others are given back, so a
 * refused call never uses up another allowance. The states are those of every policy tried, the refusing one last.
 */
export async function chargeAllOrNone(
  limiter: Limiter,
  charges: Array<[Policy | FixedPolicyName, string]>,
): Promise<{ states: LimitState[]; refused?: LimitState }> {
  const taken: Array<{ state: LimitState; policy: Policy | FixedPolicyName; partition: string }> = [];
  for (const [policy, partition] of charges) {
    const state = await limiter.consume(policy, partition);
    if (state.allowed) {
      taken.push({ state, policy, partition });
      continue;
    }
    for (const t of taken) {
      const back = await limiter.refund(t.policy, t.partition, t.state.windowEndsAt ?? 0);
      if (back) t.state = { ...t.state, remaining: Math.min(t.state.limit, t.state.remaining + 1) };
    }
    return { states: [...taken.map((t) => t.state), state], refused: state };
  }
  return { states: taken.map((t) => t.state) };
}

/** Background charges (no request to record them on): all or none, a refusal rejects with AllowanceRefused. */
export function refusingCharge(limiter: Limiter): ChargeAll {
  return async (charges) => {
    const { refused } = await chargeAllOrNone(limiter, charges);
    if (refused) throw usedUp(refused);
  };
}
