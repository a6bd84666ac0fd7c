// The real `threadmark` bin as a child process, against a running service (--server) and in-process
// (no server: the app is built inside the command from THREADMARK_* pointing at the simulator).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { CACHING_LIST_MEMBERS, LIST_IDS } from '../../sim/corpus-lists.ts';
import { startStack, upstreamEnv, type Stack } from '../helpers/stack.ts';
import { BIN, hasScript, runBin, runBinInTerminal, type Run } from '../helpers/cli-bin.ts';

const THREAD_URL = `https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`;

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}): Promise<Run> => runBin(args, { cwd: dir, env });
const runInTerminal = (args: string[]): Promise<Run> => runBinInTerminal(args, { cwd: dir });

function inProcessEnv(sim: Simulator, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...upstreamEnv(sim),
    THREADMARK_KEYS_DB: join(dir, 'inprocess', 'keys.db'),
    LOG_LEVEL: 'silent',
    ...extra,
  };
}

/** The codes the service gives a failed upstream read (upstream_error, all_providers_failed, <provider>_error...). */
const UPSTREAM_CODE = '(upstream_error|all_providers_failed|\\w+_(error|empty|network))';

/** A problem is exactly one stderr line `threadmark: <code>: <detail>`. */
function assertProblem(r: Run, exit: number, code: string): void {
  assert.equal(r.code, exit, r.stderr);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, new RegExp(`^threadmark: ${code}: \\S`));
}

