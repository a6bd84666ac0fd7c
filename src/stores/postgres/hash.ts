// The shared map of operator state (stores/shared-hash.ts) kept in PostgreSQL when a database is configured, so
// the X session registry survives a Redis flush like the API keys do.
import type { SharedHash } from '../shared-hash.ts';
import type { Postgres } from './pool.ts';

export function postgresHash(pg: Postgres, name: string): SharedHash {
  const table = `${pg.schema}.shared_hash`;
  return {
    async all() {
      try {
        const rows = await pg.query<{ field: string; value: string }>({
          name: 'tm-hash-all',
          text: `SELECT field, value FROM ${table} WHERE name = $1`,
          values: [name],
        });
        return Object.fromEntries(rows.map((r) => [r.field, r.value]));
      } catch {
        return undefined;
      }
    },
    async set(field, value) {
      try {
        await pg.query({
          name: 'tm-hash-set',
          text: `INSERT INTO ${table} (name, field, value) VALUES ($1, $2, $3)
                 ON CONFLICT (name, field) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
          values: [name, field, value],
        });
        return true;
      } catch {
        return false;
      }
    },
  };
}
