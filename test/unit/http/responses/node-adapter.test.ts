// The internals the response layer's adapter (src/http/responses/node-adapter.ts) relies on, checked on a real
// Node server and a real Fastify: these fail the day Node or Fastify changes one of them, before the fast path
// could write a wrong header block.
import assert from 'node:assert/strict';
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import Fastify from 'fastify';
import {
  DATE_SLOT,
  RawHead,
  captureWrite,
  internals,
  putBefore,
  queuedWriteBytes,
  type NodeResponse,
  type Written,
} from '../../../../src/http/responses/node-adapter.ts';

/** Every field of Node's OutgoingMessage/ServerResponse the adapter reads or sets. */
const FIELDS: Array<keyof NodeResponse> = [
  '_header',
  '_headerSent',
  '_keepAliveTimeout',
  '_defaultKeepAlive',
  '_removedConnection',
  '_expect_continue',
  'maxRequestsOnConnectionReached',
  'shouldKeepAlive',
  'sendDate',
  'chunkedEncoding',
  'useChunkedEncodingByDefault',
];

const NAMES = ['content-type', 'x-request-id', 'ratelimit', 'vary', 'content-length'];
const VARIABLE = new Set(['x-request-id', 'ratelimit']);
const valuesFor = (id: string, r: number) => ['text/markdown; charset=utf-8', id, `"api-ip";r=${r};t=60`, 'Accept', 2];

/** Serves `handle` on loopback and makes `count` requests on one kept-alive connection; returns their raw heads. */
async function exchange(
  count: number,
  handle: (res: ServerResponse, n: number) => void,
): Promise<Array<{ head: string; body: string }>> {
  let n = 0;
  const server = createServer((_req, res) => handle(res, n++));
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const port = (server.address() as AddressInfo).port;
  try {
    const out: Array<{ head: string; body: string }> = [];
    for (let i = 0; i < count; i++) {
      out.push(
        await new Promise((resolve, reject) => {
          const req = request({ port, host: '127.0.0.1', path: '/', agent }, (res: IncomingMessage) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (body += c));
            res.on('end', () => {
              const lines = [];
              for (let j = 0; j < res.rawHeaders.length; j += 2)
                lines.push(`${res.rawHeaders[j]}: ${res.rawHeaders[j + 1]}`);
              resolve({ head: `${res.statusCode}\n${lines.join('\n')}`, body });
            });
          });
          req.on('error', reject);
          req.end();
        }),
      );
    }
    return out;
  } finally {
    agent.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
}

test('a real ServerResponse has every field the adapter reads, with the types it expects', async () => {
  await exchange(1, (res) => {
    const r = internals(res) as unknown as Record<string, unknown>;
    for (const f of FIELDS) assert.ok(f in r, `ServerResponse.${f} exists`);
    assert.equal(r._header, null, '_header is null until the head is stored');
    assert.equal(typeof r._keepAliveTimeout, 'number');
    assert.equal(typeof r._defaultKeepAlive, 'boolean');
    assert.equal(typeof r.shouldKeepAlive, 'boolean');
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
    assert.equal(typeof r._header, 'string', 'writeHead stores the block in _header');
    assert.equal(r._headerSent, false, 'and sends it with the first body write');
    res.end('ok');
  });
});

