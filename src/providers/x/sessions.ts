// Logged-in X web sessions (cookie pairs) and their health. Rate limits on X are per account per operation
// (15-minute windows), so parking is tracked per session per operation; a locked or logged-out account is
// parked for every operation. Cookie values never leave this module except into request headers: the
// `label` (the username) is what logs and errors may show.
import { readFileSync } from 'node:fs';
import type { OperationName } from './operations.ts';

export interface XSession {
  /** Redacted label safe for logs: the account's username, or `session-<n>`. */
  readonly label: string;
  readonly authToken: string;
  readonly ct0: string;
}

export interface ParsedSessions {
  sessions: XSession[];
  /** Lines that were not a usable cookie session (malformed JSON, OAuth pairs, missing cookies). */
  skipped: number;
}

/** When X gave no usable reset time for a rate limit. */
export const DEFAULT_RATE_LIMIT_PARK_MS = 15 * 60 * 1000;
/** A locked/logged-out session needs an operator; keep it out of rotation for a day. */
export const DEAD_PARK_MS = 24 * 60 * 60 * 1000;

/**
 * JSON lines of `{"username","auth_token","ct0"}`; Nitter's `{"kind":"cookie",...}` lines are the same
 * fields. Nitter OAuth lines (`oauth_token`) need OAuth1 signing with the mobile app's keys and are skipped.
 */
export function parseSessionLines(text: string): ParsedSessions {
  const sessions: XSession[] = [];
  let skipped = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    const rec = obj as Record<string, unknown>;
    const kind = rec?.kind;
    const authToken = rec?.auth_token;
    const ct0 = rec?.ct0;
    if (typeof obj !== 'object' || obj === null || (kind !== undefined && kind !== 'cookie')) {
      skipped++;
      continue;
    }
    if (typeof authToken !== 'string' || !authToken || typeof ct0 !== 'string' || !ct0) {
      skipped++;
      continue;
    }
    const username = typeof rec.username === 'string' && rec.username ? rec.username : `session-${sessions.length + 1}`;
    sessions.push({ label: username, authToken, ct0 });
  }
  return { sessions, skipped };
}

export function loadSessionsFile(path: string): ParsedSessions {
  return parseSessionLines(readFileSync(path, 'utf8'));
}

export type SessionState = 'ok' | 'rate_limited' | 'dead';

interface Health {
  /** Per operation: epoch ms until which the session must not be used for it. */
  parkedUntil: Map<OperationName, number>;
  /** Per operation: last seen x-rate-limit-remaining / reset (epoch ms). */
  limits: Map<OperationName, { remaining: number; resetAt: number }>;
  deadUntil: number;
  deadReason?: string;
}

export interface SessionStatus {
  label: string;
  state: SessionState;
  /** Seconds until the session is usable for the asked operation (0 = now). */
  availableInS: number;
  deadReason?: string;
}

export class SessionPool {
  private readonly health = new Map<XSession, Health>();
  private readonly nextIndex = new Map<OperationName, number>();

  constructor(
    readonly sessions: readonly XSession[],
    private readonly now: () => number = Date.now,
  ) {
    for (const s of sessions) this.health.set(s, { parkedUntil: new Map(), limits: new Map(), deadUntil: 0 });
  }

  get size(): number {
    return this.sessions.length;
  }

  /** Next usable session for `op`, round robin per operation; undefined when every session is parked. */
  acquire(op: OperationName, exclude: ReadonlySet<XSession> = new Set()): XSession | undefined {
    const n = this.sessions.length;
    const start = this.nextIndex.get(op) ?? 0;
    for (let i = 0; i < n; i++) {
      const idx = (start + i) % n;
      const s = this.sessions[idx]!;
      if (exclude.has(s) || this.waitMs(s, op) > 0) continue;
      this.nextIndex.set(op, (idx + 1) % n);
      return s;
    }
    return undefined;
  }

  /** Reads `x-rate-limit-remaining/reset`; a window used up parks the session for `op` until its reset. */
  recordRateLimit(session: XSession, op: OperationName, headers: Headers): void {
    const remaining = Number(headers.get('x-rate-limit-remaining') ?? NaN);
    const resetS = Number(headers.get('x-rate-limit-reset') ?? NaN);
    if (!Number.isFinite(remaining)) return;
    const h = this.health.get(session);
    if (!h) return;
    const resetAt = Number.isFinite(resetS) ? resetS * 1000 : this.now() + DEFAULT_RATE_LIMIT_PARK_MS;
    h.limits.set(op, { remaining, resetAt });
    if (remaining <= 0) this.park(h, op, resetAt);
  }

  /** HTTP 429 or GraphQL code 88: parked for `op` until the reset X announced, else for 15 minutes. */
  parkRateLimited(session: XSession, op: OperationName, headers?: Headers): void {
    const h = this.health.get(session);
    if (!h) return;
    const resetS = Number(headers?.get('x-rate-limit-reset') ?? NaN);
    const now = this.now();
    const resetAt = Number.isFinite(resetS) && resetS * 1000 > now ? resetS * 1000 : now + DEFAULT_RATE_LIMIT_PARK_MS;
    this.park(h, op, resetAt);
  }

  /** Locked (326), logged out (32/89/239) or refused (403): out of rotation for every operation. */
  markDead(session: XSession, reason: string): void {
    const h = this.health.get(session);
    if (!h) return;
    h.deadUntil = this.now() + DEAD_PARK_MS;
    h.deadReason = reason;
  }

  /** True when some session can serve `op` now (or any operation when `op` is omitted). */
  isAvailable(op?: OperationName): boolean {
    return this.nextAvailableInS(op) === 0;
  }

  /**
   * Seconds until the earliest session becomes usable for `op` (any operation when omitted): 0 when one is
   * usable now, undefined when there are no sessions at all. Feeds Retry-After.
   */
  nextAvailableInS(op?: OperationName): number | undefined {
    if (this.sessions.length === 0) return undefined;
    let best = Infinity;
    for (const s of this.sessions) best = Math.min(best, op ? this.waitMs(s, op) : this.waitAnyMs(s));
    return Math.ceil(best / 1000);
  }

  status(op?: OperationName): SessionStatus[] {
    return this.sessions.map((s) => {
      const h = this.health.get(s)!;
      const wait = op ? this.waitMs(s, op) : this.waitAnyMs(s);
      const dead = h.deadUntil > this.now();
      return {
        label: s.label,
        state: dead ? 'dead' : wait > 0 ? 'rate_limited' : 'ok',
        availableInS: Math.ceil(wait / 1000),
        ...(dead && h.deadReason ? { deadReason: h.deadReason } : {}),
      };
    });
  }

  private park(h: Health, op: OperationName, until: number): void {
    h.parkedUntil.set(op, Math.max(h.parkedUntil.get(op) ?? 0, until));
  }

  private waitMs(s: XSession, op: OperationName): number {
    const h = this.health.get(s)!;
    const until = Math.max(h.deadUntil, h.parkedUntil.get(op) ?? 0);
    return Math.max(0, until - this.now());
  }

  /** A session parked for one operation can still serve the others. */
  private waitAnyMs(s: XSession): number {
    const h = this.health.get(s)!;
    const now = this.now();
    if (h.deadUntil > now) return h.deadUntil - now;
    return 0;
  }
}
