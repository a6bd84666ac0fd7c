// File snapshots under test/fixtures/render/snapshots/. A mismatch fails; UPDATE_SNAPSHOTS=1 rewrites.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/render/snapshots');

export function matchSnapshot(name: string, actual: string): void {
  const file = join(DIR, name);
  if (process.env.UPDATE_SNAPSHOTS === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  assert.ok(existsSync(file), `snapshot ${name} missing; run with UPDATE_SNAPSHOTS=1 to create it`);
  assert.equal(
    actual,
    readFileSync(file, 'utf8'),
    `snapshot ${name} differs; run with UPDATE_SNAPSHOTS=1 if the change is intended`,
  );
}

/** True when every line of `small` appears in `big` in the same order (lines may be inserted, never changed). */
export function isLineSubsequence(small: string, big: string): boolean {
  const b = big.split('\n');
  let j = 0;
  for (const line of small.split('\n')) {
    while (j < b.length && b[j] !== line) j++;
    if (j === b.length) return false;
    j++;
  }
  return true;
}
