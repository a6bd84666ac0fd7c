import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DEFAULT_ACCOUNT_QUOTA } from '../limits/policies.ts';
import type { NewKey } from './types.ts';

export const KEY_PREFIX = 'tm_';
// 32 random bytes in base64url are 43 characters.
const KEY_PATTERN = /^tm_[A-Za-z0-9_-]{43}$/;

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function newKeyId(): string {
  return randomBytes(6).toString('hex');
}

/** Rejects strings that cannot be a key without touching the store. */
export function looksLikeKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** Constant-time comparison of two hex SHA-256 digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

export function normalizeNewKey(input: NewKey): { name: string; accountQuota: number } {
  const name = input.name.trim();
  if (!name) throw new RangeError('name must not be empty');
  const accountQuota = input.accountQuota ?? DEFAULT_ACCOUNT_QUOTA;
  if (!Number.isInteger(accountQuota) || accountQuota < 1)
    throw new RangeError('accountQuota must be a positive integer');
  return { name, accountQuota };
}
