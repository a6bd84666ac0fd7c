// Note templates of `threadmark export --vault` and `read --out`, as the real bin in-process against the simulator:
// names from the documented placeholders, front matter every YAML parser reads back, one note per thread or per
// post, defaults unchanged, and a template that tries to leave the vault stays in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cliVaults, DEFAULT_NOTE_FIELDS, frontMatter } from '../helpers/notes.ts';

const v = cliVaults('threadmark-cli-templates-');
const run = (args: string[]) => v.run(args);
const notes = (vault: string) => v.notes(vault);

const EXPORT = ['export', 'alice_dev', '--max-posts', '30'];

test('a name template and front matter fields shape every note; YAML reads them all back', async () => {
  const r = await run([
    ...EXPORT,
    '--vault',
    't1',
    '--vault-notes',
    'post',
    '--note-name',
    '{date} {handle} {title} ({id})',
    '--note-metrics',
    '--note-tag',
    'reading',
    '--note-tag',
    'x/alice',
    '--note-cssclass',
    'wide',
    '--note-fetched',
    '--note-field',
    'project=caching: "layers", #1',
    '--note-field',
    'status=to read',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const all = notes('t1');
  assert.ok(all.length >= 20);
  const root = all.find((n) => n.name.includes('(1900000000000000001)'))!;
  assert.equal(
    root.name,
    // {title}: the first 60 bytes of the text, links and reserved characters left out.
    '2026-03-02 alice_dev 1 12 A thread on caching for read-heavy APIs what worked f (1900000000000000001).md',
  );
  for (const n of all) {
    assert.match(n.name, /^\d{4}-\d{2}-\d{2} alice_dev .* \(\d+\)\.md$/);
    const fm = frontMatter(n.body);
    assert.equal(fm.author, 'alice_dev');
    assert.ok((fm.tags as string[]).includes('reading') && (fm.tags as string[]).includes('x/alice'));
    assert.deepEqual(fm.cssclasses, ['wide']);
    assert.equal(typeof fm.likes, 'number');
    assert.ok(!Number.isNaN(Date.parse(String(fm.fetched))));
    assert.equal(fm.project, 'caching: "layers", #1');
    assert.equal(fm.status, 'to read');
  }
  // One note per post: the thread's later posts link its first note by the templated name.
  const second = all.find((n) => n.name.includes('(1900000000000000002)'))!;
  assert.equal(frontMatter(second.body).thread, `[[${root.name.slice(0, -3)}]]`);
  assert.equal(frontMatter(second.body).thread_position, 2);
});

test('defaults: the names and notes of today, one note per thread', async () => {
  const r = await run([...EXPORT, '--vault', 't2']);
  assert.equal(r.code, 0, r.stderr);
  const root = notes('t2').find((n) => n.name.startsWith('alice_dev 1900000000000000001 '))!;
  assert.equal(
    root.name,
    'alice_dev 1900000000000000001 1 12 A thread on caching for read-heavy APIs what worked f.md',
  );
  const fm = frontMatter(root.body);
  assert.deepEqual(Object.keys(fm), DEFAULT_NOTE_FIELDS);
  assert.equal(fm.thread_length, 12);
  assert.ok(!notes('t2').some((n) => n.name.startsWith('alice_dev 1900000000000000002 ')), 'the thread is one note');
});

test('a template that names folders or hidden files stays a plain name inside the vault', async () => {
  const r = await run([...EXPORT, '--max-posts', '3', '--vault', 't3', '--note-name', '../../{handle}/.{id}']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    readdirSync(v.dir).filter((n) => n.startsWith('alice_dev')),
    [],
  );
  // Separators become spaces and the leading dots go: no folder, no hidden file.
  for (const n of notes('t3')) assert.match(n.name, /^alice_dev \.\d+\.md$/);
  assert.deepEqual(
    readdirSync(join(v.dir, 't3')).filter((n) => !n.endsWith('.md')),
    [],
  );
});

test('read --out takes the same template; the service renders the front matter', async () => {
  const r = await run([
    'read',
    'alice_dev/status/1900000000000000001',
    '--format',
    'obsidian',
    '--out',
    't4',
    '--vault-notes',
    'thread',
    '--note-name',
    '{handle} - {title}',
    '--note-tag',
    'saved',
    '--note-field',
    'kind=thread',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const all = notes('t4');
  assert.equal(all.length, 1, 'the whole thread in one note');
  assert.equal(all[0]!.name, 'alice_dev - 1 12 A thread on caching for read-heavy APIs what worked f.md');
  const fm = frontMatter(all[0]!.body);
  assert.equal(fm.kind, 'thread');
  assert.ok((fm.tags as string[]).includes('saved'));
  assert.equal(fm.thread_length, 12);
});

test('bad templates are usage errors (exit 2, invalid_note_template) before any request', async () => {
  v.sim.resetCalls();
  for (const [flags, message] of [
    [['--note-name', '{handle} {nope}'], /--note-name: the note name template has "\{nope\}"/],
    [['--note-name', 'plain'], /names no placeholder/],
    [['--note-field', 'tags=x'], /tags is a field the note writes itself/],
    [['--note-field', 'novalue'], /--note-field takes key=value/],
    [['--note-tag', 'two words'], /is not a tag/],
  ] as const) {
    const r = await run([...EXPORT, '--vault', 't5', ...flags]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^threadmark: invalid_note_template: /);
    assert.match(r.stderr, message);
  }
  const without = await run([...EXPORT, '--note-tag', 'x']);
  assert.equal(without.code, 2);
  assert.match(without.stderr, /--note-\* options need --vault/);
  assert.equal(v.sim.calls(), 0);
});
