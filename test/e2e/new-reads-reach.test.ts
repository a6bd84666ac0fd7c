// Every newer read (translations, quotes, reposts, the media and Articles tabs, account facts, hashtags, cashtags,
// trends) reached four ways against the simulator: the REST route, the MCP tool over HTTP /mcp, the MCP tool over
// stdio (`threadmark mcp`, in-process) and its CLI command in-process; each answers the same Markdown. Pasted links
// of the new shapes read through `threadmark read <link>` both in-process and against a running service.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { TRANSLATED_HANDLES as TH, TRANSLATED_IDS as TI } from '../../sim/corpus-translations.ts';
import { runCli } from '../../src/cli/program.ts';
import { startStack, upstreamEnv, type Stack } from '../helpers/stack.ts';
import { stdioMcpClient } from '../helpers/mcp-stdio.ts';
import { mcpCall } from '../helpers/mcp.ts';

interface Read {
  tool: string;
  args: Record<string, unknown>;
  /** The REST route answering the same read, as Markdown. */
  rest: string;
  cli: string[];
  /** What this read's Markdown must hold. */
  shows: RegExp;
}

const ROOT = IDS.threadRoot;
const READS: Read[] = [
  {
    tool: 'read_post',
    args: { handle: TH.kenji, id: TI.jaRoot, thread: 'off', translate: 'en' },
    rest: `/api/v1/posts?handle=${TH.kenji}&id=${TI.jaRoot}&thread=off&translate=en`,
    cli: ['read', `${TH.kenji}/status/${TI.jaRoot}`, '--thread', 'off', '--translate', 'en'],
    shows: /Translated from Japanese \(ja → en\)/,
  },
  {
    tool: 'list_quotes',
    args: { id: ROOT },
    rest: `/api/v1/posts/${ROOT}/quotes`,
    cli: ['quotes', ROOT],
    shows: /^# Quotes of @alice_dev's post/,
  },
  {
    tool: 'list_reposts',
    args: { id: ROOT },
    rest: `/api/v1/posts/${ROOT}/reposts`,
    cli: ['reposts', ROOT],
    shows: /^# Reposts of @alice_dev's post/,
  },
  {
    tool: 'list_media',
    args: { handle: HANDLES.alice },
    rest: `/api/v1/profiles/${HANDLES.alice}/media`,
    cli: ['media', HANDLES.alice],
    shows: /^# Media of Alice Developer/,
  },
  {
    tool: 'list_articles',
    args: { handle: HANDLES.alice },
    rest: `/api/v1/profiles/${HANDLES.alice}/articles`,
    cli: ['articles', HANDLES.alice],
    shows: /Why invalidation is hard/,
  },
  {
    tool: 'read_about',
    args: { handle: HANDLES.alice },
    rest: `/api/v1/profiles/${HANDLES.alice}/about`,
    cli: ['about', HANDLES.alice],
    shows: /- Based in: Portugal/,
  },
  {
    tool: 'search_hashtag',
    args: { tag: 'flashsale' },
    rest: '/api/v1/hashtags/flashsale',
    cli: ['hashtag', '#flashsale'],
    shows: new RegExp(`/status/${TI.cashtags}\\b`),
  },
  {
    tool: 'search_cashtag',
    args: { symbol: 'TSLA' },
    rest: '/api/v1/cashtags/TSLA',
    cli: ['cashtag', '$TSLA'],
    shows: new RegExp(`@${TH.owen}`),
  },
  { tool: 'read_trends', args: {}, rest: '/api/v1/trends', cli: ['trends'], shows: /\/hashtag\/\w+\)/ },
];

/** Cursors are sealed with a fresh nonce each time; everything else must be identical. */
const unseal = (md: string) => md.replace(/cursor=[^)&\s]+/g, 'cursor=…').trimEnd();

