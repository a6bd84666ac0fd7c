// A POST to /mcp is charged per message, carries the RateLimit
// fields like every response, and one batch cannot stand for more than MAX_MCP_BATCH requests.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, problemOf, type Stack } from '../../helpers/stack.ts';
import { HANDLES } from '../../../sim/corpus.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const apiIp = (res: Response) => Number(/"api-ip";r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
const post = (body: unknown) =>
  s.get('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

describe('/mcp charging', () => {
  test('every POST carries the RateLimit fields; a batch of tools/list costs one api-ip point per message', async () => {
    const one = await post(list(1));
    assert.equal(one.status, 200);
    await one.arrayBuffer();
    const start = apiIp(one);
    assert.ok(start <= 599, `charged: ${one.headers.get('ratelimit')}`);
    assert.ok(one.headers.get('ratelimit-policy')?.includes('"api-ip"'));
    const batch = await post(Array.from({ length: 20 }, (_, i) => list(i + 2)));
    assert.equal(batch.status, 200);
    assert.equal(((await batch.json()) as unknown[]).length, 20);
    assert.equal(apiIp(batch), start - 20);
  });

  test('tool calls are charged once each, by the route that serves them', async () => {
    const before = apiIp(await s.get('/api'));
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'read_profile', arguments: { handle: HANDLES.alice, limit: 1 } },
    });
    const res = await post([call(1), call(2), call(3)]);
    assert.equal(res.status, 200);
    await res.arrayBuffer();
    const after = apiIp(await s.get('/api'));
    // The later /api costs one, the POST its minimum of one, and each tool call one through its REST route.
    assert.equal(before - after, 1 + 1 + 3);
  });

  test('a batch over the cap is 413 batch_too_large, with the RateLimit fields', async () => {
    const res = await post(Array.from({ length: 100 }, (_, i) => list(i)));
    assert.equal(res.status, 413);
    assert.equal((await problemOf(res)).code, 'batch_too_large');
    assert.ok(res.headers.get('ratelimit'));
  });
});
