// Opens and closes the embedded key and watch stores on one file, many times over, and prints how many opens failed:
// several of these side by side stand for CLI commands and the service sharing THREADMARK_KEYS_DB.
import { SqliteKeyStore } from '../../src/stores/keys/sqlite.ts';
import { SqliteWatchStore } from '../../src/stores/watches/sqlite.ts';

const [path, rounds] = process.argv.slice(2);
let failures = 0;
for (let i = 0; i < Number(rounds); i++) {
  try {
    const keys = new SqliteKeyStore(path);
    await keys.list();
    await keys.close();
    const watches = new SqliteWatchStore(`${path}-watches`);
    await watches.close();
  } catch (err) {
    failures++;
    if (failures === 1) process.stderr.write(`${String(err)}\n`);
  }
}
process.stdout.write(`failures ${failures}\n`);