let stack: Stack;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-reach-'));
  stack = await startStack();
});
after(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The service in-process, on the simulator, with the running service's base URL so links come out the same. */
const inProcessEnv = () => ({
  ...upstreamEnv(stack.sim),
  THREADMARK_KEYS_DB: join(dir, 'keys.db'),
  LOG_LEVEL: 'silent',
});

async function restMarkdown(path: string): Promise<string> {
  const res = await stack.get(path, { headers: { accept: 'text/markdown' } });
  const body = await res.text();
  assert.equal(res.status, 200, `${path}: ${body.slice(0, 300)}`);
  return body;
}

/** One command line run in this process, in-process (no --server) unless the args say otherwise. */
async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: { write: (s: string) => ((out += s), true) },
    stderr: { write: (s: string) => ((err += s), true) },
    env: inProcessEnv(),
  });
  assert.equal(typeof code, 'number');
  return { code: code as number, out, err };
}

describe('MCP over both transports answers what the REST route answers', () => {
  let stdio: Client;
  before(async () => {
    stdio = await stdioMcpClient(inProcessEnv(), dir, 'threadmark-reach-test');
  });
  after(() => stdio?.close());

  test('both transports list every newer read as a tool', async () => {
    const overHttp = new Client({ name: 'threadmark-reach-test', version: '1.0.0' });
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`)));
    try {
      for (const client of [stdio, overHttp]) {
        const names = new Set((await client.listTools()).tools.map((t) => t.name));
        for (const r of READS) assert.ok(names.has(r.tool), r.tool);
      }
    } finally {
      await overHttp.close();
    }
  });

  for (const r of READS) {
    test(`${r.tool}`, async () => {
      const rest = await restMarkdown(r.rest);
      assert.match(rest, r.shows);
      const overHttp = await mcpCall(stack.url, r.tool, r.args);
      assert.equal(unseal(overHttp), unseal(rest));
      const result = (await stdio.callTool({ name: r.tool, arguments: r.args })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
      };
      assert.ok(!result.isError, result.content[0]?.text);
      assert.equal(unseal(result.content[0]!.text!), unseal(rest));
    });
  }
});

describe('each CLI command in-process answers what the REST route answers', () => {
  for (const r of READS) {
    test(r.cli.join(' '), async () => {
      const rest = await restMarkdown(r.rest);
      const run = await cli(r.cli);
      assert.equal(run.code, 0, run.err);
      assert.equal(unseal(run.out), unseal(rest));
    });
  }
});

describe('threadmark read <pasted link> of the new shapes', () => {
  const links: Array<[string, string]> = [
    ['https://x.com/hashtag/flashsale?src=hashtag_click', '/hashtag/flashsale'],
    ['https://x.com/search?q=%23flashsale&src=typed_query&f=live', '/hashtag/flashsale?feed=latest'],
    [`https://x.com/${HANDLES.alice}/status/${ROOT}/quotes`, `/${HANDLES.alice}/status/${ROOT}/quotes`],
    [`https://twitter.com/${HANDLES.alice}/status/${ROOT}/retweets`, `/${HANDLES.alice}/status/${ROOT}/reposts`],
    [`https://nitter.net/${HANDLES.alice}/about`, `/${HANDLES.alice}/about`],
    ['https://x.com/explore/tabs/trending', '/trends'],
  ];
  for (const [link, permalink] of links) {
    test(`${link}: in-process and against the running service, as its permalink reads`, async () => {
      const direct = await restMarkdown(permalink);
      const local = await cli(['read', link]);
      assert.equal(local.code, 0, local.err);
      assert.equal(unseal(local.out), unseal(direct));
      const remote = await cli(['read', link, '--format', 'json', '--server', stack.url]);
      assert.equal(remote.code, 0, remote.err);
      const body = JSON.parse(remote.out) as { markdown: string };
      assert.equal(unseal(body.markdown), unseal(direct));
    });
  }

  test("a post's options on another read are a usage error naming what the link names", async () => {
    const r = await cli(['read', 'https://x.com/hashtag/flashsale', '--thread', '3', '--server', stack.url]);
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /^threadmark: usage: --thread applies to posts; .* names a hashtag or cashtag/);
  });

  test('a tag the platform could not have made gets the tag page’s own problem', async () => {
    const r = await cli(['read', 'https://x.com/hashtag/foo-bar', '--server', stack.url]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /^threadmark: invalid_hashtag: /);
  });
});
