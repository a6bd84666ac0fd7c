import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { fetchUpstream, parseJson, retryAfterSeconds } from '../../../src/providers/http.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import { json, startServer } from './local-server.ts';

test('fetchUpstream returns status, headers and body text', async () => {
  const srv = await startServer((req, res) =>
    json(res, 201, { ok: true, accept: req.headers.accept, extra: req.headers['x-extra'] }),
  );
  try {
    const r = await fetchUpstream('fx', `${srv.url}/a`, { timeoutMs: 2000, headers: { 'x-extra': 'yes' } });
    assert.equal(r.status, 201);
    assert.match(r.headers.get('content-type') ?? '', /json/);
    assert.deepEqual(JSON.parse(r.text), { ok: true, accept: 'application/json', extra: 'yes' });
  } finally {
    await srv.close();
  }
});

test('a slow upstream becomes a network ProviderError after timeoutMs', async () => {
  const srv = await startServer((_req, res) => setTimeout(() => json(res, 200, {}), 2000));
  try {
    const started = Date.now();
    await assert.rejects(fetchUpstream('fx', srv.url, { timeoutMs: 100 }), (e: unknown) => {
      assert.ok(e instanceof ProviderError);
      assert.equal(e.provider, 'fx');
      assert.equal(e.kind, 'network');
      assert.match(e.message, /100 ms/);
      return true;
    });
    assert.ok(Date.now() - started < 1500);
  } finally {
    await srv.close();
  }
});

test('a refused connection becomes a network ProviderError', async () => {
  // Grab a free port, then close it so nothing listens there.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
  await assert.rejects(fetchUpstream('syndication', `http://127.0.0.1:${port}/`, { timeoutMs: 2000 }), (e: unknown) => {
    assert.ok(e instanceof ProviderError);
    assert.equal(e.kind, 'network');
    assert.match(e.message, /ECONNREFUSED/);
    return true;
  });
});

test("bodies above maxBytes are refused as the provider's error, whether declared or streamed", async () => {
  const srv = await startServer((req, res) => {
    if (req.url === '/declared') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.end('x'.repeat(5000));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
      res.end();
    }
  });
  try {
    for (const path of ['/declared', '/chunked']) {
      await assert.rejects(fetchUpstream('fx', srv.url + path, { timeoutMs: 2000, maxBytes: 2048 }), (e: unknown) => {
        assert.ok(e instanceof ProviderError);
        assert.equal(e.kind, 'error');
        assert.match(e.message, /2048 byte limit/);
        return true;
      });
    }
    const ok = await fetchUpstream('fx', srv.url + '/chunked', { timeoutMs: 2000, maxBytes: 20_000 });
    assert.equal(ok.text.length, 10_000);
  } finally {
    await srv.close();
  }
});

test("the caller's abort propagates as the abort itself, not as a provider failure", async () => {
  const srv = await startServer((_req, res) => setTimeout(() => json(res, 200, {}), 2000));
  try {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    await assert.rejects(fetchUpstream('fx', srv.url, { timeoutMs: 5000, signal: ac.signal }), (e: unknown) => {
      assert.ok(!(e instanceof ProviderError));
      assert.equal((e as Error).name, 'AbortError');
      return true;
    });
  } finally {
    await srv.close();
  }
});

test('parseJson turns malformed JSON into an error-kind ProviderError', () => {
  assert.deepEqual(parseJson('fx', '{"a":1}'), { a: 1 });
  assert.throws(
    () => parseJson('fx', '{"a":'),
    (e: unknown) => e instanceof ProviderError && e.kind === 'error' && e.provider === 'fx',
  );
});

test('retryAfterSeconds reads delta seconds and HTTP dates', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(retryAfterSeconds(new Headers({ 'retry-after': '42' }), now), 42);
  assert.equal(retryAfterSeconds(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:01:00 GMT' }), now), 60);
  assert.equal(retryAfterSeconds(new Headers(), now), undefined);
});
