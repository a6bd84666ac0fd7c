// `threadmark mcp` as a child process driven by the official SDK client over stdio: in-process from the
// THREADMARK_* environment (no service running), and forwarding to a running service with --server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import { LIST_IDS } from '../../sim/corpus-lists.ts';
import { startStack, upstreamEnv, type Stack } from '../helpers/stack.ts';
import { PUBLIC_ROUTES } from '../../src/route-table.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = join(ROOT, 'bin', 'threadmark.mjs');

let dir: string;
let sim: Simulator;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-mcp-'));
  writeFileSync(
    join(dir, 'sessions.jsonl'),
    JSON.stringify({ username: 'm', auth_token: 'stdio_tok', ct0: 'c' }) + '\n',
  );
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
});
after(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

function inProcessEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    ...upstreamEnv(sim),
    THREADMARK_KEYS_DB: join(dir, 'keys.db'),
    LOG_LEVEL: 'silent',
    // X Lists need the account-backed provider; last in the chain, so every other read is served by the providers ahead of it.
    THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
    THREADMARK_X_SESSIONS: join(dir, 'sessions.jsonl'),
    ...extra,
  };
}

async function connect(args: string[], env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env,
    cwd: dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'threadmark-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The desktop-agent configuration docs/mcp.md gives, with its placeholder paths pointed at this clone. */
function documentedServer(): { command: string; args: string[]; env: Record<string, string> } {
  const guide = readFileSync(join(ROOT, 'docs', 'mcp.md'), 'utf8');
  const block = /```json\n(\s*\{\s*"mcpServers"[\s\S]*?)\n\s*```/.exec(guide)?.[1];
  assert.ok(block, 'docs/mcp.md shows an mcpServers snippet');
  const config = JSON.parse(block.replaceAll('/path/to/threadmark/', ROOT)) as {
    mcpServers: { threadmark: { command: string; args: string[]; env: Record<string, string> } };
  };
  return config.mcpServers.threadmark;
}

type ToolResult = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
};

const CALLS: Record<string, Record<string, unknown>> = {
  read_post: { url: `https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`, thread: 4, userinfo: 'all' },
  read_profile: { handle: HANDLES.alice, limit: 5 },
  list_followers: { handle: HANDLES.big, limit: 3 },
  list_following: { handle: HANDLES.big, limit: 3 },
  search: { q: SEARCH_TERMS.caching },
  search_hashtag: { tag: 'caching', limit: 3 },
  search_cashtag: { symbol: 'TSLA' },
  read_trends: {},
  list_posts: { id: LIST_IDS.caching, limit: 3 },
  list_members: { id: LIST_IDS.pair },
  list_quotes: { id: IDS.threadRoot, limit: 2 },
  list_reposts: { id: IDS.threadRoot },
  list_media: { handle: HANDLES.alice, limit: 2 },
  list_articles: { handle: HANDLES.alice },
  read_about: { handle: HANDLES.alice },
};

