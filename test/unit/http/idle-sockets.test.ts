// The idle sweep on a real node:http server and real sockets: a client that stops reading a large answer is
// disconnected once nothing has moved for the idle time; one that pauses for less, or keeps its connection busy,
// is not; stop() leaves sockets alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeIdleSockets } from '../../../src/http/idle-sockets.ts';

const BODY = Buffer.alloc(32 * 1024 * 1024, 'x');

async function serve(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-length': String(BODY.length) });
    res.end(BODY);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/** Resolves with the ms from accepting the next connection to closing it, on the server's side. */
function serverClose(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.once('connection', (s: Socket) => {
      const accepted = Date.now();
      s.once('close', () => resolve(Date.now() - accepted));
    }),
  );
}

function request(server: Server): Socket {
  const sock = connect((server.address() as AddressInfo).port, '127.0.0.1');
  sock.on('error', () => {});
  sock.write('GET / HTTP/1.1\r\nHost: idle.test\r\n\r\n');
  return sock;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

test('a client that stops reading is disconnected after the idle time, not before', { timeout: 10_000 }, async () => {
  const server = await serve();
  const sweep = closeIdleSockets(server, 400, 50);
  try {
    const closed = serverClose(server);
    const sock = request(server);
    // The client reads nothing: the answer stalls once the socket buffers are full (a paused socket would never
    // report the close, so the server's side is watched).
    sock.pause();
    const took = await closed;
    assert.ok(took >= 400, `closed after ${took} ms`);
    assert.ok(took < 3000, `closed after ${took} ms`);
    assert.equal(sweep.watched, 0, 'the closed socket is forgotten');
    sock.destroy();
  } finally {
    sweep.stop();
    await close(server);
  }
});

test('a client pausing for less than the idle time reads the whole answer', { timeout: 20_000 }, async () => {
  const server = await serve();
  const sweep = closeIdleSockets(server, 600, 50);
  try {
    const sock = request(server);
    let got = 0;
    let pauses = 0;
    sock.on('data', (d: Buffer) => {
      got += d.length;
      // Stop now and then for a third of the idle time: the server's writes stall meanwhile.
      if (pauses < 5 && got > (pauses + 1) * 4 * 1024 * 1024) {
        pauses++;
        sock.pause();
        setTimeout(() => sock.resume(), 200);
      }
    });
    while (got < BODY.length) {
      assert.ok(!sock.destroyed, `disconnected after ${got} bytes`);
      await sleep(20);
    }
    assert.equal(pauses, 5);
    assert.equal(sweep.watched, 1, 'still open, still watched');
    sock.destroy();
  } finally {
    sweep.stop();
    await close(server);
  }
});

test('after stop() a stalled client is left alone', { timeout: 10_000 }, async () => {
  const server = await serve();
  const sweep = closeIdleSockets(server, 100, 20);
  sweep.stop();
  try {
    let closed = false;
    void serverClose(server).then(() => (closed = true));
    const sock = request(server);
    sock.pause();
    await sleep(500);
    assert.equal(closed, false);
    sock.destroy();
  } finally {
    await close(server);
  }
});
