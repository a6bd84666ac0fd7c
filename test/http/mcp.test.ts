// /mcp with the SDK's own client over real HTTP: initialize, list tools, call every tool, error cases.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack, type Stack, TEST_BASE } from '../helpers/stack.ts';
import { HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import { LIST_IDS } from '../../sim/corpus-lists.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUBLIC_ROUTES } from '../../src/route-table.ts';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

let s: Stack;
let client: Client;

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'threadmark-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers } }));
  return c;
}

// X Lists are account-backed: the x provider (last, so every other read is served by the providers ahead of it) with one session.
const sessionsDir = mkdtempSync(join(tmpdir(), 'threadmark-mcp-'));
const sessions = join(sessionsDir, 'sessions.jsonl');
writeFileSync(sessions, JSON.stringify({ username: 'mcp', auth_token: 'mcp_tok', ct0: 'mcp_ct0' }) + '\n');

before(async () => {
  s = await startStack({ THREADMARK_PROVIDERS: 'fxtwitter,syndication,x', THREADMARK_X_SESSIONS: sessions });
  client = await connect();
});
after(async () => {
  await client?.close();
  await s?.close();
  rmSync(sessionsDir, { recursive: true, force: true });
});

type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };

async function call(name: string, args: Record<string, unknown>, c = client): Promise<ToolResult> {
  return (await c.callTool({ name, arguments: args })) as ToolResult;
}

function textOf(r: ToolResult): string {
  assert.equal(r.content[0]?.type, 'text');
  return r.content[0].text!;
}

describe('handshake and tool list', () => {
  test('initialize reports the service', () => {
    assert.equal(client.getServerVersion()?.name, 'threadmark');
    assert.ok(client.getServerCapabilities()?.tools);
    assert.match(client.getInstructions() ?? '', /Markdown/);
  });

  test('docs/mcp.md lists exactly the tools the server lists', async () => {
    const { tools } = await client.listTools();
    const doc = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    const sentence = /Each tool \(([^)]*)\)/.exec(doc);
    assert.ok(sentence, 'docs/mcp.md names its tools in one sentence');
    const documented = [...sentence[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    assert.deepEqual(documented.sort(), tools.map((t) => t.name).sort());
  });

  test('tools are generated from the declarations that name one', async () => {
    const { tools } = await client.listTools();
    const expected = PUBLIC_ROUTES.flatMap((r) => (r.decl.mcpTool ? [r.decl.mcpTool] : []));
    assert.deepEqual(tools.map((t) => t.name).sort(), [...expected].sort());
    for (const name of ['read_post', 'read_profile', 'list_followers', 'list_following', 'search']) {
      assert.ok(expected.includes(name), name);
    }
    const post = tools.find((t) => t.name === 'read_post')!;
    assert.equal(post.inputSchema.type, 'object');
    assert.ok(post.inputSchema.properties?.url);
    assert.match(String((post.inputSchema.properties.thread as { description?: string }).description), /off/);
    assert.equal(post.inputSchema.properties?.format, undefined, 'tools always answer Markdown');
    assert.equal(post.annotations?.readOnlyHint, true);
    const profile = tools.find((t) => t.name === 'read_profile')!;
    assert.deepEqual(profile.inputSchema.required, ['handle']);
  });
});

describe('tool calls', () => {
  test('read_post returns exactly the Markdown of the REST route', async () => {
    const url = `https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`;
    const result = await call('read_post', { url, thread: 3 });
    assert.ok(!result.isError, textOf(result));
    const rest = await (await s.get(`/api/v1/posts?url=${encodeURIComponent(url)}&thread=3`)).text();
    assert.equal(textOf(result), rest);
  });

  test('read_post takes Nitter and mirror links, read by the one pasted-link reader', async () => {
    const direct = await call('read_post', { handle: HANDLES.alice, id: IDS.threadRoot, thread: 'off' });
    assert.ok(!direct.isError, textOf(direct));
    for (const host of ['nitter.net', 'fxtwitter.com', 'vxtwitter.com', 'fixupx.com']) {
      const url = `https://${host}/${HANDLES.alice}/status/${IDS.threadRoot}`;
      const result = await call('read_post', { url, thread: 'off' });
      assert.ok(!result.isError, `${host}: ${textOf(result)}`);
      assert.equal(textOf(result), textOf(direct), host);
    }
    const other = await call('read_post', { url: `https://example.com/${HANDLES.alice}/status/${IDS.threadRoot}` });
    assert.ok(other.isError);
    assert.equal((JSON.parse(textOf(other)) as { code: string }).code, 'unsupported_host');
  });

  test('read_post also takes handle + id, and booleans for flags', async () => {
    const result = await call('read_post', { handle: HANDLES.alice, id: IDS.threadRoot, thread: 'off', full: true });
    assert.ok(!result.isError, textOf(result));
    const rest = await (
      await s.get(`/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.threadRoot}&thread=off&full=true`)
    ).text();
    assert.equal(textOf(result), rest);
  });

  for (const [tool, args, path] of [
    ['read_profile', { handle: HANDLES.alice, limit: 5 }, `/api/v1/profiles/${HANDLES.alice}?limit=5`],
    ['list_followers', { handle: HANDLES.big, limit: 3 }, `/api/v1/profiles/${HANDLES.big}/followers?limit=3`],
    ['list_following', { handle: HANDLES.big }, `/api/v1/profiles/${HANDLES.big}/following`],
    ['search', { q: SEARCH_TERMS.caching }, `/api/v1/search?q=${SEARCH_TERMS.caching}`],
  ] as const) {
    test(`${tool} matches GET ${path}`, async () => {
      const result = await call(tool, args);
      const rest = await s.get(path);
      const restText = await rest.text();
      assert.equal(Boolean(result.isError), rest.status >= 400, textOf(result));
      // Cursors are sealed with a fresh nonce each time; everything else must be identical.
      const unseal = (md: string) => md.replace(/cursor=[^)&\s]+/g, 'cursor=…');
      assert.equal(unseal(textOf(result)), unseal(restText));
    });
  }
});

