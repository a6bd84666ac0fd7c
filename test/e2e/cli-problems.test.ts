// The real bin's one-line problem reports carry the service's help in the command's own terms: what was wrong
// (the flag and the value given) and what is accepted, with flag names where the service says parameter names.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { runBin, type Run } from '../helpers/cli-bin.ts';

let stack: Stack;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-cli-problems-'));
  const sessions = join(dir, 'sessions.jsonl');
  writeFileSync(sessions, JSON.stringify({ username: 'cli', auth_token: 'cli_tok', ct0: 'cli_ct0' }) + '\n');
  stack = await startStack({ THREADMARK_PROVIDERS: 'fxtwitter,syndication,x', THREADMARK_X_SESSIONS: sessions });
});
after(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

const srv = (...args: string[]) => runBin([...args, '--server', stack.url], { cwd: dir });
const POST = `${HANDLES.alice}/status/${IDS.threadRoot}`;

/** One stderr line `threadmark: <code>: ...`, nothing on stdout; its text after the code. */
function problem(r: Run, exit: number, code: string): string {
  assert.equal(r.code, exit, r.stderr);
  assert.equal(r.stdout, '');
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, r.stderr);
  const m = new RegExp(`^threadmark: ${code}: (.+)$`).exec(lines[0]!);
  assert.ok(m, r.stderr);
  // Service words that mean nothing on a command line.
  assert.doesNotMatch(m[1]!, /query parameter|path segment/, r.stderr);
  return m[1]!;
}

test('--thread 1 names the flag and the value, and the accepted range', async () => {
  const text = problem(await srv('read', POST, '--thread', '1'), 2, 'invalid_thread');
  assert.match(text, /--thread 1\b/);
  assert.match(text, /off, full, conversation, or a number from 2 to 100/);
});

test('--budget and --since name their flag and what they take', async () => {
  const budget = problem(await srv('read', POST, '--budget', '10'), 2, 'invalid_budget');
  assert.match(budget, /--budget 10\b/);
  assert.match(budget, /500 to 200000/);
  const since = problem(await srv('search', 'caching', '--since', 'yesterday'), 2, 'invalid_date');
  assert.match(since, /--since yesterday\b/);
  assert.match(since, /--since and --until as ISO 8601 dates/);
});

test('read with an account instead of a post says what read takes, and where the account is read', async () => {
  const text = problem(await srv('read', HANDLES.alice), 2, 'usage');
  assert.match(text, new RegExp(`^${HANDLES.alice} is not a post`));
  assert.match(text, /<handle>\/status\/<id>/);
  assert.match(text, new RegExp(`threadmark profile ${HANDLES.alice}`));
});

test('read with an address on another host names the host and the accepted forms', async () => {
  const text = problem(await srv('read', 'https://example.com/a/status/1'), 2, 'unsupported_host');
  assert.match(text, /example\.com/);
  assert.match(text, /x\.com/);
  assert.match(text, /<handle>\/status\/<id>/);
});

test('read takes Nitter and mirror links to a post, read by the one pasted-link reader', async () => {
  const direct = await srv('read', POST, '--thread', 'off');
  assert.equal(direct.code, 0, direct.stderr);
  for (const host of ['nitter.net', 'fxtwitter.com', 'vxtwitter.com', 'fixupx.com', 'nitter.example.org']) {
    const r = await srv('read', `https://${host}/${POST}`, '--thread', 'off');
    assert.equal(r.code, 0, `${host}: ${r.stderr}`);
    assert.equal(r.stdout, direct.stdout, host);
  }
});

test('read with a status id that is not a number says the id is bad', async () => {
  const text = problem(await srv('read', `${HANDLES.alice}/status/abc`), 2, 'invalid_params');
  assert.match(text, /`abc` is not a status id/);
  assert.doesNotMatch(text, /not x\.com|on alice_dev/);
  const linked = problem(await srv('read', `https://x.com/${HANDLES.alice}/status/abc`), 2, 'invalid_path');
  assert.match(linked, /`abc` is not a status id/);
});

test('read with a profile tab the service does not read names the tab', async () => {
  const text = problem(await srv('read', `https://x.com/${HANDLES.alice}/likes`), 2, 'invalid_path');
  assert.match(text, /`likes` is a tab of @alice_dev's profile this service does not read/);
  assert.match(text, /\/media/);
  assert.doesNotMatch(text, /read takes a status URL/);
});

test('a bad handle names the argument given and the handle rule', async () => {
  const text = problem(await srv('profile', 'bad!handle'), 2, 'invalid_handle');
  assert.match(text, /bad!handle/);
  assert.match(text, /1-15 letters, digits or underscores/);
});

test("an X List that is not there gets the List's resolution, not a post's", async () => {
  const text = problem(await srv('list', '1900000000000099999'), 3, 'not_found');
  assert.match(text, /X List is private, was deleted or does not exist/);
  assert.doesNotMatch(text, /post or profile/);
});
