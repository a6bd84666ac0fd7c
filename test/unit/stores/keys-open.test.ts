// A key store that cannot be opened stops the service at start with one line saying what to do, whether the native
// binding was built for another Node or THREADMARK_KEYS_DB cannot be written.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteKeyStore } from '../../../src/stores/keys/sqlite.ts';
import { KeyStoreOpenError, sqliteEngine } from '../../../src/stores/keys/sqlite-open.ts';
import { spawnInstance } from '../../helpers/instance.ts';
import { spawn } from 'node:child_process';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-keys-open-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('Node 24 and later keep keys in node:sqlite, older lines in better-sqlite3; both keep them across opens', async () => {
  const major = Number(process.versions.node.split('.')[0]);
  assert.equal(sqliteEngine(), major >= 24 ? 'node:sqlite' : 'better-sqlite3');
  const path = join(dir, 'roundtrip.db');
  const first = new SqliteKeyStore(path);
  const issued = await first.create({ name: 'roundtrip', accountQuota: 30 });
  await first.close();
  await first.close();
  const second = new SqliteKeyStore(path);
  const verified = await second.verify(issued.key);
  await second.close();
  assert.equal(verified.status, 'valid');
});

test('a binding that does not load for this Node: the error says to rebuild it for this Node', () => {
  const binding = join(dir, 'better_sqlite3.node');
  writeFileSync(binding, 'not a shared object');
  assert.throws(
    () => new SqliteKeyStore(join(dir, 'keys.db'), { nativeBinding: binding }),
    (err: unknown) =>
      err instanceof KeyStoreOpenError &&
      err.message.includes(`Node ${process.version}`) &&
      err.message.includes('npm rebuild better-sqlite3') &&
      err.message.includes('npm_config_nodedir') &&
      err.message.includes('THREADMARK_REDIS_URL'),
  );
});

test('a THREADMARK_KEYS_DB that cannot be opened: the error names the variable and the fix', () => {
  const notAFile = join(dir, 'a-directory');
  mkdirSync(notAFile);
  assert.throws(
    () => new SqliteKeyStore(notAFile),
    (err: unknown) =>
      err instanceof KeyStoreOpenError &&
      err.message.includes(`THREADMARK_KEYS_DB=${notAFile}`) &&
      err.message.includes('writable'),
  );
});

test('the service stops at once with that line on stderr, instead of starting without its key store', async () => {
  const notAFile = join(dir, 'another-directory');
  mkdirSync(notAFile);
  const started = Date.now();
  await assert.rejects(
    spawnInstance({ PORT: '0', HOST: '127.0.0.1', THREADMARK_KEYS_DB: notAFile }, 60_000),
    (err: Error) =>
      /exited \(1\) before listening/.test(err.message) &&
      err.message.includes(
        `threadmark: failed to start: the SQLite key store cannot open THREADMARK_KEYS_DB=${notAFile}`,
      ),
  );
  assert.ok(Date.now() - started < 30_000, 'fails at start, not after a timeout');
});

// Processes opening one file at once (CLI commands beside each other or beside the service) once failed with
// "database is locked" on Node 24: switching to WAL took a lock before the store had said how long to wait for one.
test('processes opening and closing the key and watch stores on one file at once never find it locked', async () => {
  const path = join(dir, 'shared.db');
  const runs = await Promise.all(
    Array.from(
      { length: 4 },
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/sqlite-open-loop.ts', path, '60'], {
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.on('data', (c: Buffer) => (out += c.toString()));
          child.on('error', reject);
          child.on('exit', () => resolve(out.trim()));
        }),
    ),
  );
  assert.deepEqual(runs, ['failures 0', 'failures 0', 'failures 0', 'failures 0']);
});