describe('structured results over HTTP', () => {
  test('every tool: structuredContent validates against its outputSchema and leaves the Markdown to the text', async () => {
    const { tools } = await client.listTools();
    const args: Record<string, Record<string, unknown>> = {
      read_post: { handle: HANDLES.alice, id: IDS.threadRoot },
      read_profile: { handle: HANDLES.alice },
      list_followers: { handle: HANDLES.big, limit: 5 },
      list_following: { handle: HANDLES.big, limit: 5 },
      search: { q: SEARCH_TERMS.caching },
      search_hashtag: { tag: 'caching', limit: 3 },
      search_cashtag: { symbol: 'TSLA' },
      read_trends: {},
      list_posts: { id: LIST_IDS.caching, limit: 3 },
      list_members: { id: LIST_IDS.caching, limit: 3 },
      list_quotes: { id: IDS.threadRoot },
      list_reposts: { id: IDS.threadRoot },
      list_media: { handle: HANDLES.alice, limit: 3 },
      read_about: { handle: HANDLES.alice },
      list_articles: { handle: HANDLES.alice },
    };
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(args).sort());
    for (const t of tools) {
      assert.deepEqual(
        { ...t.annotations, title: undefined },
        { title: undefined, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      );
      const r = (await client.callTool({ name: t.name, arguments: args[t.name] })) as ToolResult & {
        structuredContent?: Record<string, unknown>;
      };
      assert.ok(!r.isError, textOf(r));
      const verdict = new AjvJsonSchemaValidator().getValidator(t.outputSchema!)(r.structuredContent);
      assert.ok(verdict.valid, `${t.name}: ${verdict.errorMessage}`);
      // The Markdown is the text content, once: structuredContent holds the data only.
      assert.ok(textOf(r).length > 50, t.name);
      assert.equal(r.structuredContent!.markdown, undefined, t.name);
      assert.equal(t.outputSchema!.properties?.markdown, undefined, t.name);
      assert.ok(!JSON.stringify(r.structuredContent).includes(JSON.stringify(textOf(r)).slice(1, 200)), t.name);
    }
  });

  test('a full thread costs an agent the Markdown once: structured data without it', async () => {
    const r = (await client.callTool({
      name: 'read_post',
      arguments: { handle: HANDLES.alice, id: IDS.threadRoot, thread: 'full' },
    })) as ToolResult & { structuredContent?: Record<string, unknown> };
    const rest = (await (
      await s.get(`/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.threadRoot}&thread=full&format=json`)
    ).json()) as Record<string, unknown>;
    const { markdown, ...data } = rest;
    assert.equal(textOf(r), markdown);
    assert.deepEqual(r.structuredContent, data);
  });

  test('the agent guide and the OpenAPI document are resources over HTTP too', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), ['threadmark://llms.txt', 'threadmark://openapi.json']);
    const guide = await client.readResource({ uri: 'threadmark://llms.txt' });
    assert.match(String((guide.contents[0] as { text: string }).text), /budget/);
  });
});

