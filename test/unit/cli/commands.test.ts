import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client, problemFromReply } from '../../../src/cli/client.ts';
import { CliError, EXIT, exitCodeForStatus, problemLine } from '../../../src/cli/exit.ts';
import { accountHandle, dropContinueLink, listTarget, mergePages, runList } from '../../../src/cli/lists.ts';
import type { CliIO } from '../../../src/cli/output.ts';
import { runCli } from '../../../src/cli/program.ts';
import { postIdentity } from '../../../src/cli/read.ts';
import type { Query, Transport } from '../../../src/cli/transport.ts';

function memoryIO(env: NodeJS.ProcessEnv = {}): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env,
    out: () => out,
    err: () => err,
  };
}

/** Serves pages keyed by cursor and records what was asked. */
function pagedTransport(pages: Record<string, object>): Transport & { calls: Array<{ path: string; query: Query }> } {
  const calls: Array<{ path: string; query: Query }> = [];
  return {
    target: 'fake',
    baseUrl: 'http://threadmark.test',
    calls,
    requestBase: 'http://fake.invalid',
    async fetch(input) {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      const query: Query = Object.fromEntries(url.searchParams);
      calls.push({ path: url.pathname, query });
      const page = pages[query.cursor ?? 'first'];
      return page
        ? new Response(JSON.stringify(page), { status: 200 })
        : new Response(JSON.stringify({ code: 'invalid_cursor', detail: 'bad cursor' }), { status: 400 });
    },
    async close() {},
  };
}

test('HTTP statuses map to the documented exit codes', () => {
  assert.equal(exitCodeForStatus(400), EXIT.usage);
  assert.equal(exitCodeForStatus(401), EXIT.usage);
  assert.equal(exitCodeForStatus(404), EXIT.notFound);
  assert.equal(exitCodeForStatus(429), EXIT.rateLimited);
  assert.equal(exitCodeForStatus(502), EXIT.upstream);
  assert.equal(exitCodeForStatus(503), EXIT.upstream);
  assert.equal(exitCodeForStatus(500), EXIT.failure);
});

test('problem reports are one line whatever the detail holds', () => {
  assert.equal(problemLine('not_found', 'No post\nhere\u001b[31m'), 'threadmark: not_found: No post here [31m\n');
});

test('problems are read from problem documents, recovery pages and HTML pages', () => {
  const json = problemFromReply({
    status: 429,
    headers: { 'retry-after': '42' },
    body: JSON.stringify({ code: 'rate_limited', detail: 'Too many live lookups.' }),
  });
  assert.equal(json.code, 'rate_limited');
  assert.equal(json.detail, 'Too many live lookups. (retry after 42 s)');
  assert.equal(json.exitCode, EXIT.rateLimited);

  const md = problemFromReply({ status: 404, headers: {}, body: '\n# Profile not found: @nobody\n\nMore text' });
  assert.deepEqual([md.code, md.detail, md.exitCode], ['not_found', 'Profile not found: @nobody', EXIT.notFound]);

  const html = problemFromReply({ status: 404, headers: {}, body: '<!doctype html><title>Not found: @x</title><p>…' });
  assert.equal(html.detail, 'Not found: @x');

  const bare = problemFromReply({ status: 500, headers: {}, body: '' });
  assert.deepEqual([bare.code, bare.detail, bare.exitCode], ['http_500', 'HTTP 500', EXIT.failure]);
});

test('a post is named by handle/status/id or by URL', () => {
  assert.deepEqual(postIdentity('alice_dev/status/19'), { handle: 'alice_dev', id: '19' });
  assert.deepEqual(postIdentity('@bob/status/7/'), { handle: 'bob', id: '7' });
  assert.deepEqual(postIdentity('https://x.com/bob/status/7'), { handle: 'bob', id: '7' });
  assert.deepEqual(postIdentity('https://nitter.net/bob/status/7#m'), { handle: 'bob', id: '7' });
  assert.deepEqual(postIdentity('vxtwitter.com/i/status/7'), { url: 'https://x.com/i/status/7' });
});

test('list targets use the versioned routes and drop a leading @', () => {
  assert.deepEqual(listTarget('profile', '@bob'), { path: '/api/v1/profiles/bob', query: {} });
  assert.deepEqual(listTarget('followers', 'bob'), { path: '/api/v1/profiles/bob/followers', query: {} });
  assert.deepEqual(listTarget('search', 'a b'), { path: '/api/v1/search', query: { q: 'a b' } });
});

test('a pasted profile URL names the account: x.com, twitter.com, with or without scheme, or this service', () => {
  for (const pasted of [
    'https://x.com/bob',
    'x.com/bob',
    'https://twitter.com/bob/',
    'https://mobile.twitter.com/@bob?s=20',
    'https://x.com/bob/status/1900000000000000001',
    'http://localhost:8080/bob/followers',
  ])
    assert.deepEqual(listTarget('following', pasted), { path: '/api/v1/profiles/bob/following', query: {} }, pasted);
  assert.equal(accountHandle(' @bob '), 'bob');
  // A search query is never taken for a URL.
  assert.deepEqual(listTarget('search', 'x.com/bob'), { path: '/api/v1/search', query: { q: 'x.com/bob' } });
  // x.com/i/... is not an account: said so here rather than read as the account "i".
  assert.throws(
    () => accountHandle('https://x.com/i/user/12'),
    (e) => e instanceof CliError && e.exitCode === EXIT.usage && /numeric/.test(e.detail),
  );
});

