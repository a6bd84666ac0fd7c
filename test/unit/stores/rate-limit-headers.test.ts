// One policy's RateLimit fields are the fields the general structured-field serializer writes, in the same order:
// the normal path and the response layer's fast path both send them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serializeList } from 'structured-headers';
import { rateLimitHeaders } from '../../../src/stores/limits/headers.ts';
import type { LimitState } from '../../../src/stores/limits/policies.ts';

function general(s: LimitState): Record<string, string> {
  const list = (k1: string, v1: number, k2: string, v2: number) =>
    serializeList([
      [
        s.policy,
        new Map([
          [k1, v1],
          [k2, v2],
        ]),
      ],
    ]);
  return {
    'RateLimit-Policy': list('q', s.limit, 'w', s.windowS),
    RateLimit: list('r', s.remaining, 't', s.resetS),
    'RateLimit-Limit': String(s.limit),
    'RateLimit-Remaining': String(s.remaining),
    'RateLimit-Reset': String(s.resetS),
    ...(s.allowed ? {} : { 'Retry-After': String(s.resetS) }),
  };
}

test('a single policy, allowed or refused, gives the general serializer’s fields in the same order', () => {
  const states: LimitState[] = [
    { allowed: true, policy: 'api-ip', limit: 600, windowS: 60, remaining: 599, resetS: 60 },
    { allowed: true, policy: 'api-ip', limit: 600, windowS: 60, remaining: 0, resetS: 1 },
    { allowed: false, policy: 'search-ip', limit: 30, windowS: 60, remaining: 0, resetS: 17 },
    { allowed: true, policy: 'account-key', limit: 5000, windowS: 900, remaining: 4321, resetS: 899 },
  ];
  for (const s of states) {
    const got = rateLimitHeaders([s]);
    const want = general(s);
    assert.deepEqual(Object.entries(got), Object.entries(want), JSON.stringify(s));
  }
});
