// A quoted post is expanded one level; a quote inside it is a link naming its author (the rule /docs states).
// Read through the real server against the simulator, whose X answer nests the inner quote as X does.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { mcpCall } from '../helpers/mcp.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-quotes-'));
let sim: Simulator;
let stack: Stack;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  stack = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: writeSessions(dir, 'qq') }, { sim });
});
after(async () => {
  await stack.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const CAROL = 'Caches are a stack: browser, CDN, app memory, shared store.';

test('a quote inside a quote is a link with its author, the quoted post expanded one level', async () => {
  const path = `/reader_0426/status/${IDS.quoteOfQuote}?thread=off`;
  const json = (await (await stack.get(`${path}&format=json`)).json()) as {
    post: { quote?: { id: string; quote?: { id: string } } };
  };
  assert.equal(json.post.quote?.id, IDS.threadPhoto);
  assert.equal(json.post.quote?.quote?.id, IDS.carolQuoted, 'the JSON keeps the nested quote');
  const inner = `Quotes [a post by @carol](https://x.com/carol/status/${IDS.carolQuoted})`;
  const md = await (await stack.get(path)).text();
  const mcp = await mcpCall(stack.url, 'read_post', { handle: 'reader_0426', id: IDS.quoteOfQuote, thread: 'off' });
  for (const [name, text] of Object.entries({ md, mcp })) {
    assert.ok(text.includes(`/alice_dev/status/${IDS.threadPhoto}`), `${name}: the quoted post is shown`);
    assert.ok(text.includes(inner), `${name}: the inner quote is a link naming its author\n${text}`);
    assert.ok(!text.includes(CAROL), `${name}: the inner quote is not expanded`);
  }
});
