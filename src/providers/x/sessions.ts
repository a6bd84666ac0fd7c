// Logged-in X web sessions (cookie pairs) and their health. Rate limits on X are per account per operation
// (15-minute windows), so parking is tracked per session per operation; a locked or logged-out account is
// parked for every operation. Cookie values never leave this module except into request headers: the
// `label` (the username) is what logs and errors may show.
import { readFileSync } from 'node:fs';
import { watchPath } from './file-watch.ts';
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

/** Re-reads the sessions file into `pool` whenever it changes; a file that cannot be read keeps the pool. */
export function watchSessionsFile(path: string, pool: SessionPool, log?: PoolLog): () => void {
  return watchPath(path, () => {
    try {
      const { sessions, skipped } = loadSessionsFile(path);
      pool.setFileSessions(sessions);
      log?.info({ sessions: sessions.map((s) => s.label), skipped }, 'THREADMARK_X_SESSIONS re-read');
    } catch (err) {
      log?.warn(
        { path },
        `THREADMARK_X_SESSIONS could not be re-read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); keeping the sessions in rotation`,
      );
    }
  });
}

/** Why a session is out of every operation: it needs an operator (new cookies, an unlocked account). */
export type DeadState = 'locked' | 'suspended' | 'logged_out';
export type SessionState = 'ok' | 'rate_limited' | DeadState;

interface Health {
  /** Per operation: epoch ms until which the session must not be used for it. */
  parkedUntil: Map<OperationName, number>;
  /** Per operation: last seen x-rate-limit-remaining / reset (epoch ms). */
  limits: Map<OperationName, { remaining: number; limit?: number; resetAt: number }>;
  deadUntil: number;
  deadState?: DeadState;
  deadReason?: string;
}

/** One operation's rate-limit window as X last announced it for a session. */
export interface OperationWindow {
  remaining?: number;
  limit?: number;
  /** ISO time X resets the window. */
  resetAt?: string;
  /** Seconds until the session may be used for this operation again (0 = now). */
  availableInS: number;
}

export interface SessionStatus {
  label: string;
  state: SessionState;
  /** Seconds until the session is usable for the asked operation (0 = now). */
  availableInS: number;
  deadReason?: string;
}

export interface SessionDetail extends SessionStatus {
  /** Where the session came from: the sessions file or an admin request at run time. */
  origin: SessionOrigin;
  operations: Partial<Record<OperationName, OperationWindow>>;
}

export type SessionOrigin = 'file' | 'admin';

export interface PoolLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

const same = (a: XSession, b: XSession) => a.label === b.label && a.authToken === b.authToken && a.ct0 === b.ct0;

/**
 * The sessions in rotation: those of the sessions file plus those added at run time (admin), minus those
 * removed at run time. Health (parking, windows) follows a session across re-reads as long as its cookies
 * stay the same.
 */
export class SessionPool {
  private readonly health = new Map<XSession, Health>();
  private readonly nextIndex = new Map<OperationName, number>();
  private fromFile: XSession[] = [];
  private added: XSession[] = [];
  private removed = new Set<string>();
  private active: XSession[] = [];

  constructor(
    sessions: readonly XSession[],
    private readonly now: () => number = Date.now,
    private readonly log?: PoolLog,
  ) {
    this.fromFile = [...sessions];
    this.rebuild();
  }

  get sessions(): readonly XSession[] {
    return this.active;
  }

  get size(): number {
    return this.active.length;
  }

  /** The sessions file was re-read. */
  setFileSessions(sessions: readonly XSession[]): void {
    this.fromFile = [...sessions];
    this.rebuild();
  }

  /** Run-time changes (admin), as a whole: the shared copy in distributed mode replaces the local one. */
  setRuntime(added: readonly XSession[], removed: Iterable<string>): void {
    this.added = [...added];
    this.removed = new Set([...removed].map((l) => l.toLowerCase()));
    this.rebuild();
  }

  /** Adds (or replaces, by username) a session at run time. */
  add(session: XSession): void {
    this.added = [...this.added.filter((s) => s.label.toLowerCase() !== session.label.toLowerCase()), session];
    this.removed.delete(session.label.toLowerCase());
    this.rebuild();
  }

  /** Takes a session out of rotation by username; false when no such session is in rotation. */
  remove(label: string): boolean {
    const key = label.toLowerCase();
    if (!this.active.some((s) => s.label.toLowerCase() === key)) return false;
    this.added = this.added.filter((s) => s.label.toLowerCase() !== key);
    this.removed.add(key);
    this.rebuild();
    return true;
  }

  runtime(): { added: XSession[]; removed: string[] } {
    return { added: [...this.added], removed: [...this.removed] };
  }

  originOf(s: XSession): SessionOrigin {
    return this.added.includes(s) ? 'admin' : 'file';
  }

