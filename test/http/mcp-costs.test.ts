// The token cost /docs#mcp states per tool result stays true: each documented figure is within a fifth of what the
// tool answers on the simulator's corpus, and the Markdown is paid for once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import { LIST_IDS } from '../../sim/corpus-lists.ts';
import { MCP_RESULT_COSTS } from '../../src/surface/docs/mcp-costs.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const ARGS: Record<string, Record<string, unknown>> = {
  post: { handle: HANDLES.alice, id: IDS.threadRoot, thread: 'off', replies: 'off' },
  thread: { handle: HANDLES.alice, id: IDS.threadRoot },
  profile: { handle: HANDLES.alice },
  followers: { handle: HANDLES.big },
  search: { q: SEARCH_TERMS.caching },
  list: { id: LIST_IDS.caching },
};

let s: Stack;
let dir: string;
let client: Client;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threadmark-mcp-costs-'));
  const sessions = join(dir, 'sessions.jsonl');
  writeFileSync(sessions, JSON.stringify({ username: 'm', auth_token: 'costs_tok', ct0: 'c' }) + '\n');
  s = await startStack({ THREADMARK_PROVIDERS: 'fxtwitter,syndication,x', THREADMARK_X_SESSIONS: sessions });
  client = new Client({ name: 'threadmark-costs', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`)));
});
after(async () => {
  await client.close();
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const near = (measured: number, documented: number) => Math.abs(measured - documented) <= documented * 0.2;

for (const cost of MCP_RESULT_COSTS) {
  test(`${cost.tool}, ${cost.what}: about ${cost.text} + ${cost.structured} characters`, async () => {
    const r = (await client.callTool({ name: cost.tool, arguments: ARGS[cost.id] })) as {
      isError?: boolean;
      content: Array<{ text?: string }>;
      structuredContent?: unknown;
    };
    assert.ok(!r.isError, r.content[0]?.text);
    const text = r.content[0]!.text!.length;
    const structured = JSON.stringify(r.structuredContent).length;
    assert.ok(near(text, cost.text), `text: measured ${text}, documented ${cost.text}`);
    assert.ok(
      near(structured, cost.structured),
      `structuredContent: measured ${structured}, documented ${cost.structured}`,
    );
  });
}