test('a block split from what Node wrote and joined again is byte for byte the block Node writes', async () => {
  let head: RawHead | undefined;
  const got = await exchange(2, (res, n) => {
    const r = internals(res);
    if (n === 0) {
      res.writeHead(200, Object.fromEntries(NAMES.map((name, i) => [name, valuesFor('id-0', 9)[i]!])));
      head = RawHead.split(res, NAMES, valuesFor('id-0', 9), VARIABLE);
      assert.ok(head, 'the keep-alive block has the shape the adapter splits');
      assert.deepEqual(head.slots, ['x-request-id', 'ratelimit', DATE_SLOT]);
    } else {
      // Node's own block for the second exchange, then the joined one in its place, with the same Date.
      res.writeHead(200, Object.fromEntries(NAMES.map((name, i) => [name, valuesFor('id-1', 8)[i]!])));
      const own = r._header!;
      const date = /\r\nDate: ([^\r]*)\r\n/.exec(own)![1]!;
      r._header = null;
      assert.ok(head!.apply(res, ['id-1', '"api-ip";r=8;t=60', date]), 'a fresh keep-alive response takes the block');
      assert.equal(r._header, own, 'the joined block is the one Node built');
    }
    res.end('ok');
  });
  assert.equal(
    got[1]!.head.replace(/date: .*/i, ''),
    got[0]!.head
      .replace(/date: .*/i, '')
      .replace('id-0', 'id-1')
      .replace('r=9', 'r=8'),
  );
  assert.equal(got[1]!.body, 'ok');
});

test('a block is not written on a response in another state (closing): the caller then uses writeHead', async () => {
  let head: RawHead | undefined;
  await exchange(2, (res, n) => {
    if (n === 0) {
      res.writeHead(200, Object.fromEntries(NAMES.map((name, i) => [name, valuesFor('a', 1)[i]!])));
      head = RawHead.split(res, NAMES, valuesFor('a', 1), VARIABLE);
    } else {
      res.shouldKeepAlive = false;
      assert.equal(head!.apply(res, ['b', '"api-ip";r=0;t=60', 'x']), false);
      assert.equal(internals(res)._header, null, 'nothing was stored');
      res.writeHead(200, { 'content-length': 2 });
    }
    res.end('ok');
  });
});

test('Fastify writes a finished answer with writeHead(status, headers) and end(body): captureWrite sees both', async () => {
  const app = Fastify();
  let written: Written | undefined;
  app.addHook('onSend', (_req, reply, payload, done) => {
    captureWrite(reply.raw, (w) => (written = w));
    done(null, payload);
  });
  app.get('/', (_req, reply) => reply.header('x-thing', 'one').type('text/plain').send('hello'));
  try {
    const res = await app.inject('/');
    assert.equal(res.body, 'hello');
    assert.ok(written, 'captured');
    assert.equal(written.status, 200);
    assert.equal(written.headers['x-thing'], 'one');
    assert.equal(written.headers['content-length'], '5');
    assert.equal(String(written.chunk), 'hello');
  } finally {
    await app.close();
  }
});

test('Fastify serves through exactly one request listener, and putBefore answers ahead of it', async () => {
  const app = Fastify();
  app.get('/', () => 'from fastify');
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    assert.equal(app.server.listeners('request').length, 1);
    const installed = putBefore(app, (req, res) => {
      if (req.url !== '/ahead') return false;
      res.end('from ahead');
      return true;
    });
    assert.ok(installed);
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    assert.equal(await (await fetch(`${url}/ahead`)).text(), 'from ahead');
    assert.equal(await (await fetch(url)).text(), 'from fastify');
  } finally {
    await app.close();
  }
});

test("a socket's write queue holds a large write to a reader that stopped, and drains as it reads", async () => {
  const body = Buffer.alloc(16 * 1024 * 1024, 'x');
  let socket: Socket | undefined;
  const server = createServer((req, res) => {
    socket = req.socket;
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  try {
    client.pause();
    client.write('GET / HTTP/1.1\r\nHost: adapter.test\r\n\r\n');
    while (!socket) await sleep(10);
    await sleep(100);
    const stalled = queuedWriteBytes(socket);
    assert.ok(stalled > 0 && stalled <= body.length, `queued ${stalled}`);
    client.resume();
    await sleep(5);
    client.pause();
    await sleep(50);
    const after = queuedWriteBytes(socket);
    assert.ok(after < stalled, `queued ${after} after reading, ${stalled} before`);
    client.resume();
    while (queuedWriteBytes(socket) > 0) await sleep(10);
    assert.equal(queuedWriteBytes(client), 0, 'a socket with nothing queued');
  } finally {
    client.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
