// Embedded mode has no Redis to agree a secret through, and each start of the service (or of the in-process CLI,
// a new process on every run) would otherwise draw its own: a cursor handed out before a restart (a list's
// nextCursor, an export's end line) would no longer open after it. The secret is kept in a file beside the key
// store, which is the embedded mode's durable state already.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A kept value shorter than this is not a secret we wrote (an emptied or truncated file): it is replaced. */
const MIN_LENGTH = 16;

function read(file: string): string | undefined {
  try {
    const kept = readFileSync(file, 'utf8').trim();
    return kept.length >= MIN_LENGTH ? kept : undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return undefined;
  }
}

/** The secret `name` kept in `dir`; the first process to write it stores `candidate`, every later one reads it. */
export function keptSecret(dir: string, name: string, candidate: string): string {
  const file = join(dir, name);
  const kept = read(file);
  if (kept) return kept;
  mkdirSync(dir, { recursive: true });
  try {
    // wx: a process that raced this one and wrote first wins; its secret is read back below.
    writeFileSync(file, candidate, { flag: 'wx', mode: 0o600 });
    return candidate;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    // An existing file too short to be ours: take it over.
    const raced = read(file);
    if (raced) return raced;
    writeFileSync(file, candidate, { mode: 0o600 });
    return candidate;
  }
}
