// The outbound client's own rules, on loopback servers: no redirect followed unless asked, public addresses only
// when asked (checked when connecting, names and literal addresses alike), the size cap counted as the body streams,
// a stream's idle limit, truncation, and retries only for GETs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { fetchText, openStream } from '../../../src/net/client.ts';
import { NetError } from '../../../src/net/errors.ts';
import { startServer } from '../providers/local-server.ts';

const isNet = (kind: NetError['kind']) => (e: unknown) => e instanceof NetError && e.kind === kind;

test('a redirect is the answer unless the caller asks to follow; a refused hop fails as redirect_refused', async () => {
  const srv = await startServer((req, res) => {
    if (req.url === '/moved') return void res.writeHead(302, { location: '/there' }).end();
    res.writeHead(200).end('arrived');
  });
  try {
    const plain = await fetchText(`${srv.url}/moved`, { timeoutMs: 2000, maxBytes: 1000 });
    assert.equal(plain.status, 302);
    assert.deepEqual(srv.requests, ['/moved']);
    const followed = await fetchText(`${srv.url}/moved`, { timeoutMs: 2000, maxBytes: 1000, follow: () => true });
    assert.equal(followed.body, 'arrived');
    await assert.rejects(
      fetchText(`${srv.url}/moved`, { timeoutMs: 2000, maxBytes: 1000, follow: () => false }),
      isNet('redirect_refused'),
    );
  } finally {
    await srv.close();
  }
});

test('public addresses only: a name resolving to loopback and a literal loopback address are refused unasked', async () => {
  const srv = await startServer((_req, res) => void res.writeHead(200).end('reached'));
  const port = new URL(srv.url).port;
  try {
    for (const url of [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`, `http://[::1]:${port}/`]) {
      await assert.rejects(fetchText(url, { timeoutMs: 2000, maxBytes: 1000, publicOnly: true }), isNet('not_public'));
    }
    // A name's refusal does not say what it resolved to.
    await assert.rejects(
      fetchText(`http://localhost:${port}/`, { timeoutMs: 2000, maxBytes: 1000, publicOnly: true }),
      { message: 'localhost is not a public address' },
    );
    assert.deepEqual(srv.requests, []);
    assert.equal((await fetchText(`http://localhost:${port}/`, { timeoutMs: 2000, maxBytes: 1000 })).body, 'reached');
  } finally {
    await srv.close();
  }
});

test('the size cap: a declared length over it fails at once, an undeclared one as the body passes it', async () => {
  const big = Buffer.alloc(5000, 0x61);
  const srv = await startServer((req, res) => {
    if (req.url === '/declared') return void res.writeHead(200, { 'content-length': '5000' }).end(big);
    res.writeHead(200);
    res.write(big.subarray(0, 2500));
    setTimeout(() => res.end(big.subarray(2500)), 20);
  });
  try {
    for (const path of ['/declared', '/chunked'])
      await assert.rejects(fetchText(srv.url + path, { timeoutMs: 2000, maxBytes: 1000 }), isNet('too_large'));
    await assert.rejects(
      openStream(`${srv.url}/declared`, { timeoutMs: 2000, idleMs: 2000, maxBytes: 1000 }),
      isNet('too_large'),
    );
    const open = await openStream(`${srv.url}/chunked`, { timeoutMs: 2000, idleMs: 2000, maxBytes: 1000 });
    await assert.rejects(async () => {
      for await (const chunk of open.body) void chunk;
    }, isNet('too_large'));
    const cut = await fetchText(`${srv.url}/chunked`, { timeoutMs: 2000, maxBytes: 1000, truncate: true });
    assert.equal(cut.body, 'a'.repeat(1000));
    const whole = await openStream(`${srv.url}/declared`, { timeoutMs: 2000, idleMs: 2000, maxBytes: 5000 });
    let size = 0;
    for await (const chunk of whole.body) size += (chunk as Buffer).length;
    assert.equal(size, 5000);
  } finally {
    await srv.close();
  }
});

test('a stream nobody reads past its idle limit fails as timeout and lets go of its connection', async () => {
  let closed!: () => void;
  const gone = new Promise<void>((r) => (closed = r));
  const srv = await startServer((_req, res) => {
    res.on('close', closed);
    res.writeHead(200);
    // More than every buffer on the way holds: the writes stall once the reader stops.
    const chunk = Buffer.alloc(64 * 1024);
    const more = () => {
      while (res.write(chunk));
      res.once('drain', more);
    };
    more();
  });
  try {
    const open = await openStream(srv.url, { timeoutMs: 2000, idleMs: 200, maxBytes: 1 << 30 });
    const failed = new Promise<unknown>((r) => open.body.once('error', r));
    open.body.pause();
    assert.ok(isNet('timeout')(await failed));
    await gone;
  } finally {
    await srv.close();
  }
});

test('retries are for GETs: a reset connection is asked again for a GET, never for a POST', async () => {
  // A port that takes connections and resets them.
  let accepted = 0;
  const sink = createServer((s) => {
    accepted++;
    s.resetAndDestroy();
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(sink.address() as { port: number }).port}/`;
  const retry = { retries: 2, backoffMs: 1 };
  try {
    await assert.rejects(fetchText(url, { timeoutMs: 2000, maxBytes: 100, retry }), isNet('unreachable'));
    assert.equal(accepted, 3);
    accepted = 0;
    await assert.rejects(
      fetchText(url, { method: 'POST', body: '{}', timeoutMs: 2000, maxBytes: 100, retry }),
      isNet('unreachable'),
    );
    assert.equal(accepted, 1);
  } finally {
    await new Promise<void>((r) => sink.close(() => r()));
  }
});
