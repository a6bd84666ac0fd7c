import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_NAME_BYTES, MAX_VARIANTS, noteName, safeFileName, writeNote } from '../../../src/cli/vault.ts';
import { CliError } from '../../../src/cli/exit.ts';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-vault-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('safe names carry no separators, traversal, reserved or invisible characters', () => {
  assert.equal(safeFileName('../../etc/passwd'), 'etc passwd');
  assert.equal(safeFileName('..'), 'note');
  assert.equal(safeFileName('a\\b:c*d?e"f<g>h|i#j^k[l]m'), 'a b c d e f g h i j k l m');
  assert.equal(safeFileName('tab\there\nnew\u0000line'), 'tab here new line');
  // A right-to-left override could make "evil\u202Edm.exe" look like "evilexe.md".
  assert.equal(safeFileName('evil\u202Edm.exe'), 'evil dm.exe');
  assert.equal(safeFileName('.hidden'), 'hidden');
  assert.equal(safeFileName('trailing dots...  '), 'trailing dots');
  assert.equal(safeFileName('   '), 'note');
  assert.equal(safeFileName('CON'), '_CON');
  assert.equal(safeFileName('lpt1.txt'), '_lpt1.txt');
  assert.equal(safeFileName('Café 🧵 thread'), 'Café 🧵 thread');
});

test('safe names are bounded in bytes without cutting a grapheme', () => {
  const long = safeFileName('é'.repeat(500));
  assert.ok(Buffer.byteLength(long) <= MAX_NAME_BYTES);
  assert.equal(long, 'é'.repeat(MAX_NAME_BYTES / 2));
  const family = '👨‍👩‍👧'; // one grapheme of several code points
  const emoji = safeFileName(family.repeat(40));
  assert.ok(Buffer.byteLength(emoji) <= MAX_NAME_BYTES);
  assert.equal(emoji.length % family.length, 0);
});

test('note names start with handle and id and drop links from the excerpt', () => {
  const name = noteName({
    id: '19',
    author: { handle: 'alice_dev' },
    text: 'Why caching matters https://t.co/x #caching: part 1/2',
  });
  assert.equal(name, 'alice_dev 19 Why caching matters caching part 1 2');
  assert.equal(noteName({ id: '7', author: { handle: 'bob' } }), 'bob 7');
});

test('a new note is written, the same note again is left alone', () => {
  const vault = join(dir, 'same');
  const first = writeNote(vault, { name: 'bob 1', body: 'hello\n' });
  assert.deepEqual(first, { path: join(vault, 'bob 1.md'), action: 'written' });
  const again = writeNote(vault, { name: 'bob 1', body: 'hello\n' });
  assert.deepEqual(again, { path: join(vault, 'bob 1.md'), action: 'unchanged' });
  assert.deepEqual(readdirSync(vault), ['bob 1.md']);
});

test('a different existing note is kept and the new one gets a numbered name', () => {
  const vault = join(dir, 'diff');
  mkdirSync(vault);
  writeFileSync(join(vault, 'bob 1.md'), 'my own edits\n');
  const r = writeNote(vault, { name: 'bob 1', body: 'from the service\n' });
  assert.deepEqual(r, { path: join(vault, 'bob 1 (2).md'), action: 'renamed' });
  assert.equal(readFileSync(join(vault, 'bob 1.md'), 'utf8'), 'my own edits\n');
  assert.equal(readFileSync(join(vault, 'bob 1 (2).md'), 'utf8'), 'from the service\n');
  // A re-run finds its own numbered note.
  assert.equal(writeNote(vault, { name: 'bob 1', body: 'from the service\n' }).action, 'unchanged');
});

test('symlinks are never written through', () => {
  const vault = join(dir, 'link');
  mkdirSync(vault);
  const outside = join(dir, 'outside.md');
  writeFileSync(outside, 'outside\n');
  symlinkSync(outside, join(vault, 'x.md'));
  const r = writeNote(vault, { name: 'x', body: 'outside\n' });
  assert.equal(r.path, join(vault, 'x (2).md'));
  assert.equal(readFileSync(outside, 'utf8'), 'outside\n');
});

test('a hostile name still lands inside the vault', () => {
  const vault = join(dir, 'hostile');
  const r = writeNote(vault, { name: '../../escape', body: 'x' });
  assert.equal(r.path, join(vault, 'escape.md'));
});

test('after every numbered variant is taken the writer fails with a clear message', () => {
  const vault = join(dir, 'full');
  mkdirSync(vault);
  for (let n = 1; n <= MAX_VARIANTS; n++) writeFileSync(join(vault, n === 1 ? 'n.md' : `n (${n}).md`), `other ${n}`);
  assert.throws(
    () => writeNote(vault, { name: 'n', body: 'new' }),
    (e: unknown) => e instanceof CliError && e.code === 'vault_conflict' && /different notes/.test(e.detail),
  );
});
