// Opening the embedded key store's SQLite database, on the engine that works under the running Node, with a failure
// that says what to do. better-sqlite3 12, the last line that supports Node 20, aborts the process on Node 24 (its
// objects' cleanup hooks outlive Node's environment there); Node 24's own SQLite (node:sqlite) is stable and needs
// no native build, while Node 22 still prints an experimental warning for it on every start. So Node 24 and later
// use node:sqlite and older lines better-sqlite3, whose native binding must then be built for the running Node.
import { engines } from '../../engines.ts';

export type SqlValue = string | number | bigint | null | Uint8Array;

export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number | bigint };
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
}

/** The part of better-sqlite3's Database and node:sqlite's DatabaseSync the key store uses; both have it. */
export interface SqlDatabase {
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  close(): void;
}

type Engine = 'node:sqlite' | 'better-sqlite3';

export class KeyStoreOpenError extends Error {
  override name = 'KeyStoreOpenError';
}

export interface OpenOptions {
  /** Another build of better-sqlite3's binding (which also selects better-sqlite3); tests give it a broken one. */
  nativeBinding?: string;
}

export function sqliteEngine(opts: OpenOptions = {}): Engine {
  if (opts.nativeBinding) return 'better-sqlite3';
  return Number(process.versions.node.split('.')[0]) >= 24 ? 'node:sqlite' : 'better-sqlite3';
}

/** Node's code for a native module that does not load, and the messages of a binding built for another Node. */
function isBindingFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : '';
  return (
    code === 'ERR_DLOPEN_FAILED' ||
    /NODE_MODULE_VERSION|did not self-register|Could not locate the bindings file/.test(message)
  );
}

function construct(engine: Engine, path: string, opts: OpenOptions): SqlDatabase {
  if (engine === 'node:sqlite') {
    const { DatabaseSync } = engines.nodeSqlite() as { DatabaseSync: new (path: string) => SqlDatabase };
    return new DatabaseSync(path);
  }
  // Loaded only here, so a Node that uses node:sqlite never loads the native binding.
  const Database = engines.betterSqlite3() as new (path: string, options: object) => SqlDatabase;
  return new Database(path, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
}

/**
 * Opens a database that several processes share (the service, CLI commands) in WAL mode. The wait for a lock is set
 * before anything that takes one: switching to WAL does, and without the wait it fails at once while another process
 * holds the file (node:sqlite's connections start with no wait at all).
 */
export function openKeysDb(path: string, opts: OpenOptions = {}): SqlDatabase {
  const db = openEngine(path, opts);
  try {
    db.exec(`PRAGMA busy_timeout = ${BUSY_WAIT_MS}`);
    switchToWal(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** How long a statement waits for another process's lock. */
const BUSY_WAIT_MS = 2000;

/**
 * Two processes switching a new file to WAL at once can each hold a read lock the other's switch must upgrade past;
 * SQLite then fails one at once ("database is locked") rather than let both wait. The other one completes the
 * switch, so trying again a moment later finds the file in WAL already, within the same wait as any other lock.
 */
function switchToWal(db: SqlDatabase): void {
  const until = Date.now() + BUSY_WAIT_MS;
  for (;;) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (err) {
      if (!isBusy(err) || Date.now() >= until) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** better-sqlite3 names SQLITE_BUSY (or an extended form) in `code`; node:sqlite gives SQLite's result code in `errcode`. */
function isBusy(err: unknown): boolean {
  const e = err as { code?: unknown; errcode?: unknown } | null;
  return (
    (typeof e?.code === 'string' && e.code.startsWith('SQLITE_BUSY')) ||
    (typeof e?.errcode === 'number' && (e.errcode & 0xff) === 5)
  );
}

function openEngine(path: string, opts: OpenOptions): SqlDatabase {
  const engine = sqliteEngine(opts);
  try {
    return construct(engine, path, opts);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (engine === 'better-sqlite3' && isBindingFailure(err))
      throw new KeyStoreOpenError(
        `the SQLite key store cannot load better-sqlite3's native binding under Node ${process.version} ` +
          `(${message.replace(/\s+/g, ' ')}). Rebuild it for this Node: \`npm rebuild better-sqlite3\` run with this ` +
          `node (with npm_config_nodedir set to this Node's install if npm's nodedir points at another one), or ` +
          'keep API keys in Redis with THREADMARK_REDIS_URL.',
        { cause: err },
      );
    throw new KeyStoreOpenError(
      `the SQLite key store cannot open THREADMARK_KEYS_DB=${path} (${message}): point THREADMARK_KEYS_DB at a ` +
        'file in a writable directory.',
      { cause: err },
    );
  }
}
