// Builds the X provider from the validated configuration: the sessions file (watched), the operations
// table (THREADMARK_X_OPERATIONS, watched) and the reader of X's web app (signing, discovery).
import type { UpstreamPolicy } from '../http.ts';
import { OperationTable } from './operation-table.ts';
import { XProvider } from './provider.ts';
import { loadSessionsFile, SessionPool, watchSessionsFile, type PoolLog, type XSession } from './sessions.ts';
import { XWebApp } from './web-app.ts';

export interface XProviderConfig {
  xApiUrl: string;
  xSessionsPath?: string;
  /** THREADMARK_X_OPERATIONS: validated at start, then watched. */
  xOperationsPath?: string;
  /** THREADMARK_X_DISCOVER / THREADMARK_X_WEB_URL */
  xDiscover?: boolean;
  xWebUrl?: string;
  log?: PoolLog;
  upstreamTimeoutMs: number;
  policy?: UpstreamPolicy;
}

export interface XProviderSetup {
  provider: XProvider;
  /** Labels of the sessions loaded and the number of lines skipped, for a start-up log line. */
  sessions: string[];
  skipped: number;
}

/**
 * No sessions path = no sessions (the provider then has no capabilities); a path that cannot be read is a
 * start-up error, since the operator asked for sessions. Later re-reads that fail keep the sessions in force.
 */
export function createXProvider(cfg: XProviderConfig, now: () => number = Date.now): XProviderSetup {
  let loaded: { sessions: XSession[]; skipped: number } = { sessions: [], skipped: 0 };
  if (cfg.xSessionsPath) {
    try {
      loaded = loadSessionsFile(cfg.xSessionsPath);
    } catch (err) {
      throw new Error(`cannot read THREADMARK_X_SESSIONS (${cfg.xSessionsPath}): ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
  let operations: OperationTable;
  try {
    operations = new OperationTable({ overridePath: cfg.xOperationsPath, log: cfg.log });
  } catch (err) {
    throw new Error(
      `invalid configuration: THREADMARK_X_OPERATIONS (${cfg.xOperationsPath}) ${(err as Error).message}`,
      { cause: err },
    );
  }
  const pool = new SessionPool(loaded.sessions, now, cfg.log);
  const stopSessions = cfg.xSessionsPath ? watchSessionsFile(cfg.xSessionsPath, pool, cfg.log) : () => {};
  operations.watch();
  const web = new XWebApp({
    webUrl: cfg.xWebUrl ?? 'https://x.com',
    discover: cfg.xDiscover ?? false,
    table: operations,
    timeoutMs: cfg.upstreamTimeoutMs,
    policy: cfg.policy,
    log: cfg.log,
    now,
  });
  web.start();
  return {
    provider: new XProvider({
      apiUrl: cfg.xApiUrl,
      pool,
      operations,
      web,
      timeoutMs: cfg.upstreamTimeoutMs,
      policy: cfg.policy,
      onClose: () => {
        stopSessions();
        web.close();
      },
    }),
    sessions: loaded.sessions.map((s) => s.label),
    skipped: loaded.skipped,
  };
}