describe('server mode (--server)', { concurrency: 4 }, () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(() => stack.close());
  const srv = (...args: string[]) => run([...args, '--server', stack.url]);

  test('read by handle/status/id prints the thread as Markdown', async () => {
    const r = await srv('read', `${HANDLES.alice}/status/${IDS.threadRoot}`, '--replies', 'off');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Thread by Alice Developer \(@alice_dev\)/);
    assert.match(r.stdout, /Permalink\]\(https:\/\/x\.com\/alice_dev\/status\/1900000000000000012\)/);
    assert.equal(r.stderr, '');
  });

  test('read by URL with --format json and --thread n', async () => {
    const r = await srv('read', THREAD_URL, '--format', 'json', '--thread', '3', '--context', 'thread');
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(body.post.id, IDS.threadRoot);
    assert.deepEqual(
      body.thread.map((p: { id: string }) => p.id),
      IDS.thread.slice(0, 3),
    );
  });

  // The article's code block holds ESC sequences (sim/corpus-article.ts). A pipe gets the document byte for byte;
  // a terminal (the real binary under util-linux `script`, which gives it a pseudo-terminal) gets visible symbols.
  const ARTICLE = `${HANDLES.alice}/status/${IDS.article}`;
  test('control characters from a post reach a pipe unchanged', async () => {
    const r = await srv('read', ARTICLE, '--thread', 'off', '--replies', 'off');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes("'\x1b[31mstale\x1b[0m'"), r.stdout);
  });

  test('control characters from a post are shown, not obeyed, on a terminal', { skip: !hasScript() }, async () => {
    const r = await runInTerminal(['read', ARTICLE, '--thread', 'off', '--replies', 'off', '--server', stack.url]);
    assert.equal(r.code, 0, r.stdout);
    assert.ok(r.stdout.includes('stale'), r.stdout);
    assert.ok(!r.stdout.includes('\x1b'), 'no ESC reaches the terminal');
    assert.ok(r.stdout.includes("'\u241b[31mstale\u241b[0m'"), r.stdout);
  });

  test('read --format html asks for the HTML page', async () => {
    const r = await srv('read', `${HANDLES.bob}/status/${IDS.replies.bobTop}`, '--format', 'html', '--thread', 'off');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^<!doctype html>/i);
    assert.match(r.stdout, /<title>[^<]*@bob[^<]*<\/title>/);
  });

  test('profile (a leading @ is dropped) as JSON', async () => {
    const r = await srv('profile', '@alice_dev', '--format', 'json', '--limit', '5');
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(body.profile.handle, HANDLES.alice);
    assert.ok(Array.isArray(body.posts) && body.posts.length <= 5);
    assert.equal(body.limit, 5);
  });

  test('a pasted profile URL names the account; an x.com/i/ address is refused as bad usage', async () => {
    const r = await srv('followers', `https://x.com/${HANDLES.alice}?s=20`, '--format', 'json', '--limit', '2');
    assert.equal(r.code, 0, r.stderr);
    assert.ok(JSON.parse(r.stdout).items.length > 0);
    assertProblem(await srv('profile', 'https://x.com/i/user/12'), 2, 'invalid_handle');
  });

  test('profile with a date window and the timeline options', async () => {
    const r = await srv(
      'profile',
      HANDLES.alice,
      '--since',
      '2026-03-02',
      '--until',
      '2026-03-03',
      '--with-replies',
      '--format',
      'json',
    );
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.deepEqual(body.window, { since: '2026-03-02T00:00:00.000Z', until: '2026-03-03T00:00:00.000Z' });
    assert.deepEqual(body.includes, { replies: true, reposts: false });
    assert.ok(body.posts.some((p: { replyTo?: unknown }) => p.replyTo));
    const md = await srv('profile', HANDLES.alice, '--until', '2026-03-01', '--with-reposts');
    assert.equal(md.code, 0, md.stderr);
    assert.match(md.stdout, /^## Posts and reposts · before 2026-03-01 00:00 UTC$/m);
    assertProblem(
      await srv('profile', HANDLES.alice, '--since', '2026-03-03', '--until', '2026-03-02'),
      2,
      'invalid_date',
    );
  });

  test('search with --since and --until', async () => {
    const r = await srv('search', 'caching', '--since', '2026-02-25', '--until', '2026-03-01', '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.ok(body.items.length > 0);
    assert.ok(
      body.items.every(
        (i: { post: { createdAt: string } }) => i.post.createdAt >= '2026-02-25' && i.post.createdAt < '2026-03-01',
      ),
    );
  });

  test('following as Markdown', async () => {
    const r = await srv('following', HANDLES.bob);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /@bob/);
  });

  test('search with --feed and --limit', async () => {
    const r = await srv('search', 'caching', '--feed', 'top', '--limit', '2', '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(body.q, 'caching');
    assert.equal(body.feed, 'top');
    assert.ok(body.items.length > 0 && body.items.length <= 2);
  });

  test('followers --all --format json follows nextCursor to the end: one object, 450 accounts', async () => {
    const r = await srv('followers', HANDLES.big, '--all', '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(body.items.length, 450);
    assert.equal(new Set(body.items.map((a: { handle: string }) => a.handle)).size, 450);
    assert.equal(body.pages, 23);
    assert.equal(body.nextCursor, undefined);
    const progress = r.stderr.trimEnd().split('\n');
    assert.equal(progress.length, 23);
    assert.match(progress[22]!, /^threadmark: page 23: 10 items, 450 in all, done$/);
  });

  test('a 400 from the service is bad usage: exit 2', async () => {
    assertProblem(await srv('profile', 'bad-handle!'), 2, 'invalid_handle');
  });

  test('a missing post is exit 3', async () => {
    assertProblem(await srv('read', `${HANDLES.bob}/status/${IDS.unknown}`), 3, 'not_found');
  });
});

describe('X Lists (server mode, the service holding an X session)', () => {
  let stack: Stack;
  before(async () => {
    const sessions = join(dir, 'list-sessions.jsonl');
    writeFileSync(sessions, JSON.stringify({ username: 'cli', auth_token: 'cli_list_tok', ct0: 'cli_ct0' }) + '\n');
    stack = await startStack({ THREADMARK_PROVIDERS: 'fxtwitter,syndication,x', THREADMARK_X_SESSIONS: sessions });
  });
  after(() => stack.close());
  const srv = (...args: string[]) => run([...args, '--server', stack.url]);

  test('list <id> prints the list and its latest posts as Markdown; a pasted list URL works too', async () => {
    const r = await srv('list', LIST_IDS.caching, '--limit', '3');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Caching people\n/);
    assert.match(r.stdout, /Page 1 · 3 posts/);
    assert.match(
      r.stdout,
      /\[Continue →\]\(http:\/\/threadmark\.test\/api\/v1\/lists\/1900000000000090001\?limit=3&cursor=/,
    );
    const byUrl = await srv('list', `https://x.com/i/lists/${LIST_IDS.caching}`, '--limit', '3', '--format', 'json');
    assert.equal(byUrl.code, 0, byUrl.stderr);
    assert.equal(JSON.parse(byUrl.stdout).list.id, LIST_IDS.caching);
  });

  test('list-members --all --format json: every member once, one progress line per page', async () => {
    const r = await srv('list-members', LIST_IDS.caching, '--all', '--format', 'json');
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(r.stdout);
    assert.equal(body.items.length, CACHING_LIST_MEMBERS);
    assert.equal(body.list.name, 'Caching people');
    assert.equal(body.pages, 3);
    assert.match(r.stderr.trimEnd().split('\n').at(-1)!, /^threadmark: page 3: 5 items, 45 in all, done$/);
  });

  test('a bad list id is bad usage (exit 2); a private list is not found (exit 3)', async () => {
    assertProblem(await srv('list', 'abc'), 2, 'invalid_list_id');
    assertProblem(await srv('list-members', LIST_IDS.private), 3, 'not_found');
  });
});

test('server mode: the 6th distinct live search in a minute is rate limited: exit 4', async () => {
  const stack = await startStack();
  try {
    for (let i = 1; i <= 5; i++) {
      const res = await stack.get(`/api/v1/search?q=warmup${i}&format=json`);
      assert.equal(res.status, 200);
    }
    const r = await run(['search', 'one more', '--server', stack.url]);
    assertProblem(r, 4, 'rate_limited');
    assert.match(r.stderr, /retry after \d+ s/);
  } finally {
    await stack.close();
  }
});

test('server mode: upstream failure is exit 5', async () => {
  const stack = await startStack();
  try {
    stack.sim.addFault({ target: '*', kind: 'status', status: 500 });
    assertProblem(
      await run(['read', `${HANDLES.dave}/status/${IDS.daveRoot}`, '--server', stack.url]),
      5,
      UPSTREAM_CODE,
    );
  } finally {
    await stack.close();
  }
});

test('an unreachable THREADMARK_SERVER is one line and exit 1', async () => {
  assertProblem(await run(['profile', 'bob'], { THREADMARK_SERVER: 'http://127.0.0.1:9' }), 1, 'unreachable');
});

describe('in-process mode (no server)', { concurrency: 4 }, () => {
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  });
  after(() => sim.close());
  const local = (...args: string[]) => run(args, inProcessEnv(sim));

  test('read a status URL on its own', async () => {
    const r = await local('read', THREAD_URL, '--thread', '2', '--replies', 'off', '--userinfo', 'author');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Thread by Alice Developer \(@alice_dev\) · 2 of 12 posts/);
    assert.equal(r.stderr, '');
  });

  test('profile and search', async () => {
    const profile = await local('profile', HANDLES.carol, '--limit', '3');
    assert.equal(profile.code, 0, profile.stderr);
    assert.match(profile.stdout, /Carol \(@carol\)/);
    const search = await local('search', 'caching', '--format', 'json');
    assert.equal(search.code, 0, search.stderr);
    assert.ok(JSON.parse(search.stdout).items.length > 0);
  });

  test('followers --all concatenates Markdown pages without Continue links', async () => {
    const r = await local('followers', HANDLES.big, '--all');
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /Continue →/);
    assert.equal(r.stdout.match(/\[@reader_\d{4}\]/g)?.length, 450);
    assert.match(r.stdout, /@reader_0450/);
    assert.match(r.stdout, /@reader_0001/);
    assert.equal(r.stderr.trimEnd().split('\n').length, 23);
  });

  test('bad usage (400 from the service, bad configuration) is exit 2', async () => {
    assertProblem(await local('read', THREAD_URL, '--thread', '1'), 2, 'invalid_thread');
    assertProblem(await run(['profile', 'bob'], inProcessEnv(sim, { THREADMARK_PROVIDERS: 'nitter' })), 2, 'config');
  });

  test('a missing profile is exit 3', async () => {
    assertProblem(await local('profile', HANDLES.missing), 3, 'not_found');
  });

  test('the vault writer: one note per thread post, re-runs skip, a changed note is never overwritten', async () => {
    const vault = join(dir, 'vault');
    const args = ['read', THREAD_URL, '--thread', '3', '--format', 'obsidian', '--out', vault, '--vault-notes', 'post'];
    const first = await local(...args);
    assert.equal(first.code, 0, first.stderr);
    const written = first.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(
      written.map(([action]) => action),
      ['written', 'written', 'written'],
    );
    const names = readdirSync(vault).sort();
    assert.equal(names.length, 3);
    IDS.thread.slice(0, 3).forEach((id, i) => assert.ok(names[i]!.startsWith(`alice_dev ${id} `), names[i]));
    const note = readFileSync(join(vault, names[0]!), 'utf8');
    assert.match(note, /^---\n/);
    assert.match(note, new RegExp(`id: "?${IDS.threadRoot}"?`));

    // The reader edits the first note; the export must keep the edit and write the service's note beside it.
    const edited = join(vault, names[0]!);
    writeFileSync(edited, `${note}\nMy own notes.\n`);
    const second = await local(...args);
    assert.equal(second.code, 0, second.stderr);
    const actions = second.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(
      actions.map(([a]) => a),
      ['renamed', 'unchanged', 'unchanged'],
    );
    assert.equal(basename(actions[0]![1]!), names[0]!.replace(/\.md$/, ' (2).md'));
    assert.equal(readFileSync(edited, 'utf8'), `${note}\nMy own notes.\n`);
    assert.equal(readFileSync(actions[0]![1]!, 'utf8'), note);
    assert.match(second.stderr, /already holds a different note/);
  });

  test('the vault writer gives a hostile post a safe, bounded file name', async () => {
    const vault = join(dir, 'hostile-vault');
    const r = await local('read', `${HANDLES.hostile}/status/${IDS.hostile}`, '--format', 'obsidian', '--out', vault);
    assert.equal(r.code, 0, r.stderr);
    const [name, ...rest] = readdirSync(vault);
    assert.equal(rest.length, 0);
    // eslint-disable-next-line no-control-regex -- the file name must hold no control characters
    assert.match(name!, /^mallory_md 1900000000000000601 [^\\/:*?"<>|#^[\]\u0000-\u001f]+\.md$/);
    assert.ok(Buffer.byteLength(name!) <= 130);
    assert.equal(dirname(r.stdout.trimEnd().split('\t')[1]!), vault);
  });

  test('--out without --format obsidian is bad usage', async () => {
    assertProblem(await local('read', THREAD_URL, '--out', join(dir, 'nope')), 2, 'usage');
  });
});

