// Run-time management of X sessions (GET/POST/DELETE /admin/sessions): the views never carry a cookie value,
// only the username. In distributed mode additions and removals go through a map shared by every instance
// (Redis), which each instance re-reads every SYNC_MS, so a session added on one instance serves on all.
// Health (parking, windows) stays per instance: each instance sees X's answers to its own calls.
import { OPERATION_NAMES, type OperationName } from './operations.ts';
import type { PoolLog, SessionDetail, SessionPool, XSession } from './sessions.ts';

export const SYNC_MS = 2000;

/** The shared map's surface (stores' SharedHash), declared here so providers do not import stores. */
export interface SharedRecords {
  all(): Promise<Record<string, string> | undefined>;
  set(field: string, value: string): Promise<boolean>;
}

export interface NewSession {
  username: string;
  auth_token: string;
  ct0: string;
}

export interface SessionView extends Omit<SessionDetail, 'label'> {
  username: string;
}

export interface SessionList {
  sessions: SessionView[];
  /** Per operation: sessions that can serve it right now. */
  usable: Record<OperationName, number>;
}

/** Thrown when the shared map cannot be written (Redis down): the change was not made anywhere. */
export class SharedSessionsUnavailable extends Error {}

type Record_ =
  { username: string; state: 'added'; auth_token: string; ct0: string } | { username: string; state: 'removed' };

export class SessionAdmin {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly pool: SessionPool,
    private readonly shared?: SharedRecords,
    private readonly log?: PoolLog,
  ) {}

  /** Distributed mode: adopt the shared run-time changes now and every SYNC_MS. */
  async start(): Promise<void> {
    if (!this.shared) return;
    await this.sync();
    this.timer = setInterval(() => void this.sync(), SYNC_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  list(): SessionList {
    const sessions = this.pool.details().map(({ label, ...rest }) => ({ username: label, ...rest }));
    const usable = Object.fromEntries(OPERATION_NAMES.map((op) => [op, this.pool.usableCount(op)])) as Record<
      OperationName,
      number
    >;
    return { sessions, usable };
  }

  view(username: string): SessionView | undefined {
    return this.list().sessions.find((s) => s.username.toLowerCase() === username.toLowerCase());
  }

  /** Adds or replaces (same username) a session; it is in rotation at once on this instance. */
  async add(s: NewSession): Promise<SessionView> {
    const session: XSession = { label: s.username, authToken: s.auth_token, ct0: s.ct0 };
    await this.write({ username: s.username, state: 'added', auth_token: s.auth_token, ct0: s.ct0 });
    this.pool.add(session);
    this.log?.info({ session: s.username }, `x session ${s.username} added at run time`);
    return this.view(s.username)!;
  }

  /** False when no session of that username is in rotation. */
  async remove(username: string): Promise<boolean> {
    if (!this.view(username)) return false;
    await this.write({ username, state: 'removed' });
    this.pool.remove(username);
    this.log?.info({ session: username }, `x session ${username} removed at run time`);
    return true;
  }

  /** Re-reads the shared map into the pool; keeps the pool as it is while the map cannot be read. */
  async sync(): Promise<void> {
    const all = await this.shared?.all();
    if (!all) return;
    const added: XSession[] = [];
    const removed: string[] = [];
    for (const raw of Object.values(all)) {
      const r = parseRecord(raw);
      if (r?.state === 'added') added.push({ label: r.username, authToken: r.auth_token, ct0: r.ct0 });
      else if (r?.state === 'removed') removed.push(r.username);
    }
    this.pool.setRuntime(added, removed);
  }

  private async write(r: Record_): Promise<void> {
    if (!this.shared) return;
    if (!(await this.shared.set(r.username.toLowerCase(), JSON.stringify(r)))) {
      throw new SharedSessionsUnavailable('the shared store (Redis) did not take the change; no instance was changed');
    }
  }
}

function parseRecord(raw: string): Record_ | undefined {
  try {
    const r = JSON.parse(raw) as Record_;
    if (typeof r?.username !== 'string') return undefined;
    if (r.state === 'removed') return r;
    if (r.state === 'added' && typeof r.auth_token === 'string' && typeof r.ct0 === 'string') return r;
  } catch {
    // a foreign or damaged field is ignored
  }
  return undefined;
}
