// The in-process command is a new process on every run, and each process would draw its own cursor secret: a
// cursor printed by one run (an export's end line, a list's nextCursor) would not open in the next. Without a
// configured secret (or Redis, which shares one), the command keeps one beside the key store it already uses.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SECRET_FILE = 'cursor-secret';

export function withLocalCursorSecret(config: {
  cursorSecret?: string;
  redisUrl?: string;
  keysDb: string;
}): string | undefined {
  if (config.cursorSecret || config.redisUrl) return config.cursorSecret;
  const dir = dirname(config.keysDb);
  const file = join(dir, SECRET_FILE);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 16) return kept;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  try {
    // wx: a run that raced this one and wrote first wins; its secret is read back below.
    writeFileSync(file, secret, { flag: 'wx', mode: 0o600 });
    return secret;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return readFileSync(file, 'utf8').trim();
  }
}
