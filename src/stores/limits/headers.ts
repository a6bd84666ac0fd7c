import { serializeList } from 'structured-headers';
import type { LimitState } from './policies.ts';

/**
 * IETF RateLimit / RateLimit-Policy structured fields listing every policy the response is subject to,
 * plus the legacy RateLimit-Limit/-Remaining/-Reset triple for the most constrained one and, when any
 * policy denied the request, Retry-After.
 */
export function rateLimitHeaders(states: readonly LimitState[]): Record<string, string> {
  if (states.length === 0) return {};
  const headers: Record<string, string> = {
    'RateLimit-Policy': serializeList(states.map((s) => [s.policy, new Map([['q', s.limit], ['w', s.windowS]])])),
    RateLimit: serializeList(states.map((s) => [s.policy, new Map([['r', s.remaining], ['t', s.resetS]])])),
  };
  const tightest = mostConstrained(states);
  headers['RateLimit-Limit'] = String(tightest.limit);
  headers['RateLimit-Remaining'] = String(tightest.remaining);
  headers['RateLimit-Reset'] = String(tightest.resetS);
  const denied = states.filter((s) => !s.allowed);
  if (denied.length > 0) headers['Retry-After'] = String(Math.max(...denied.map((s) => s.resetS)));
  return headers;
}

/** A denying policy first, then the fewest remaining, then the longest wait. */
export function mostConstrained(states: readonly LimitState[]): LimitState {
  return states.reduce((a, b) => {
    if (a.allowed !== b.allowed) return a.allowed ? b : a;
    if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
    return b.resetS > a.resetS ? b : a;
  });
}
