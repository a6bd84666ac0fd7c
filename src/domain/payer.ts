// Who pays for an upstream call. Every call the service makes upstream (a read, a background poll of a watched
// source, a translation, a media fetch) is made for a payer, an API key or a client address, and charged to that
// payer's allowance for its kind of call where the call is made: the provider chain for reads, polls and
// translations (providers/chain.ts), the media proxy for media files. The allowances themselves are the limiter's
// (stores/limits/policies.ts); the domain only names who pays and for what.

/** An API key (by its id, never the key) or a client address (by its rate-limit partition). */
export type PayerKind = 'key' | 'address';
export const PAYER_KINDS: readonly PayerKind[] = ['key', 'address'];

/**
 * What an upstream call is for. A `read` is paid by its request's own charge (api-ip, and per live read live-key,
 * search-ip or search-key), so the chain charges it nothing more; the others are charged one point per call.
 */
export type CallKind = 'read' | 'poll' | 'translation' | 'media';
export const CALL_KINDS: readonly CallKind[] = ['read', 'poll', 'translation', 'media'];

export interface Payer {
  readonly kind: PayerKind;
  /** The key's id or the address's partition. */
  readonly id: string;
  /**
   * Charges one upstream call of `call` to this payer's allowance for it and gives the kind of payer that paid (a
   * source's followers pay in turn, see `payerInTurn`): at once when nothing is charged (a `read`), else once the
   * allowance took it. Rejects with AllowanceRefused (domain/failures.ts) when the allowance is used up.
   */
  charge(call: CallKind): PayerKind | Promise<PayerKind>;
  /** Charges one upstream call that spends a logged-in X session (the account allowance), or rejects with AllowanceRefused. */
  chargeSession(): Promise<void>;
}

/**
 * The payer of a background read that several followers keep alive: each charge goes to the first of them (from a
 * turn that moves on with every read, so one follower does not pay for all) whose allowance accepts it. When none
 * can pay, the charge fails with the last refusal and the read is not made: the source is paused until a follower
 * has allowance again.
 */
export function payerInTurn(payers: readonly Payer[], turn: number): Payer {
  if (payers.length === 0) throw new Error('a background read needs at least one payer');
  const ordered = payers.map((_, i) => payers[(turn + i) % payers.length]!);
  const first = ordered[0]!;
  async function inTurn<T>(pay: (p: Payer) => T | Promise<T>): Promise<T> {
    let refusal: unknown;
    for (const p of ordered) {
      try {
        return await pay(p);
      } catch (err) {
        refusal = err;
      }
    }
    throw refusal;
  }
  return {
    kind: first.kind,
    id: first.id,
    charge: (call) => inTurn((p) => p.charge(call)),
    chargeSession: () => inTurn((p) => p.chargeSession()),
  };
}

/** Distinct payers, in the order given (a key with two watches on one source is one payer). */
export function distinctPayers(payers: readonly Payer[]): Payer[] {
  const seen = new Map<string, Payer>();
  for (const p of payers) if (!seen.has(`${p.kind}:${p.id}`)) seen.set(`${p.kind}:${p.id}`, p);
  return [...seen.values()];
}
