// The PostgreSQL side of distributed mode: what must survive a Redis flush or failover (API keys, the X session
// registry). One small pool per process; the schema is migrated at start under an advisory lock, so instances
// starting together run each migration once.
import { engines } from '../../engines.ts';
import type { Pool, PoolClient, QueryConfig, QueryResultRow } from 'pg';
import { MIGRATIONS } from './migrations.ts';

/** Schema the tables live in unless THREADMARK_DATABASE_SCHEMA names another. */
export const DEFAULT_SCHEMA = 'public';
/** A plain identifier: it is written into statements (quoted), never taken from a request. */
export const SCHEMA_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

/** A pool sized for a read API whose hot path is one indexed lookup per keyed request. */
const POOL_MAX = 4;

export interface Postgres {
  /** Quoted schema name, for statement text. */
  readonly schema: string;
  /** The pool itself, its search path set to the schema, for stores that name their tables unqualified. */
  readonly pool: Pool;
  /** A named (prepared once per connection) statement. */
  query<R extends QueryResultRow>(q: QueryConfig): Promise<R[]>;
  close(): Promise<void>;
}

/** Connects, migrates and returns the pool; throws (with the reason) when the database cannot be reached. */
export async function openPostgres(url: string, schema = DEFAULT_SCHEMA): Promise<Postgres> {
  if (!SCHEMA_PATTERN.test(schema)) throw new RangeError(`invalid schema name ${JSON.stringify(schema)}`);
  const { Pool: PgPool } = engines.pg();
  const pool: Pool = new PgPool({
    connectionString: url,
    max: POOL_MAX,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    // A statement that hangs (a lock held by a stuck migration, a failing disk) fails the request's key check
    // instead of holding the request.
    statement_timeout: 3000,
    application_name: 'threadmark',
    options: `-c search_path=${schema}`,
  });
  // An idle connection dropped by the server must not crash the process; the pool opens a new one.
  pool.on('error', () => {});
  const quoted = `"${schema}"`;
  try {
    const client = await pool.connect();
    try {
      await migrate(client, quoted, schema);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end().catch(() => {});
    throw new Error(`cannot use PostgreSQL (THREADMARK_DATABASE_URL): ${(err as Error).message}`, { cause: err });
  }
  let closed = false;
  return {
    schema: quoted,
    pool,
    async query<R extends QueryResultRow>(q: QueryConfig) {
      return (await pool.query<R>(q)).rows;
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * Applies the migrations this schema has not seen, each in its own transaction, while holding a session advisory
 * lock keyed by the schema name: a second instance starting at the same moment waits, then finds nothing to do.
 */
async function migrate(client: PoolClient, quoted: string, schema: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [`threadmark:${schema}`]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${quoted}.schema_migrations`)).rows.map(
        (r) => r.version,
      ),
    );
    for (const m of MIGRATIONS) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        for (const statement of m.up(quoted)) await client.query(statement);
        await client.query(`INSERT INTO ${quoted}.schema_migrations (version) VALUES ($1)`, [m.version]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`threadmark:${schema}`]).catch(() => {});
  }
}