  private rebuild(): void {
    const byLabel = new Map<string, XSession>();
    for (const s of this.fromFile) if (!this.removed.has(s.label.toLowerCase())) byLabel.set(s.label.toLowerCase(), s);
    // A session added at run time replaces a file session of the same username.
    for (const s of this.added) byLabel.set(s.label.toLowerCase(), s);
    const old = [...this.health.keys()];
    const next: XSession[] = [];
    const health = new Map<XSession, Health>();
    for (const s of byLabel.values()) {
      const kept = old.find((o) => same(o, s));
      const h = kept ? this.health.get(kept)! : { parkedUntil: new Map(), limits: new Map(), deadUntil: 0 };
      health.set(s, h);
      next.push(s);
    }
    this.health.clear();
    for (const [s, h] of health) this.health.set(s, h);
    this.active = next;
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
    const limit = Number(headers.get('x-rate-limit-limit') ?? NaN);
    const resetAt = Number.isFinite(resetS) ? resetS * 1000 : this.now() + DEFAULT_RATE_LIMIT_PARK_MS;
    h.limits.set(op, { remaining, resetAt, ...(Number.isFinite(limit) ? { limit } : {}) });
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

  /**
   * Locked (326, 403), suspended (64) or logged out (32/89/239/353, 401): out of rotation for every
   * operation for DEAD_PARK_MS, with one warning naming the session (never its cookies) and what to do.
   */
  markDead(session: XSession, reason: string, state: DeadState = 'locked'): void {
    const h = this.health.get(session);
    if (!h) return;
    const fresh = h.deadUntil <= this.now();
    h.deadUntil = this.now() + DEAD_PARK_MS;
    h.deadReason = reason;
    h.deadState = state;
    if (fresh) {
      const todo =
        state === 'logged_out'
          ? 'log in again and replace its cookies'
          : 'check the account on x.com, then replace or remove it';
      this.log?.warn(
        { session: session.label, state, reason, parkedHours: DEAD_PARK_MS / 3_600_000 },
        `x session ${session.label} ${state.replace('_', ' ')} (${reason}): out of rotation for ${DEAD_PARK_MS / 3_600_000} h; ${todo} (sessions file or POST /admin/sessions)`,
      );
    }
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
        state: dead ? (h.deadState ?? 'locked') : wait > 0 ? 'rate_limited' : 'ok',
        availableInS: Math.ceil(wait / 1000),
        ...(dead && h.deadReason ? { deadReason: h.deadReason } : {}),
      };
    });
  }

  /** Every session with its per-operation windows, for GET /admin/sessions. No cookie value appears. */
  details(): SessionDetail[] {
    const now = this.now();
    return this.status().map((st, i) => {
      const s = this.sessions[i]!;
      const h = this.health.get(s)!;
      const operations: SessionDetail['operations'] = {};
      const ops = new Set<OperationName>([...h.limits.keys(), ...h.parkedUntil.keys()]);
      for (const op of ops) {
        const w = h.limits.get(op);
        const fresh = w && w.resetAt > now;
        operations[op] = {
          ...(fresh
            ? {
                remaining: w.remaining,
                ...(w.limit !== undefined ? { limit: w.limit } : {}),
                resetAt: new Date(w.resetAt).toISOString(),
              }
            : {}),
          availableInS: Math.ceil(this.waitMs(s, op) / 1000),
        };
      }
      // Parked for some operation only: still listed as rate limited, the windows say for which.
      const parked = st.state === 'ok' && Object.values(operations).some((o) => o.availableInS > 0);
      return { ...st, state: parked ? 'rate_limited' : st.state, origin: this.originOf(s), operations };
    });
  }

  /**
   * What is left of `op`'s rate-limit windows across the sessions in rotation (dead ones left out), as X last
   * announced them: a parked session has nothing left, a session whose window has reset or was never announced is
   * counted as a full window of the largest limit seen. Undefined until X has announced a limit for `op`.
   */
  pooledWindow(op: OperationName): { remaining: number; limit: number } | undefined {
    const now = this.now();
    let largest = 0;
    for (const s of this.sessions) {
      const w = this.health.get(s)!.limits.get(op);
      if (w) largest = Math.max(largest, w.limit ?? w.remaining);
    }
    if (largest === 0) return undefined;
    let remaining = 0;
    let limit = 0;
    for (const s of this.sessions) {
      const h = this.health.get(s)!;
      if (h.deadUntil > now) continue;
      const w = h.limits.get(op);
      const fresh = w && w.resetAt > now;
      const full = fresh ? (w.limit ?? largest) : largest;
      limit += full;
      if (this.waitMs(s, op) === 0) remaining += fresh ? Math.min(w.remaining, full) : full;
    }
    return { remaining, limit };
  }

  /** Sessions usable for `op` right now. */
  usableCount(op: OperationName): number {
    return this.sessions.filter((s) => this.waitMs(s, op) === 0).length;
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
