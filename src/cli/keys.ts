import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openKeyStore } from '../stores/index.ts';
import { redisTargetOf } from '../stores/redis/target.ts';
import { DEFAULT_KEYS_DB } from '../stores/keys/sqlite.ts';
import type { KeyRecord, KeyStore } from '../stores/keys/types.ts';

export interface Output {
  write(chunk: string): unknown;
}

const USAGE = `usage: threadmark keys <command>
  keys create --name N [--account-quota Q]   issue a key (printed once, stored only as a hash)
  keys list                                  list keys
  keys disable ID | keys enable ID           switch a key off or on
  keys delete ID                             remove a key
Store: PostgreSQL at THREADMARK_DATABASE_URL when set, else Redis (THREADMARK_REDIS_URL, _CLUSTER or _SENTINELS),
else the SQLite file THREADMARK_KEYS_DB (default ${DEFAULT_KEYS_DB}).
`;

export interface KeysCommandDeps {
  env?: NodeJS.ProcessEnv;
  /** An already open store; otherwise one is opened from the environment and closed after. */
  store?: KeyStore;
  /** Root of the Redis keys (tests isolate themselves with it). */
  redisPrefix?: string;
}

/** `threadmark keys …`; `argv` is what follows `keys` (a leading `keys` is tolerated). Returns the exit code. */
export async function runKeysCommand(
  argv: string[],
  out: Output,
  err: Output,
  deps: KeysCommandDeps = {},
): Promise<number> {
  const args = argv[0] === 'keys' ? argv.slice(1) : argv;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (e) {
    err.write(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { command, id, name, accountQuota } = parsed;
  if (command === 'help') {
    out.write(USAGE);
    return 0;
  }

  const env = deps.env ?? process.env;
  let opened: { keys: KeyStore; close(): Promise<void> };
  try {
    if (deps.store) opened = { keys: deps.store, close: async () => {} };
    else {
      const config = loadConfig(env);
      opened = await openKeyStore({
        redis: redisTargetOf(config),
        databaseUrl: config.databaseUrl,
        databaseSchema: config.databaseSchema,
        keysDb: config.keysDb,
        redisPrefix: deps.redisPrefix ?? config.redisPrefix,
      });
    }
  } catch (e) {
    err.write(`error: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    return await execute(opened.keys, command, { id, name, accountQuota }, out, err);
  } catch (e) {
    err.write(`error: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await opened.close();
  }
}

type Command = 'create' | 'list' | 'disable' | 'enable' | 'delete' | 'help';

function parse(args: string[]): { command: Command; id?: string; name?: string; accountQuota?: number } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'account-quota': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') return { command: 'help' };
  switch (command) {
    case 'create': {
      if (!values.name?.trim()) throw new Error('keys create needs --name');
      if (rest.length) throw new Error(`unexpected argument: ${rest[0]}`);
      const q = values['account-quota'];
      if (q !== undefined && !/^[1-9][0-9]*$/.test(q)) throw new Error('--account-quota must be a positive integer');
      return { command, name: values.name, accountQuota: q === undefined ? undefined : Number(q) };
    }
    case 'list':
      if (rest.length) throw new Error(`unexpected argument: ${rest[0]}`);
      return { command };
    case 'disable':
    case 'enable':
    case 'delete':
      if (rest.length !== 1) throw new Error(`keys ${command} needs exactly one ID`);
      return { command, id: rest[0] };
    default:
      throw new Error(`unknown keys command: ${command}`);
  }
}

async function execute(
  keys: KeyStore,
  command: Exclude<Command, 'help'>,
  a: { id?: string; name?: string; accountQuota?: number },
  out: Output,
  err: Output,
): Promise<number> {
  const id = a.id ?? '';
  switch (command) {
    case 'create': {
      const issued = await keys.create({ name: a.name ?? '', accountQuota: a.accountQuota });
      out.write(
        `id: ${issued.id}\nname: ${issued.name}\naccount quota: ${issued.accountQuota} per 900 s\n` +
          `key: ${issued.key}\n\nThe key is shown only this once; hand it over now.\n`,
      );
      return 0;
    }
    case 'list': {
      const all = await keys.list();
      out.write(all.length ? formatTable(all) : 'no keys\n');
      return 0;
    }
    case 'disable':
    case 'enable': {
      const record = command === 'disable' ? await keys.disable(id) : await keys.enable(id);
      if (!record) return missing(id, err);
      out.write(`${record.id} ${record.enabled ? 'enabled' : 'disabled'}\n`);
      return 0;
    }
    case 'delete':
      if (!(await keys.delete(id))) return missing(id, err);
      out.write(`${id} deleted\n`);
      return 0;
  }
}

function missing(id: string, err: Output): number {
  err.write(`error: no key with id ${id}\n`);
  return 1;
}

function formatTable(records: KeyRecord[]): string {
  const rows = [
    ['ID', 'STATUS', 'ACCOUNT-QUOTA', 'CREATED', 'NAME'],
    ...records.map((r) => [r.id, r.enabled ? 'enabled' : 'disabled', String(r.accountQuota), r.createdAt, r.name]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return (
    rows.map((row) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n'
  );
}
