// The quotes, reposts, media and about reads from the real `threadmark` bin (against a running service with --server,
// and in-process), and as MCP tools over stdio (`threadmark mcp`, in-process).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, upstreamEnv, type Stack } from '../helpers/stack.ts';
import { BIN, runBin } from '../helpers/cli-bin.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-tabs-cli-'));
let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

const inProcessEnv = () => ({
  ...upstreamEnv(stack.sim),
  THREADMARK_KEYS_DB: join(dir, 'keys.db'),
  LOG_LEVEL: 'silent',
});

describe('CLI', { concurrency: 4 }, () => {
  const srv = (...args: string[]) => runBin([...args, '--server', stack.url], { cwd: dir, timeoutMs: 120_000 });

  test('quotes takes a status URL and pages; --all --format json merges the posts', async () => {
    const r = await srv('quotes', `https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`, '--limit', '2');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Quotes of @alice_dev's post/);
    assert.match(r.stdout, /Continue →/);
    const all = await srv('quotes', IDS.threadRoot, '--limit', '1', '--all', '--format', 'json');
    assert.equal(all.code, 0, all.stderr);
    const merged = JSON.parse(all.stdout) as { posts: Array<{ id: string }>; pages: number };
    assert.deepEqual(
      merged.posts.map((p) => p.id),
      [...IDS.rootQuotes].reverse(),
    );
    assert.equal(merged.pages, 3);
  });

  test('reposts, media, articles and about', async () => {
    const reposts = await srv('reposts', `${HANDLES.alice}/status/${IDS.threadRoot}`);
    assert.equal(reposts.code, 0, reposts.stderr);
    assert.match(reposts.stdout, /@bigaccount/);
    const media = await srv('media', `@${HANDLES.alice}`, '--format', 'json');
    assert.equal(media.code, 0, media.stderr);
    assert.ok((JSON.parse(media.stdout) as { posts: unknown[] }).posts.length >= 3);
    const articles = await srv('articles', HANDLES.alice);
    assert.equal(articles.code, 0, articles.stderr);
    assert.match(articles.stdout, /Why invalidation is hard/);
    const about = await srv('about', `https://x.com/${HANDLES.alice}`);
    assert.equal(about.code, 0, about.stderr);
    assert.match(about.stdout, /- Based in: Portugal/);
  });

  test('bad input is a usage error naming the problem; a missing account exits 3', async () => {
    const notPost = await srv('quotes', 'alice_dev');
    assert.equal(notPost.code, 2);
    assert.match(notPost.stderr, /^threadmark: invalid_params: alice_dev is not a post/);
    const gone = await srv('about', HANDLES.missing);
    assert.equal(gone.code, 3);
    assert.match(gone.stderr, /^threadmark: not_found: /);
  });

  test('in-process (no --server)', async () => {
    // Building the whole service inside the command takes a while on a loaded machine.
    const r = await runBin(['reposts', IDS.threadRoot, '--format', 'json'], {
      cwd: dir,
      env: inProcessEnv(),
      timeoutMs: 120_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { items: unknown[] }).items.length, 5);
  });
});

test('MCP over stdio: list_quotes, list_reposts, list_media and read_about', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: { PATH: process.env.PATH ?? '', ...inProcessEnv() },
    cwd: dir,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'threadmark-tabs-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const text = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
      };
      assert.ok(!r.isError, r.content[0]?.text);
      return r.content[0]!.text!;
    };
    assert.match(await text('list_quotes', { id: IDS.threadRoot }), /^# Quotes of @alice_dev's post/);
    assert.match(await text('list_reposts', { id: IDS.threadRoot }), /reader_0444/);
    assert.match(await text('list_media', { handle: HANDLES.alice }), /^# Media of Alice Developer/);
    assert.match(await text('read_about', { handle: HANDLES.alice }), /- Username changes: 2/);
  } finally {
    await client.close();
  }
});