test('in-process mode: upstream failure is exit 5', async () => {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  try {
    sim.addFault({ target: '*', kind: 'status', status: 500 });
    assertProblem(await run(['read', THREAD_URL], inProcessEnv(sim)), 5, UPSTREAM_CODE);
  } finally {
    await sim.close();
  }
});

test('keys delegates to the operator key commands', async () => {
  const env = { THREADMARK_KEYS_DB: join(dir, 'keys', 'keys.db') };
  const created = await run(['keys', 'create', '--name', 'cli-test', '--account-quota', '7'], env);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^key: tm_/m);
  const listed = await run(['keys', 'list'], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /enabled\s+7\s+.*cli-test/);
});

test('--help works on every command', async () => {
  const r = await run(['read', '--help']);
  assert.equal(r.code, 0);
  for (const flag of ['--thread', '--context', '--replies', '--userinfo', '--full', '--format', '--out', '--server']) {
    assert.ok(r.stdout.includes(flag), flag);
  }
});

test('serve starts the service and stops on SIGTERM', async () => {
  const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', ...inProcessEnv(sim, { LOG_LEVEL: 'info' }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no listen line in: ${out}`)), 20_000);
      child.stdout.on('data', (d) => {
        out += d;
        const m = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
    const res = await fetch(`http://127.0.0.1:${port}/${HANDLES.bob}/status/${IDS.replies.bobTop}?thread=off`);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /@bob/);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await sim.close();
  }
});

