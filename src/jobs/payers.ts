// Who pays for the background reads of a watched source: its followers. A watch is paid by its API key (poll-key,
// and account-key for calls that spend an X session), a WebSub subscription by the address that subscribed
// (poll-ip, account-ip). A key that is disabled or deleted pays for nothing, so its watches keep no source alive.
import type { Payer } from '../domain/payer.ts';
import type { KeyRecord, KeyStore } from '../stores/keys/types.ts';
import type { Limiter } from '../stores/limits/limiter.ts';
import { limiterPayer, refusingCharge } from '../stores/limits/payers.ts';

export interface FollowerPayers {
  /** The payer of a watch: its key, while the key is enabled. */
  ofKey(keyId: string): Promise<Payer | undefined>;
  /** The payer of a subscription: the subscribing address's partition. */
  ofAddress(partition: string): Payer;
}

/** How long the key list read for the keys' account quotas is reused (a disabled key stops paying within it). */
const KEYS_REUSED_MS = 30_000;

export function followerPayers(limiter: Limiter, keys: KeyStore): FollowerPayers {
  const charge = refusingCharge(limiter);
  let known: { at: number; byId: Map<string, KeyRecord> } | undefined;
  const keyRecord = async (id: string): Promise<KeyRecord | undefined> => {
    if (!known || Date.now() - known.at > KEYS_REUSED_MS)
      known = { at: Date.now(), byId: new Map((await keys.list()).map((k) => [k.id, k])) };
    return known.byId.get(id);
  };
  return {
    async ofKey(keyId) {
      const k = await keyRecord(keyId);
      if (!k?.enabled) return undefined;
      return limiterPayer({ kind: 'key', id: k.id, accountQuota: k.accountQuota }, charge);
    },
    ofAddress: (partition) => limiterPayer({ kind: 'address', id: partition }, charge),
  };
}
