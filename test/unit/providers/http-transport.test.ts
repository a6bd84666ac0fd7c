// fetchUpstream's transport does what fetch() did for it: content codings undone, redirects followed, the
// same request headers sent (a provider's own win), and a caller's abort mid-body re-thrown as that abort; and an
// answered call leaves no timer running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { deflateSync, gzipSync } from 'node:zlib';
import { Deadline } from '../../../src/providers/deadline.ts';
import { fetchUpstream } from '../../../src/providers/http.ts';
import { startServer } from './local-server.ts';

test('gzip and deflate bodies are decoded; redirects are followed to the answer', async () => {
  const srv = await startServer((req, res) => {
    if (req.url === '/gz') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"t":"é ✓"}'));
    if (req.url === '/df')
      return void res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync('{"d":1}'));
    if (req.url === '/moved') return void res.writeHead(302, { location: '/gz' }).end();
    res.writeHead(404).end();
  });
  try {
    assert.equal((await fetchUpstream('fx', `${srv.url}/gz`, { timeoutMs: 2000 })).text, '{"t":"é ✓"}');
    assert.equal((await fetchUpstream('fx', `${srv.url}/df`, { timeoutMs: 2000 })).text, '{"d":1}');
    const moved = await fetchUpstream('fx', `${srv.url}/moved`, { timeoutMs: 2000 });
    assert.equal(moved.status, 200);
    assert.equal(moved.text, '{"t":"é ✓"}');
  } finally {
    await srv.close();
  }
});

test('a body is decoded as it arrives: a character split between two chunks comes out whole', async () => {
  const bytes = Buffer.from('{"t":"é ✓ 𝕏"}');
  // Cut inside the four-byte 𝕏 and inside é: each part arrives as its own chunk.
  const cuts = [bytes.indexOf(0xc3) + 1, bytes.length - 4];
  const srv = await startServer((_req, res) => {
    res.writeHead(200, { 'content-length': String(bytes.length) });
    res.write(bytes.subarray(0, cuts[0]));
    setTimeout(() => res.write(bytes.subarray(cuts[0], cuts[1])), 20);
    setTimeout(() => res.end(bytes.subarray(cuts[1])), 40);
  });
  try {
    assert.equal((await fetchUpstream('fx', srv.url, { timeoutMs: 2000 })).text, '{"t":"é ✓ 𝕏"}');
  } finally {
    await srv.close();
  }
});

test("the request carries the headers fetch() sent, with the caller's overriding them", async () => {
  const srv = await startServer((req, res) => void res.writeHead(200).end(JSON.stringify(req.headers)));
  try {
    const seen = JSON.parse(
      (await fetchUpstream('fx', srv.url, { timeoutMs: 2000, headers: { 'user-agent': 'mine' } })).text,
    );
    assert.equal(seen.accept, 'application/json');
    assert.equal(seen['accept-encoding'], 'gzip, deflate');
    assert.equal(seen['user-agent'], 'mine');
  } finally {
    await srv.close();
  }
});

test("a caller's abort while the body is arriving is re-thrown as the abort itself", async () => {
  const srv = await startServer((_req, res) => {
    res.writeHead(200);
    res.write('{"partial":');
  });
  try {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('caller went away')), 50);
    await assert.rejects(fetchUpstream('fx', srv.url, { timeoutMs: 5000, signal: ac.signal }), /caller went away/);
  } finally {
    await srv.close();
  }
});

test('an answered call leaves no timer behind for its timeout or its deadline', async () => {
  // Timers still pending after the answer (AbortSignal.timeout's never are cleared) would pile up by the thousand
  // under load, each alive for the whole timeout or deadline.
  const pending = new Map<number, number>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout') pending.set(id, (resource as { _idleTimeout: number })._idleTimeout);
    },
    destroy(id) {
      pending.delete(id);
    },
  }).enable();
  const srv = await startServer((_req, res) => void res.writeHead(200).end('{"ok":true}'));
  try {
    const deadline = new Deadline(6789);
    assert.equal((await fetchUpstream('fx', srv.url, { timeoutMs: 2345, deadline })).text, '{"ok":true}');
    await new Promise((r) => setImmediate(r));
    const left = [...pending.values()].filter((ms) => ms === 2345 || (ms > 6000 && ms <= 6789));
    assert.deepEqual(left, []);
  } finally {
    hook.disable();
    await srv.close();
  }
});