test('Continue links are dropped from concatenated Markdown', () => {
  assert.equal(dropContinueLink('# Followers\n- a\n\n[Continue →](http://x/?cursor=c)\n'), '# Followers\n- a');
});

test('merged pages keep the envelope, hold every item and count the pages', () => {
  const merged = mergePages([
    { markdown: 'm1', items: [1, 2], page: 1, limit: 2, nextCursor: 'c2', source: 'fx' },
    { markdown: 'm2', items: [3], page: 2, limit: 2 },
  ]);
  assert.deepEqual(merged, { items: [1, 2, 3], limit: 2, source: 'fx', pages: 2 });
  assert.deepEqual(mergePages([{ profile: { handle: 'a' }, posts: [1], page: 1 }]), {
    profile: { handle: 'a' },
    posts: [1],
    pages: 1,
  });
});

test('--all follows nextCursor to the end with a progress line per page', async () => {
  const transport = pagedTransport({
    first: { markdown: '# F\n- a\n[Continue →](u1)', items: ['a'], nextCursor: 'c2', page: 1, limit: 1 },
    c2: { markdown: '# F\n- b\n[Continue →](u2)', items: [], nextCursor: 'c3', page: 2, limit: 1 },
    c3: { markdown: '# F\n- c', items: ['c'], page: 3, limit: 1 },
  });
  const io = memoryIO();
  const code = await runList(
    new Client(transport),
    'followers',
    'bob',
    { format: 'markdown', all: true, limit: 1 },
    io,
  );
  assert.equal(code, EXIT.ok);
  assert.equal(io.out(), '# F\n- a\n\n# F\n- b\n\n# F\n- c\n');
  assert.equal(io.err().trim().split('\n').length, 3);
  assert.match(io.err(), /page 2: 0 items, 1 in all, more to come/);
  assert.match(io.err(), /page 3: 1 items, 2 in all, done/);
  // An empty page is not the end; every request carried the limit and asked for JSON.
  assert.deepEqual(
    transport.calls.map((c) => c.query.cursor),
    [undefined, 'c2', 'c3'],
  );
  assert.ok(transport.calls.every((c) => c.query.limit === '1' && c.query.format === 'json'));

  const json = memoryIO();
  await runList(new Client(transport), 'followers', 'bob', { format: 'json', all: true }, json);
  assert.deepEqual(JSON.parse(json.out()), { items: ['a', 'c'], limit: 1, pages: 3 });
});

test('--all stops on a cursor that comes back again', async () => {
  const transport = pagedTransport({
    first: { items: [], nextCursor: 'loop' },
    loop: { items: [], nextCursor: 'loop' },
  });
  await assert.rejects(
    runList(new Client(transport), 'search', 'q', { format: 'json', all: true }, memoryIO()),
    (e: { code?: string }) => e.code === 'paging_loop',
  );
});

test('usage mistakes exit 2 with one line, before any connection is made', async () => {
  for (const argv of [
    ['read', 'bob/status/1', '--format', 'pdf'],
    ['read', 'bob/status/1', '--out', '/tmp/never'],
    ['followers', 'bob', '--limit', 'zero'],
    ['search'],
    ['frobnicate'],
  ]) {
    const io = memoryIO();
    assert.equal(await runCli(argv, io), EXIT.usage, argv.join(' '));
    assert.equal(io.err().trim().split('\n').length, 1, io.err());
    assert.match(io.err(), /^threadmark: usage: /);
  }
});

test('--help and --version succeed on stdout', async () => {
  for (const argv of [
    ['--help'],
    ['read', '--help'],
    ['search', '--help'],
    ['serve', '--help'],
    ['keys', '--help'],
    ['--version'],
  ]) {
    const io = memoryIO();
    assert.equal(await runCli(argv, io), EXIT.ok, argv.join(' '));
    assert.ok(io.out().length > 0);
    assert.equal(io.err(), '');
  }
});

test('an unreachable server is reported on one line with exit 1', async () => {
  const io = memoryIO();
  assert.equal(await runCli(['profile', 'bob', '--server', 'http://127.0.0.1:9'], io), EXIT.failure);
  assert.match(io.err(), /^threadmark: unreachable: cannot reach http:\/\/127\.0\.0\.1:9 /);
  const bad = memoryIO();
  assert.equal(await runCli(['profile', 'bob', '--server', 'ftp://x'], bad), EXIT.usage);
  const fromEnv = memoryIO({ THREADMARK_SERVER: 'not a url' });
  assert.equal(await runCli(['profile', 'bob'], fromEnv), EXIT.usage);
});
