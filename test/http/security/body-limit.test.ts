// A body over the limit is the caller's problem: 413 request_too_large, no error-level log line.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, problemOf, type Stack } from '../../helpers/stack.ts';

let s: Stack;
const logged: Array<{ level: string; args: unknown[] }> = [];
before(async () => {
  s = await startStack({ THREADMARK_ADMIN_TOKEN: 'admin-token-for-body-limit-tests' });
  const log = s.app.server.log as unknown as Record<string, (...a: unknown[]) => void>;
  for (const level of ['error', 'fatal']) {
    const orig = log[level]!.bind(log);
    log[level] = (...args: unknown[]) => {
      logged.push({ level, args });
      orig(...args);
    };
  }
});
after(() => s.close());

describe('oversized bodies', () => {
  test('3 MiB to /mcp (unauthenticated) is 413 request_too_large', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { pad: 'x'.repeat(3 * 1024 * 1024) },
    });
    const res = await s.get('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });
    assert.equal(res.status, 413);
    const p = await problemOf(res);
    assert.equal(p.code, 'request_too_large');
    assert.equal(p.status, 413);
    assert.match(res.headers.get('content-type') ?? '', /^application\/(problem\+)?json/);
  });

  test('and to the admin routes (a caller without the token gets 401 first)', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    const anonymous = await s.get('/admin/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(anonymous.status, 401);
    await anonymous.arrayBuffer();
    const res = await s.get('/admin/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer admin-token-for-body-limit-tests' },
      body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    assert.equal(res.status, 413);
    assert.equal((await problemOf(res)).code, 'request_too_large');
  });

  test('no error-level log for any of them', () => {
    assert.deepEqual(
      logged.map((l) => l.level),
      [],
    );
  });
});
