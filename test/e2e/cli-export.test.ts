// `threadmark export` as the real bin, against a running service (--server) and in-process: NDJSON to a file with
// progress on stderr, --resume from the file's end line, an upstream failure mid-export, and Obsidian vault output.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCorpus, HANDLES, IDS, prolificPostId } from '../../sim/corpus.ts';
import { encodeCursor } from '../../sim/cursor.ts';
import { startStack, upstreamEnv, type Stack } from '../helpers/stack.ts';
import { hasScript, runBin, runBinInTerminal, type Run } from '../helpers/cli-bin.ts';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-cli-export-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}): Promise<Run> =>
  runBin(args, { cwd: dir, env, timeoutMs: 60_000 });

interface Line {
  type?: string;
  id?: string;
  reason?: string;
  posts?: number;
  cursor?: string;
  problem?: { code: string };
}

const linesOf = (file: string): Line[] =>
  readFileSync(join(dir, file), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

const newest = (n: number, from = 0) => Array.from({ length: n }, (_, i) => prolificPostId(from + i));

/** Every line but the last is a post; the last is the one end line. */
function assertShape(lines: Line[]): { ids: string[]; end: Line } {
  const end = lines.at(-1)!;
  assert.equal(end.type, 'end');
  assert.ok(lines.slice(0, -1).every((l) => l.type === undefined && typeof l.id === 'string'));
  return { ids: lines.slice(0, -1).map((l) => l.id!), end };
}

describe('threadmark export --server', { concurrency: 1 }, () => {
  let stack: Stack;
  // Every run comes from the loopback address, whose export-ip allowance is five: a key's export-key allows thirty.
  let key: string;
  before(async () => {
    stack = await startStack({ THREADMARK_CACHE_TTL_S: '0' });
    key = (await stack.app.services.stores.keys.create({ name: 'cli-export' })).key;
  });
  after(() => stack.close());
  const srv = (...args: string[]) => run([...args, '--server', stack.url, '--api-key', key]);

  test('writes NDJSON to --out with progress lines on stderr; --resume appends from the end line', async () => {
    const first = await srv('export', HANDLES.prolific, '--max-posts', '250', '--out', 'p.ndjson');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, '', 'the file gets the posts, stdout nothing');
    const progress = first.stderr.split('\n').filter((l) => /^threadmark: \d+ posts, reached /.test(l));
    assert.deepEqual(
      progress.map((l) => l.replace(/, reached .*/, '')),
      ['threadmark: 100 posts', 'threadmark: 200 posts'],
    );
    assert.match(progress[1]!, /reached \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    assert.match(first.stderr, /export stopped \(max_posts\): 250 posts written to p\.ndjson; --resume continues/);
    const before = assertShape(linesOf('p.ndjson'));
    assert.deepEqual(before.ids, newest(250));
    assert.equal(before.end.reason, 'max_posts');

    const resumed = await srv('export', HANDLES.prolific, '--max-posts', '120', '--out', 'p.ndjson', '--resume');
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stderr, /^threadmark: 100 posts, reached /m);
    const after = assertShape(linesOf('p.ndjson'));
    assert.deepEqual(after.ids, newest(370), 'the next 120 posts follow, the old end line is gone');
    assert.equal(after.end.posts, 120);
  });

  test(
    'on a terminal the progress is one bar redrawn in place: posts read of --max-posts and the date reached',
    { skip: !hasScript() },
    async () => {
      const r = await runBinInTerminal(
        [
          'export',
          HANDLES.prolific,
          '--max-posts',
          '150',
          '--out',
          'tty.ndjson',
          '--server',
          stack.url,
          '--api-key',
          key,
        ],
        { cwd: dir },
      );
      assert.equal(r.code, 0, r.stdout);
      assert.match(r.stdout, /\r\[#{24}\] 150\/150 posts, reached \d{4}-\d\d-\d\d \d\d:\d\d UTC\r?\n/);
      assert.doesNotMatch(r.stdout, /threadmark: 100 posts/, 'no progress lines on a terminal');
      assert.equal(linesOf('tty.ndjson').length, 151);
    },
  );

  test(
    'on a terminal, what goes to stdout (the vault listing, NDJSON) never lands on the line the bar is drawn on',
    { skip: !hasScript() },
    async () => {
      const vault = join(dir, 'tty-vault');
      for (const [args, marker] of [
        [['--max-posts', '5', '--vault', vault], 'written\t'],
        [['--max-posts', '3'], '{"'],
      ] as const) {
        const r = await runBinInTerminal(
          ['export', HANDLES.prolific, ...args, '--server', stack.url, '--api-key', key],
          { cwd: dir },
        );
        assert.equal(r.code, 0, r.stdout);
        const lines = r.stdout.split('\n').filter((l) => l.includes(marker));
        assert.equal(lines.length, marker === '{"' ? 4 : 5, r.stdout);
        for (const l of lines) {
          // Either a fresh line, or the bar erased first (carriage return, erase line) so none of it shows.
          const before = l.slice(0, l.indexOf(marker));
          assert.ok(
            before === '' || before.endsWith('\r\x1b[K'),
            `bar left before a stdout line: ${JSON.stringify(l)}`,
          );
        }
      }
    },
  );

  test('a resume the service refuses leaves the file as it was; a complete file has nothing to resume', async () => {
    assert.equal((await srv('export', HANDLES.alice, '--max-posts', '2', '--out', 'a.ndjson')).code, 0);
    const saved = readFileSync(join(dir, 'a.ndjson'), 'utf8');
    const refused = await srv('export', HANDLES.alice, '--with-replies', '--out', 'a.ndjson', '--resume');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^threadmark: invalid_export_cursor: /m);
    assert.equal(readFileSync(join(dir, 'a.ndjson'), 'utf8'), saved);

    const rest = await srv('export', HANDLES.alice, '--out', 'a.ndjson', '--resume');
    assert.equal(rest.code, 0, rest.stderr);
    assert.equal(assertShape(linesOf('a.ndjson')).end.reason, 'end_of_timeline');
    const again = await srv('export', HANDLES.alice, '--out', 'a.ndjson', '--resume');
    assert.equal(again.code, 0);
    assert.match(again.stderr, /a\.ndjson is complete \(end_of_timeline\); nothing to resume/);
  });

  test('an existing --out file is replaced only with --force; --resume continues it; both at once is usage', async () => {
    assert.equal((await srv('export', HANDLES.alice, '--max-posts', '2', '--out', 'k.ndjson')).code, 0);
    const saved = readFileSync(join(dir, 'k.ndjson'), 'utf8');
    const again = await srv('export', HANDLES.alice, '--max-posts', '1', '--out', 'k.ndjson');
    assert.equal(again.code, 2, again.stderr);
    assert.match(again.stderr, /^threadmark: output_exists: k\.ndjson already exists: .*--resume.*--force/m);
    assert.equal(readFileSync(join(dir, 'k.ndjson'), 'utf8'), saved, 'the file is left as it was');

    const both = await srv('export', HANDLES.alice, '--out', 'k.ndjson', '--resume', '--force');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^threadmark: usage: --force and --resume/m);
    assert.equal(readFileSync(join(dir, 'k.ndjson'), 'utf8'), saved);

    const forced = await srv('export', HANDLES.alice, '--max-posts', '1', '--out', 'k.ndjson', '--force');
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(assertShape(linesOf('k.ndjson')).ids.length, 1, 'replaced');
  });

  test('an upstream failure mid-export keeps every post written, says so, exits 5, and --resume completes it', async () => {
    const prolific = getCorpus().usersByHandle.get(HANDLES.prolific)!;
    stack.sim.addFault({
      target: 'fxtwitter',
      kind: 'status',
      status: 500,
      match: `cursor=${encodeCursor(`statuses:${prolific.id}:true`, 100)}`,
    });
    let cut: Run;
    try {
      cut = await srv('export', HANDLES.prolific, '--max-posts', '150', '--out', 'f.ndjson');
    } finally {
      stack.sim.clearFaults();
    }
    assert.equal(cut.code, 5, cut.stderr);
    assert.match(cut.stderr, /export stopped \(upstream_error\): 100 posts written to f\.ndjson; --resume continues/);
    assert.match(cut.stderr.trimEnd().split('\n').at(-1)!, /^threadmark: \w+: .*\(100 posts kept in f\.ndjson\)$/);
    const kept = assertShape(linesOf('f.ndjson'));
    assert.deepEqual(kept.ids, newest(100));
    assert.equal(kept.end.reason, 'upstream_error');
    assert.ok(kept.end.problem?.code);

    const done = await srv('export', HANDLES.prolific, '--max-posts', '50', '--out', 'f.ndjson', '--resume');
    assert.equal(done.code, 0, done.stderr);
    assert.deepEqual(assertShape(linesOf('f.ndjson')).ids, newest(150));
  });

  test('--vault writes one note per post with its media linked; a re-run leaves them unchanged', async () => {
    const vault = join(dir, 'vault');
    const first = await srv('export', HANDLES.prolific, '--max-posts', '30', '--vault', vault);
    assert.equal(first.code, 0, first.stderr);
    const listed = first.stdout.trimEnd().split('\n');
    assert.equal(listed.length, 30);
    assert.ok(listed.every((l) => l.startsWith(`written\t${vault}/prolific_pat `)));
    const notes = readdirSync(vault);
    assert.equal(notes.length, 30);
    const photo = notes.find((n) => n.includes(prolificPostId(25)))!;
    const body = readFileSync(join(vault, photo), 'utf8');
    assert.match(body, /^---\nid: "\d+"\nurl: "https:\/\/x\.com\/prolific_pat\/status\//);
    assert.match(body, /!\[Field photo \d+\]\(https:\/\/pbs\.twimg\.com\/media\/[^)]+\)/);
    const again = await srv('export', HANDLES.prolific, '--max-posts', '30', '--vault', vault);
    assert.ok(
      again.stdout
        .trimEnd()
        .split('\n')
        .every((l) => l.startsWith('unchanged\t')),
    );
  });

  test('--vault writes one note per thread by default, holding every post of a self-thread', async () => {
    const vault = join(dir, 'threads');
    const r = await srv('export', HANDLES.alice, '--vault', vault);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /export stopped \(end_of_timeline\): 25 posts read; notes in .*: 14 written, 0 unchanged/);
    const notes = readdirSync(vault);
    assert.equal(notes.length, 25 - 11, 'the twelve posts of the self-thread share one note');
    assert.equal(r.stdout.trimEnd().split('\n').length, notes.length, 'stdout lists every note once');
    const threadNote = notes.filter((n) => IDS.thread.some((id) => n.includes(id)));
    assert.deepEqual(threadNote, [notes.find((n) => n.startsWith(`alice_dev ${IDS.threadRoot} `))]);
    const body = readFileSync(join(vault, threadNote[0]!), 'utf8');
    assert.match(body, /^thread_length: 12$/m);
    assert.match(body, /^# Thread by .* · 12 posts$/m);
    for (let i = 1; i <= 12; i++) assert.match(body, new RegExp(`^## ${i}/12 · `, 'm'));
    const single = readFileSync(
      join(
        vault,
        notes.find((n) => n.includes(IDS.noteTweet))!,
      ),
      'utf8',
    );
    assert.match(single, /^thread_length: 1$/m);
  });

  test('read --out and export --vault write one note for one thread; a re-run reports what it wrote', async () => {
    const vault = join(dir, 'one-note');
    const readInto = (out: string) =>
      srv('read', `${HANDLES.alice}/status/${IDS.threadRoot}`, '--format', 'obsidian', '--out', out);
    const read = await readInto(vault);
    assert.equal(read.code, 0, read.stderr);
    const [thread] = readdirSync(vault);
    assert.deepEqual(readdirSync(vault), [thread], 'the thread is one note');
    assert.match(read.stderr, /notes in .*: 1 written, 0 unchanged/);

    const exported = await srv('export', HANDLES.alice, '--vault', vault);
    assert.equal(exported.code, 0, exported.stderr);
    const notes = readdirSync(vault);
    assert.equal(notes.length, 25 - 11, 'the export added the other notes and no second note of the thread');
    assert.ok(!notes.some((n) => / \(2\)\.md$/.test(n)), notes.join(', '));
    assert.ok(exported.stdout.includes(`unchanged\t${join(vault, thread!)}\n`), exported.stdout);
    assert.match(exported.stderr, /25 posts read; notes in .*: 13 written, 1 unchanged/);

    const again = await srv('export', HANDLES.alice, '--vault', vault);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /25 posts read; notes in .*: 0 written, 14 unchanged/);
    assert.doesNotMatch(again.stderr, /posts written/);
    const reread = await readInto(vault);
    assert.match(reread.stderr, /notes in .*: 0 written, 1 unchanged/);
    assert.equal(readdirSync(vault).length, 14);
  });

  test('--vault-notes post writes one note per post, each linking its thread; a bad value is exit 2', async () => {
    const vault = join(dir, 'posts');
    const r = await srv('export', HANDLES.alice, '--vault', vault, '--vault-notes', 'post');
    assert.equal(r.code, 0, r.stderr);
    const notes = readdirSync(vault);
    assert.equal(notes.length, 25);
    const root = notes.find((n) => n.includes(IDS.threadRoot))!.replace(/\.md$/, '');
    IDS.thread.forEach((id, i) => {
      const body = readFileSync(
        join(
          vault,
          notes.find((n) => n.includes(id))!,
        ),
        'utf8',
      );
      assert.match(body, /^thread_length: 12$/m, id);
      assert.match(body, new RegExp(`^thread_position: ${i + 1}$`, 'm'), id);
      assert.ok(body.includes(`thread: ${JSON.stringify(`[[${root}]]`)}\n`), id);
      assert.ok(body.includes(`Part ${i + 1} of 12 of the thread [[${root}]]`), id);
      assert.ok(body.includes(`[Read the whole thread](${stack.url}/alice_dev/status/${IDS.threadRoot})`), id);
    });
    const single = readFileSync(
      join(
        vault,
        notes.find((n) => n.includes(IDS.noteTweet))!,
      ),
      'utf8',
    );
    assert.match(single, /^thread_length: 1$/m);
    assert.doesNotMatch(single, /^thread:/m);

    const bad = await srv('export', HANDLES.alice, '--vault', vault, '--vault-notes', 'pages');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--vault-notes/);
    const alone = await srv('export', HANDLES.alice, '--vault-notes', 'post');
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--vault-notes needs --vault/);
  });

  test('without --out or --vault the NDJSON goes to stdout; bad usage is exit 2', async () => {
    const out = await srv('export', `@${HANDLES.alice}`, '--max-posts', '2');
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.equal((JSON.parse(lines[2]!) as Line).reason, 'max_posts');
    const noOut = await srv('export', HANDLES.alice, '--resume');
    assert.equal(noOut.code, 2);
    assert.match(noOut.stderr, /^threadmark: usage: --resume needs --out/m);
    const tooMany = await srv('export', HANDLES.alice, '--max-posts', '5001');
    assert.equal(tooMany.code, 2);
    assert.match(tooMany.stderr, /^threadmark: invalid_max_posts: /m);
  });
});

test('in-process, a later run resumes from the cursor an earlier run wrote', async () => {
  const stack = await startStack();
  try {
    const env = {
      ...upstreamEnv(stack.sim),
      THREADMARK_KEYS_DB: join(dir, 'inprocess', 'keys.db'),
      LOG_LEVEL: 'silent',
    };
    const first = await run(['export', HANDLES.prolific, '--max-posts', '5', '--out', 'ip.ndjson'], env);
    assert.equal(first.code, 0, first.stderr);
    const second = await run(['export', HANDLES.prolific, '--max-posts', '5', '--out', 'ip.ndjson', '--resume'], env);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(assertShape(linesOf('ip.ndjson')).ids, newest(10));
  } finally {
    await stack.close();
  }
});
