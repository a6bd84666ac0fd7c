// Bearer keys on /mcp through the real server: an unknown or disabled key is refused with 401 invalid_key before
// any protocol message is handled, as on every other key-aware route; a valid key gets its own allowances.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { problemOf, startStack, type Stack, TEST_BASE } from '../helpers/stack.ts';

const ADMIN = 'admin-token-for-mcp-keys';
let s: Stack;

before(async () => {
  s = await startStack({ THREADMARK_ADMIN_TOKEN: ADMIN });
});
after(() => s?.close());

async function issue(): Promise<{ id: string; key: string }> {
  const res = await s.get('/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'mcp agent' }),
  });
  assert.equal(res.status, 201);
  return (await res.json()) as { id: string; key: string };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

function postMcp(authorization?: string): Promise<Response> {
  return s.get('/mcp', {
    method: 'POST',
    body: INITIALIZE,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization ? { authorization } : {}),
    },
  });
}

async function assertRefused(res: Response): Promise<void> {
  assert.equal(res.status, 401);
  // The MCP client asks for application/json, so the problem comes as that (the contract allows it).
  assert.match(res.headers.get('content-type') ?? '', /^application\/(problem\+)?json/);
  assert.equal(res.headers.get('x-api-key-status'), 'invalid');
  assert.equal(res.headers.get('www-authenticate'), null, 'no public error carries WWW-Authenticate');
  const problem = await problemOf(res);
  assert.equal(problem.code, 'invalid_key');
  assert.equal(problem.status, 401);
  assert.equal(problem.type, `${TEST_BASE}/docs/reliability#invalid-key`);
}

async function connect(key?: string): Promise<Client> {
  const c = new Client({ name: 'threadmark-test', version: '1.0.0' });
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  await c.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers } }));
  return c;
}

describe('/mcp bearer keys', () => {
  test('an unknown key is 401 invalid_key, on POST and on GET', async () => {
    await assertRefused(await postMcp(`Bearer tm_${'Z'.repeat(43)}`));
    await assertRefused(await postMcp('Bearer not-even-shaped-like-a-key'));
    await assertRefused(await postMcp('Bearer'));
    await assertRefused(await s.get('/mcp', { headers: { authorization: 'Bearer nope' } }));
    // The SDK client sees the refusal at initialize.
    await assert.rejects(connect('nope'), /401|invalid_key|Unauthorized/i);
  });

  test('a refused key is still charged to api-ip, so guessing keys is rate-limited', async () => {
    const res = await postMcp('Bearer guess-1');
    await res.arrayBuffer();
    assert.match(res.headers.get('ratelimit') ?? '', /"api-ip"/);
  });

  test('other schemes are ignored (anonymous), as on REST', async () => {
    const res = await postMcp('Basic dXNlcjpwYXNz');
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });

  test('a disabled key is refused at once; re-enabled it works again', async () => {
    const k = await issue();
    const ok = await postMcp(`Bearer ${k.key}`);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('x-api-key-status'), 'valid');
    await ok.arrayBuffer();
    const off = await s.get(`/admin/keys/${k.id}/disable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    assert.equal(off.status, 200);
    await assertRefused(await postMcp(`Bearer ${k.key}`));
    await s.get(`/admin/keys/${k.id}/enable`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` } });
    const again = await postMcp(`Bearer ${k.key}`);
    assert.equal(again.status, 200);
    await again.arrayBuffer();
  });

  test('a valid key gets its own search allowance (search-key, 30 a minute), anonymous callers the public one (5)', async () => {
    const k = await issue();
    const keyed = await connect(k.key);
    const anonymous = await connect();
    try {
      const run = async (c: Client, tag: string) => {
        const outcomes: string[] = [];
        for (let i = 0; i < 7; i++) {
          // Distinct terms: each one misses the cache and is a live lookup.
          const r = (await c.callTool({ name: 'search', arguments: { q: `mcp ${tag} ${i}` } })) as {
            isError?: boolean;
            content: Array<{ text?: string }>;
          };
          outcomes.push(r.isError ? (JSON.parse(r.content[0]!.text!) as { code: string }).code : 'ok');
        }
        return outcomes;
      };
      assert.deepEqual(await run(keyed, 'keyed'), Array(7).fill('ok'));
      const anon = await run(anonymous, 'anon');
      assert.deepEqual(anon.slice(0, 5), Array(5).fill('ok'));
      assert.deepEqual(anon.slice(5), ['rate_limited', 'rate_limited']);
    } finally {
      await keyed.close();
      await anonymous.close();
    }
  });
});
