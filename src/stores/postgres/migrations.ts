// The PostgreSQL schema, as ordered migrations: a version is never edited once released, a change is a new one.
import { watchTables } from '../watches/postgres.ts';

export interface Migration {
  version: number;
  /** Statements for the schema named `s` (already quoted). */
  up(s: string): string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    up: (s) => [
      `CREATE TABLE ${s}.api_keys (
        id text PRIMARY KEY,
        hash text NOT NULL UNIQUE,
        name text NOT NULL,
        account_quota integer NOT NULL CHECK (account_quota > 0),
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      // Operator state every instance shares (the X session registry): a named map of text values.
      `CREATE TABLE ${s}.shared_hash (
        name text NOT NULL,
        field text NOT NULL,
        value text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (name, field)
      )`,
    ],
  },
  {
    version: 2,
    // Watches, hub subscriptions, source marks and deliveries of the push feature.
    up: (s) => watchTables(s),
  },
];