describe('x-operations', () => {
  test('prints the table in force: shipped ids, the override file merged over them', async () => {
    const shipped = await run(['x-operations']);
    assert.equal(shipped.code, 0, shipped.stderr);
    assert.match(shipped.stdout, /^operation\s+queryId\s+source\s+transactionId\s+features\s+fieldToggles\n/);
    assert.match(shipped.stdout, /\nTweetDetail\s+559hs_YZNV4IgA3Z6zIIuw\s+shipped\s+no\s+32\s+2\n/);
    assert.match(shipped.stdout, /\nSearchTimeline\s+BGd0T_j7oVwlW5U79tO_0A\s+shipped\s+yes\s+/);
    assert.match(shipped.stdout, /\nUserTweetsAndReplies\s+wc5DRl4VaW5lSqJ8YbftZQ\s+shipped\s+no\s+/);

    const file = join(dir, 'x-operations.json');
    writeFileSync(
      file,
      JSON.stringify({ SearchTimeline: { queryId: 'newSearchId_0001', features: { a_new_flag: true } } }),
    );
    const r = await run(['x-operations', '--json'], { THREADMARK_X_OPERATIONS: file });
    assert.equal(r.code, 0, r.stderr);
    const table = JSON.parse(r.stdout) as Record<
      string,
      { queryId: string; source: string; features: Record<string, boolean> }
    >;
    assert.deepEqual([table.SearchTimeline!.queryId, table.SearchTimeline!.source], ['newSearchId_0001', 'override']);
    assert.equal(table.SearchTimeline!.features.a_new_flag, true);
    assert.equal(table.SearchTimeline!.features.longform_notetweets_consumption_enabled, true);
    assert.equal(table.TweetDetail!.source, 'shipped');
  });

  test('with THREADMARK_X_DISCOVER=true the ids the web bundle names now are shown as discovered', async () => {
    const sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    try {
      const rotated = (await (
        await fetch(`${sim.url}/x/__deploy/rotate`, {
          method: 'POST',
          body: JSON.stringify({ operation: 'Followers' }),
        })
      ).json()) as { queryId: string };
      const r = await run(['x-operations'], { THREADMARK_X_DISCOVER: 'true', THREADMARK_X_WEB_URL: sim.xWebUrl });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`\\nFollowers\\s+${rotated.queryId}\\s+discovered\\s`));
      assert.match(r.stdout, /\nFollowing\s+\S+\s+shipped\s/);
      assert.match(r.stderr, /^threadmark: discovery: new ids for Followers \(http:.*main\.\w+\.js\)\n$/);
    } finally {
      await fetch(`${sim.url}/x/__deploy/reset`, { method: 'POST' });
      await sim.close();
    }
  });

  test('a bad override file exits 2 with one line naming the bad key', async () => {
    const file = join(dir, 'x-operations-bad.json');
    writeFileSync(file, JSON.stringify({ Followers: { queryId: 'okQueryId_123', fieldtoggles: {} } }));
    const r = await run(['x-operations'], { THREADMARK_X_OPERATIONS: file });
    assertProblem(r, 2, 'config');
    assert.match(r.stderr, /THREADMARK_X_OPERATIONS .*Followers\.fieldtoggles is not a field of an operation/);
  });
});
