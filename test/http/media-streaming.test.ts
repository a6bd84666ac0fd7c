// The media proxy with files larger than its cache takes: streamed through (ranges cut from the stream), bytes on
// their way bounded in total (503 media_proxy_busy with Retry-After past it, nothing fetched), and every upstream
// fetch charged to the payer's media-ip allowance on top of the request's own point.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startStack, type Stack } from '../helpers/stack.ts';
import { startMediaHost, type MediaHost } from '../helpers/media-host.ts';
import { STREAM_WINDOW_BYTES } from '../../src/media/proxy.ts';
import { clientKey } from '../../src/stores/limits/client-key.ts';

const MB = 1024 * 1024;
// Larger than the socket buffers between the service and a reader hold, so a stalled reader stalls its stream.
const SIZE = 20 * MB;
let s: Stack;
let host: MediaHost;
before(async () => {
  host = await startMediaHost(SIZE);
  s = await startStack({
    THREADMARK_MEDIA_PROXY: 'true',
    THREADMARK_MEDIA_HOSTS: `pbs.twimg.com=${host.url},video.twimg.com=${host.url}`,
    // A sixteenth of 16 MB is 1 MB: the 20 MB files are streamed, never kept.
    THREADMARK_MEDIA_CACHE_MB: '16',
    THREADMARK_MEDIA_INFLIGHT_MB: '1',
  });
});
after(async () => {
  await s.close();
  await host.close();
});

let n = 0;
const fresh = () =>
  s.app.services.media.signer.sign(`https://video.twimg.com/ext_tw_video/${++n}/pu/vid/File${n}.mp4`)!;
const remaining = (res: Response) => Number(/r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);

/** A request whose answer is not read past its first bytes until the socket is destroyed. */
function stalled(path: string): Promise<Socket> {
  const { port } = new URL(s.url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  return new Promise((resolve) =>
    socket.once('data', (chunk: Buffer) => {
      assert.match(chunk.toString('latin1'), /^HTTP\/1\.1 200 /);
      socket.pause();
      resolve(socket);
    }),
  );
}

describe('media proxy, files larger than the cache takes', { concurrency: 1 }, () => {
  test('streamed whole with its length, and fetched again each time (not cached)', async () => {
    const path = fresh();
    const asked = host.served.length;
    const res = await s.get(path);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'video/mp4');
    assert.equal(res.headers.get('content-length'), String(SIZE));
    const body = Buffer.from(await res.arrayBuffer());
    assert.equal(body.length, SIZE);
    assert.equal(body.subarray(4, 8).toString('latin1'), 'ftyp');
    assert.equal((await (await s.get(path)).arrayBuffer()).byteLength, SIZE);
    assert.equal(host.served.length - asked, 2);
  });

  test('a HEAD answers the length and lets the upstream file go instead of reading it to the end', async () => {
    const path = fresh();
    const res = await s.get(path, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(SIZE));
    assert.equal(res.headers.get('content-type'), 'video/mp4');
    const upstream = host.served.at(-1)!;
    for (let i = 0; i < 500 && !host.cut.includes(upstream); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(host.cut.includes(upstream), 'the upstream answer was cut off');
    const proxy = s.app.services.media.proxy!;
    while (proxy.bytesInFlight > 0) await new Promise((r) => setTimeout(r, 20));
  });

  test('ranges are cut from the stream: 206 with Content-Range and Content-Length, 416 past the end', async () => {
    const path = fresh();
    const whole = Buffer.from(await (await s.get(path)).arrayBuffer());
    const part = await s.get(path, { headers: { range: 'bytes=1000000-1000099' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 1000000-1000099/${SIZE}`);
    assert.equal(part.headers.get('content-length'), '100');
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(1000000, 1000100));
    const tail = await s.get(path, { headers: { range: 'bytes=-10' } });
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), whole.subarray(SIZE - 10));
    const beyond = await s.get(path, { headers: { range: `bytes=${SIZE}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${SIZE}`);
    await beyond.arrayBuffer();
  });

  test('a full proxy answers 503 media_proxy_busy with Retry-After and fetches nothing; room comes back as readers go', async () => {
    const proxy = s.app.services.media.proxy!;
    const fits = Math.floor(MB / STREAM_WINDOW_BYTES);
    const readers = await Promise.all(Array.from({ length: fits }, () => stalled(fresh())));
    try {
      const asked = host.served.length;
      const res = await s.get(fresh());
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '5');
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
      assert.equal(((await res.json()) as { code: string }).code, 'media_proxy_busy');
      assert.equal(host.served.length, asked, 'nothing fetched for a refused request');
    } finally {
      for (const r of readers) r.destroy();
    }
    while (proxy.bytesInFlight > 0) await new Promise((r) => setTimeout(r, 20));
    const again = await s.get(fresh());
    assert.equal(again.status, 200);
    await again.arrayBuffer();
  });

  test('each upstream fetch costs the payer a media-ip point beyond the request; a cached file costs only the request', async () => {
    // The fetch is charged before the answer's RateLimit fields are written, so they count it.
    const first = await s.get(fresh());
    await first.arrayBuffer();
    const second = await s.get(fresh());
    await second.arrayBuffer();
    assert.equal(remaining(first) - remaining(second), 2, "the first one's fetch and the second request");
    // The simulator's small photo is cached after its first fetch.
    const { sim } = s;
    const small = await startStack({ THREADMARK_MEDIA_PROXY: 'true' }, { sim });
    try {
      const signed = small.app.services.media.signer.sign(
        'https://pbs.twimg.com/media/CachedOne?format=jpg&name=orig',
      )!;
      const a = await small.get(signed);
      await a.arrayBuffer();
      const b = await small.get(signed);
      await b.arrayBuffer();
      const c = await small.get(signed);
      await c.arrayBuffer();
      const limit = Number(/q=(\d+)/.exec(a.headers.get('ratelimit-policy') ?? '')?.[1]);
      assert.equal(limit - remaining(a), 2, 'the first request and its fetch');
      assert.equal(remaining(a) - remaining(b), 1, 'a cached file: the request alone');
      assert.equal(remaining(b) - remaining(c), 1, 'a cached file: the request alone');
    } finally {
      await small.close();
    }
  });

  test('a payer whose allowance has room for the request but not the fetch: 429 rate_limited, nothing fetched', async () => {
    const probe = await s.get(fresh());
    await probe.arrayBuffer();
    // What is left after the probe and its fetch, all but one point taken: the next request gets the last one.
    const left = remaining(probe);
    await s.app.services.stores.limiter.consume('media-ip', clientKey('127.0.0.1'), left - 1);
    const asked = host.served.length;
    const res = await s.get(fresh());
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
    assert.equal(((await res.json()) as { code: string }).code, 'rate_limited');
    assert.equal(host.served.length, asked);
  });
});
