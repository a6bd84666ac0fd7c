// The simulated X accounts behind logged-in sessions: which cookie pairs are accepted, per-account
// per-operation rate-limit windows (x-rate-limit-* headers, 429 + code 88 when used up), locked accounts
// (code 326) and logged-out sessions (401, code 32). Any auth_token is a valid account until locked, so tests can invent sessions.
import type { IncomingHttpHeaders } from 'node:http';
import { WEB_BEARER } from '../../src/providers/x/client.ts';
import { json, type SimResponse } from './types.ts';

export interface XAccountLimits {
  /** Requests per account per operation per window. */
  limit: number;
  windowS: number;
}

const DEFAULT_LIMITS: XAccountLimits = { limit: 150, windowS: 900 };

interface Window {
  used: number;
  resetAtS: number;
}

export class XAccounts {
  private limits: XAccountLimits = { ...DEFAULT_LIMITS };
  private readonly windows = new Map<string, Window>();
  private readonly locked = new Set<string>();
  private readonly loggedOut = new Set<string>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  setLimits(l: Partial<XAccountLimits>): void {
    this.limits = { ...this.limits, ...l };
    this.windows.clear();
  }

  lock(authToken: string): void {
    this.locked.add(authToken);
  }

  /** The account's cookies stop working (password change, X ended the session): 401 with code 32. */
  logout(authToken: string): void {
    this.loggedOut.add(authToken);
  }

  reset(): void {
    this.limits = { ...DEFAULT_LIMITS };
    this.windows.clear();
    this.locked.clear();
    this.loggedOut.clear();
  }

  /**
   * Checks the request's session like X's edge does and counts it against the account's window.
   * Returns the response to send instead of the operation's answer, or the rate-limit headers to add.
   */
  admit(headers: IncomingHttpHeaders, op: string): { refuse: SimResponse } | { headers: Record<string, string> } {
    const auth = String(headers.authorization ?? '');
    const cookies = parseCookies(String(headers.cookie ?? ''));
    const authToken = cookies.get('auth_token');
    const ct0 = cookies.get('ct0');
    if (auth !== `Bearer ${WEB_BEARER}` || !authToken) {
      return { refuse: json(403, { errors: [{ code: 32, message: 'Could not authenticate you.' }] }) };
    }
    if (!ct0 || headers['x-csrf-token'] !== ct0) {
      return {
        refuse: json(403, {
          errors: [{ code: 353, message: 'This request requires a matching csrf cookie and header.' }],
        }),
      };
    }
    if (this.loggedOut.has(authToken)) {
      return { refuse: json(401, { errors: [{ code: 32, message: 'Could not authenticate you.' }] }) };
    }
    if (this.locked.has(authToken)) {
      return {
        refuse: json(403, {
          errors: [
            {
              code: 326,
              kind: 'Permissions',
              message:
                'Authorization: Denied by access control: To protect our users from spam and other malicious activity, this account is temporarily locked.',
            },
          ],
        }),
      };
    }
    const nowS = Math.floor(this.nowMs() / 1000);
    const key = `${authToken}\u0000${op}`;
    let w = this.windows.get(key);
    if (!w || w.resetAtS <= nowS) {
      w = { used: 0, resetAtS: nowS + this.limits.windowS };
      this.windows.set(key, w);
    }
    const rl = (remaining: number) => ({
      'x-rate-limit-limit': String(this.limits.limit),
      'x-rate-limit-remaining': String(remaining),
      'x-rate-limit-reset': String(w.resetAtS),
    });
    if (w.used >= this.limits.limit) {
      return { refuse: json(429, { errors: [{ code: 88, message: 'Rate limit exceeded' }] }, rl(0)) };
    }
    w.used++;
    return { headers: rl(this.limits.limit - w.used) };
  }
}

function parseCookies(header: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

/** The accounts of the simulator process; tests in the same process steer them directly. */
export const xAccounts = new XAccounts();
