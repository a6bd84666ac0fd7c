// The embedded mode's kept secret: written once beside the key store, read back by every later process.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keptSecret } from '../../../src/secrets/kept-secret.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-kept-secret-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the first candidate is kept, owner-only, and later candidates get it back', () => {
  const where = join(dir, 'first', 'nested');
  assert.equal(keptSecret(where, 'cursor-secret', 'candidate-number-one-xyz'), 'candidate-number-one-xyz');
  assert.equal(keptSecret(where, 'cursor-secret', 'candidate-number-two-xyz'), 'candidate-number-one-xyz');
  assert.equal(statSync(join(where, 'cursor-secret')).mode & 0o777, 0o600);
});

test('a file too short to be a secret (emptied, truncated) is replaced', () => {
  const where = join(dir, 'short');
  keptSecret(where, 'cursor-secret', 'placeholder-secret-000');
  writeFileSync(join(where, 'cursor-secret'), 'abc\n');
  assert.equal(keptSecret(where, 'cursor-secret', 'a-fresh-candidate-secret'), 'a-fresh-candidate-secret');
  assert.equal(readFileSync(join(where, 'cursor-secret'), 'utf8'), 'a-fresh-candidate-secret');
});