describe('threadmark mcp, in-process (no service running)', () => {
  let client: Client;
  let stderr: () => string;
  before(async () => {
    // Exactly the snippet of docs/mcp.md: command, args and env (minus the optional key), plus the simulator's address.
    const server = documentedServer();
    assert.equal(server.command, 'node');
    assert.deepEqual(server.args, [BIN, 'mcp']);
    const { THREADMARK_API_KEY: _optional, ...env } = server.env;
    // No path to set: in-process state goes to the user's state directory (test/e2e/in-process-state.test.ts).
    assert.deepEqual(env, {});
    ({ client, stderr } = await connect([], inProcessEnv()));
  });
  after(() => client?.close());

  test('initialize: the service, its tools and resources capabilities', () => {
    assert.equal(client.getServerVersion()?.name, 'threadmark');
    assert.ok(client.getServerCapabilities()?.tools);
    assert.ok(client.getServerCapabilities()?.resources);
  });

  test('every tool has a title, a description, input and output schemas and read-only annotations', async () => {
    const { tools } = await client.listTools();
    const expected = PUBLIC_ROUTES.flatMap((r) => (r.decl.mcpTool ? [r.decl.mcpTool] : []));
    assert.deepEqual(tools.map((t) => t.name).sort(), [...expected].sort());
    assert.deepEqual(Object.keys(CALLS).sort(), [...expected].sort(), 'every tool is called below');
    for (const t of tools) {
      assert.ok(t.title, t.name);
      assert.ok((t.description ?? '').length > 80, t.name);
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.outputSchema?.type, 'object', t.name);
      // The Markdown travels once, as the text content; the structured result leaves it out.
      assert.equal(t.outputSchema?.properties?.markdown, undefined, t.name);
      assert.equal(t.annotations?.readOnlyHint, true);
      assert.equal(t.annotations?.openWorldHint, true);
      assert.equal(t.annotations?.idempotentHint, true);
      assert.equal(t.annotations?.destructiveHint, false);
    }
  });

  for (const [name, args] of Object.entries(CALLS)) {
    test(`${name}: Markdown text plus structuredContent valid against its outputSchema`, async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === name)!;
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      assert.ok(!result.isError, result.content[0]?.text);
      const data = result.structuredContent;
      assert.ok(data, 'structured result');
      // The SDK client already validated; check again independently so a lax client cannot hide a mismatch.
      const verdict = new AjvJsonSchemaValidator().getValidator(tool.outputSchema!)(data);
      assert.ok(verdict.valid, verdict.errorMessage);
      assert.equal(result.content[0]?.type, 'text');
      assert.equal(data.markdown, undefined);
      assert.ok(String(result.content[0]?.text).length > 50);
    });
  }

  test('failures are isError results carrying the problem document', async () => {
    const bad = (await client.callTool({
      name: 'read_post',
      arguments: { handle: HANDLES.alice, id: IDS.threadRoot, thread: 'bogus' },
    })) as ToolResult;
    assert.equal(bad.isError, true);
    assert.equal(JSON.parse(bad.content[0]!.text!).code, 'invalid_thread');
    const gone = (await client.callTool({
      name: 'read_profile',
      arguments: { handle: HANDLES.missing },
    })) as ToolResult;
    assert.equal(gone.isError, true);
    assert.equal(JSON.parse(gone.content[0]!.text!).code, 'not_found');
  });

  test('the agent guide and the OpenAPI document are resources', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), ['threadmark://llms.txt', 'threadmark://openapi.json']);
    const guide = await client.readResource({ uri: 'threadmark://llms.txt' });
    assert.match(String((guide.contents[0] as { text: string }).text), /^# threadmark/);
    const openapi = await client.readResource({ uri: 'threadmark://openapi.json' });
    const doc = JSON.parse(String((openapi.contents[0] as { text: string }).text)) as { openapi: string };
    assert.equal(doc.openapi, '3.1.0');
    await assert.rejects(client.readResource({ uri: 'threadmark://nope' }), /Unknown resource/);
  });

  test('nothing but the protocol reached stdout (the client would have failed on anything else)', () => {
    assert.equal(stderr().includes('"jsonrpc"'), false);
  });
});

describe('threadmark mcp: the stdio stream', () => {
  test('stdout holds only JSON-RPC messages while logs go to stderr; closing stdin ends the process with 0', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      cwd: dir,
      env: inProcessEnv({ LOG_LEVEL: 'info' }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'read_post', arguments: { handle: HANDLES.alice, id: IDS.threadRoot, thread: 'off' } },
    });
    // Generous: a loaded machine can take a while to start the service in-process.
    const deadline = Date.now() + 90_000;
    while (!stdout.includes('"id":2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(timer);
    assert.equal(code, 0, stderr);
    const lines = stdout.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 2, stdout);
    for (const line of lines) assert.equal((JSON.parse(line) as { jsonrpc: string }).jsonrpc, '2.0');
    const call = JSON.parse(lines[1]!) as { result: { structuredContent: { post: { id: string } } } };
    assert.equal(call.result.structuredContent.post.id, IDS.threadRoot);
    // The service's request log went to stderr.
    assert.match(stderr, /"level":30/);
  });
});

describe('threadmark mcp --server: forwarding to a running service', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({}, { sim });
  });
  after(() => s?.close());

  for (const how of ['--server', 'THREADMARK_SERVER'] as const) {
    test(`${how}: tools are served by that service, with the bearer key sent along`, async () => {
      const args = how === '--server' ? ['--server', s.url, '--api-key', 'not-a-key'] : ['--api-key', 'not-a-key'];
      // No upstream settings: the command could not read anything in-process.
      const env = {
        PATH: process.env.PATH ?? '',
        ...(how === 'THREADMARK_SERVER' ? { THREADMARK_SERVER: s.url } : {}),
      };
      const before = sim.calls();
      const { client } = await connect(args, env);
      try {
        // nocache: a live read, whatever an earlier test left in the service's cache.
        const post = (await client.callTool({
          name: 'read_post',
          arguments: { handle: HANDLES.alice, id: IDS.threadLast, thread: 'off', nocache: true },
        })) as ToolResult;
        assert.ok(!post.isError, post.content[0]?.text);
        assert.equal((post.structuredContent as { post: { id: string } }).post.id, IDS.threadLast);
        assert.ok(sim.calls() > before, 'the running service read the simulator');
        // The key went along: the service refuses it on a key-aware route, as it would over HTTP.
        const profile = (await client.callTool({
          name: 'read_profile',
          arguments: { handle: HANDLES.alice },
        })) as ToolResult;
        assert.equal(profile.isError, true);
        assert.equal(JSON.parse(profile.content[0]!.text!).code, 'invalid_key');
      } finally {
        await client.close();
      }
    });
  }
});
