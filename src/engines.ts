// The optional engines, loaded on first use and never at start: each serves one mode or one feature, and an
// instance that does not use it should neither load its code nor hold its memory (bench/RESULTS.md). Redis
// (ioredis), PostgreSQL (pg), the job queue (BullMQ) and webhook signing (standardwebhooks) serve distributed mode
// and pushes; the embedded key store opens SQLite through better-sqlite3 or Node's own node:sqlite, whichever works
// under the running Node; yazl writes zip exports and yauzl reads X's data archives (`threadmark import`). Listed
// in one place, so what loads lazily, and why, is read here.
// Types are imported as types only: they cost nothing at run time.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const engines = {
  ioredis: () => require('ioredis') as typeof import('ioredis'),
  pg: () => require('pg') as typeof import('pg'),
  bullmq: () => require('bullmq') as typeof import('bullmq'),
  standardWebhooks: () => require('standardwebhooks') as typeof import('standardwebhooks'),
  yazl: () => require('yazl') as typeof import('yazl'),
  yauzl: () => require('yauzl') as typeof import('yauzl'),
  /** The native SQLite binding: loaded only where node:sqlite is not used, so Node 24 never loads it. */
  betterSqlite3: () => require('better-sqlite3') as unknown,
  nodeSqlite: () => require('node:sqlite') as unknown,
};
