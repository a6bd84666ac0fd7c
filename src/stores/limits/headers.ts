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
    'RateLimit-Policy': fieldList(states, (s) => [s.limit, s.windowS], 'q', 'w'),
    RateLimit: fieldList(states, (s) => [s.remaining, s.resetS], 'r', 't'),
  };
  const tightest = mostConstrained(states);
  headers['RateLimit-Limit'] = String(tightest.limit);
  headers['RateLimit-Remaining'] = String(tightest.remaining);
  headers['RateLimit-Reset'] = String(tightest.resetS);
  const denied = states.filter((s) => !s.allowed);
  if (denied.length > 0) headers['Retry-After'] = String(Math.max(...denied.map((s) => s.resetS)));
  return headers;
}

const PLAIN_NAME = /^[a-z][a-z0-9-]*$/;
const plainInt = (n: number) => Number.isSafeInteger(n) && Math.abs(n) < 1e15;

/**
 * A structured-field list of `"policy";k1=v1;k2=v2` members. Every response carries two of these, so the
 * usual case (our own policy names, integer parameters) is written directly; anything else goes through
 * the general serializer, which also rejects what is not a valid field.
 */
function fieldList(
  states: readonly LimitState[],
  values: (s: LimitState) => [number, number],
  k1: string,
  k2: string,
): string {
  let out = '';
  for (const s of states) {
    const [v1, v2] = values(s);
    if (!PLAIN_NAME.test(s.policy) || !plainInt(v1) || !plainInt(v2)) {
      return serializeList(
        states.map((x) => [
          x.policy,
          new Map([
            [k1, values(x)[0]],
            [k2, values(x)[1]],
          ]),
        ]),
      );
    }
    out += `${out ? ', ' : ''}${member(s.policy, k1, v1, k2, v2)}`;
  }
  return out;
}

/** One `"policy";k1=v1;k2=v2` member, for a plain policy name and integer parameters. */
export function member(policy: string, k1: string, v1: number, k2: string, v2: number): string {
  return `"${policy}";${k1}=${v1};${k2}=${v2}`;
}

/** A denying policy first, then the fewest remaining, then the longest wait. */
export function mostConstrained(states: readonly LimitState[]): LimitState {
  return states.reduce((a, b) => {
    if (a.allowed !== b.allowed) return a.allowed ? b : a;
    if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
    return b.resetS > a.resetS ? b : a;
  });
}
