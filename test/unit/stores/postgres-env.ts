// Shared by the PostgreSQL tests: the machine's server (CI starts it and sets THREADMARK_REQUIRE_POSTGRES=1), a
// schema of its own per test run so parallel runs never meet, dropped afterwards.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const PG_URL = process.env.THREADMARK_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function probe(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const available = await probe();
if (!available && process.env.THREADMARK_REQUIRE_POSTGRES) {
  throw new Error(`THREADMARK_REQUIRE_POSTGRES is set but PostgreSQL at ${PG_URL} does not answer`);
}

/** `skip` option for suites that need PostgreSQL: false when it answers, else the reason. */
export const postgresSkip: string | false = available
  ? false
  : `PostgreSQL at ${PG_URL} not reachable (set THREADMARK_REQUIRE_POSTGRES=1 to make this a failure)`;

export function uniqueSchema(): string {
  return `tm_test_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
