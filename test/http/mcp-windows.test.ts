// Date windows and timeline options reach the MCP tools (generated from the route declarations): read_profile and
// search take since / until (and read_profile with_replies / with_reposts) and answer the route's own Markdown.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack, type Stack } from '../helpers/stack.ts';
import { HANDLES } from '../../sim/corpus.ts';

let s: Stack;
let client: Client;
type ToolResult = { isError?: boolean; content: Array<{ type: string; text?: string }> };

before(async () => {
  s = await startStack();
  client = new Client({ name: 'threadmark-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
});
after(async () => {
  await client?.close();
  await s?.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

test('the tool schemas carry the window and the timeline options', async () => {
  const { tools } = await client.listTools();
  const props = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
  for (const p of ['since', 'until', 'with_replies', 'with_reposts']) assert.ok(props('read_profile').includes(p), p);
  for (const p of ['since', 'until']) assert.ok(props('search').includes(p), p);
});

test('read_profile with a window and replies answers the REST Markdown', async () => {
  const args = { handle: HANDLES.alice, since: '2026-03-02', until: '2026-03-03', with_replies: true };
  const r = await call('read_profile', args);
  assert.ok(!r.isError, r.content[0]?.text);
  const rest = await (
    await s.get(`/api/v1/profiles/${HANDLES.alice}?since=2026-03-02&until=2026-03-03&with_replies=true`)
  ).text();
  assert.equal(r.content[0]!.text, rest);
  assert.match(rest, /^## Posts and replies · from 2026-03-02 00:00 UTC to before 2026-03-03 00:00 UTC$/m);
});

test('search with a window, and a reversed window as an error', async () => {
  const ok = await call('search', { q: 'caching', until: '2026-03-01' });
  assert.ok(!ok.isError);
  assert.match(ok.content[0]!.text!, /· before 2026-03-01 00:00 UTC/);
  const bad = await call('search', { q: 'caching', since: '2026-03-02', until: '2026-03-01' });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0]!.text!, /invalid_date/);
});
