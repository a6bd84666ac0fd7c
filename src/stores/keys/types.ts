/** What the service keeps about an API key; the secret itself is never stored. */
export interface KeyRecord {
  id: string;
  name: string;
  accountQuota: number;
  enabled: boolean;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** The answer to `create`, the only time the plaintext key exists outside the caller's hands. */
export interface IssuedKey {
  id: string;
  key: string;
  name: string;
  accountQuota: number;
  enabled: true;
}

export interface NewKey {
  name: string;
  accountQuota?: number;
}

export type VerifyResult = { status: 'valid'; record: KeyRecord } | { status: 'invalid' } | { status: 'unverified' };

/**
 * Operator operations and per-request verification. `verify` never throws: an unreachable store
 * answers `unverified` so the request is served with the public allowance. Lookups are not cached,
 * so a disable or delete is seen by the very next request on every instance.
 */
export interface KeyStore {
  create(input: NewKey): Promise<IssuedKey>;
  list(): Promise<KeyRecord[]>;
  /** The updated record, or undefined when no key has this id. */
  disable(id: string): Promise<KeyRecord | undefined>;
  enable(id: string): Promise<KeyRecord | undefined>;
  /** False when no key has this id. */
  delete(id: string): Promise<boolean>;
  verify(key: string): Promise<VerifyResult>;
  close(): Promise<void>;
}