describe('errors', () => {
  test('invalid arguments come back as isError with the problem document', async () => {
    const result = await call('read_post', {
      url: `https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`,
      thread: 'bogus',
    });
    assert.equal(result.isError, true);
    const problem = JSON.parse(textOf(result));
    assert.equal(problem.code, 'invalid_thread');
    assert.equal(problem.type, `${TEST_BASE}/docs/reliability#invalid-thread`);
  });

  test('a deleted post is isError not_found', async () => {
    const result = await call('read_post', { handle: HANDLES.alice, id: IDS.deleted, thread: 'off' });
    assert.equal(result.isError, true);
    assert.equal(JSON.parse(textOf(result)).code, 'not_found');
  });

  test('a missing path argument and an unknown tool are protocol errors', async () => {
    await assert.rejects(call('read_profile', {}), /handle/);
    await assert.rejects(call('no_such_tool', {}), /Unknown tool/);
  });
});

describe('HTTP surface', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    s.get('/mcp', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });

  test('malformed JSON is 400 with a JSON-RPC parse error (-32700, id null)', async () => {
    const res = await post('{"jsonrpc": "2.0", "method": ', { accept: 'text/event-stream' });
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, null);
    assert.equal(body.error.code, -32700);
    assert.match(body.error.message, /parse error/i);
  });

  test('an empty body is 400 invalid_body', async () => {
    const res = await post('');
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { code: string }).code, 'invalid_body');
  });

  test('stateless: no session id is issued', async () => {
    const res = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('mcp-session-id'), null);
    const body = (await res.json()) as { result: { serverInfo: { name: string } } };
    assert.equal(body.result.serverInfo.name, 'threadmark');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
  });

  test('GET asking for an event stream is 405 with Allow: POST; a plain GET describes the endpoint', async () => {
    const sse = await s.get('/mcp', { headers: { accept: 'text/event-stream' } });
    assert.equal(sse.status, 405);
    assert.equal(sse.headers.get('allow'), 'POST');
    assert.equal(((await sse.json()) as { code: string }).code, 'method_not_allowed');
    const plain = await s.get('/mcp');
    assert.equal(plain.status, 200);
    const doc = (await plain.json()) as { transport: string; tools: string[]; endpoint: string };
    assert.equal(doc.transport, 'streamable-http');
    assert.equal(doc.endpoint, `${TEST_BASE}/mcp`);
    assert.ok(doc.tools.includes('read_post'));
  });

  test('DELETE is 405 and OPTIONS is a CORS preflight', async () => {
    const del = await s.get('/mcp', { method: 'DELETE' });
    assert.equal(del.status, 405);
    assert.match(del.headers.get('allow') ?? '', /POST/);
    const pre = await s.get('/mcp', {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'POST' },
    });
    assert.equal(pre.status, 204);
    assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(pre.headers.get('access-control-allow-headers') ?? '', /Mcp-Protocol-Version/);
  });
});
