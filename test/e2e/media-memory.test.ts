// Memory a client can make the service hold, measured on the service as a child process (its resident set, from
// /proc): 24 slow readers of 20 MB files through the media proxy, and a zip export with media=local to a client that
// never reads. Each must keep the process within +100 MB of where it stood before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaSigner } from '../../src/media/signer.ts';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { simEnv, spawnInstance, type Instance } from '../helpers/instance.ts';
import { rssOf, startMediaHost, type MediaHost } from '../helpers/media-host.ts';

const MB = 1024 * 1024;
const LIMIT = 100 * MB;
const linux = process.platform === 'linux';

/** A raw GET whose answer is read only when `pull` is called (and never, if it is not). */
function rawGet(port: number, path: string): { socket: Socket; bytes: () => number; head: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let got = 0;
  let text = '';
  let headDone: (h: string) => void;
  const head = new Promise<string>((r) => (headDone = r));
  socket.on('data', (chunk: Buffer) => {
    got += chunk.length;
    if (text.length < 4096) {
      text += chunk.toString('latin1', 0, Math.min(chunk.length, 4096));
      if (text.includes('\r\n\r\n')) headDone(text.slice(0, text.indexOf('\r\n\r\n')));
    }
    socket.pause();
  });
  socket.on('error', () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  return { socket, bytes: () => got, head };
}

/** The highest resident set of `pid` over `ms`, sampled every 100 ms. */
async function peakRss(pid: number, ms: number, during?: () => void): Promise<number> {
  let peak = 0;
  for (const end = Date.now() + ms; Date.now() < end;) {
    during?.();
    peak = Math.max(peak, await rssOf(pid));
    await new Promise((r) => setTimeout(r, 100));
  }
  return peak;
}

describe('memory a client can make the service hold', { skip: !linux && 'reads /proc' }, () => {
  let sim: Simulator;
  let host: MediaHost;

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    host = await startMediaHost(20 * MB);
  });
  after(async () => {
    await host?.close();
    await sim?.close();
  });

  /** A fresh service for each test, so each measures from its own start. */
  async function service(): Promise<{ svc: Instance; signer: MediaSigner; stop: () => Promise<void> }> {
    const dir = mkdtempSync(join(tmpdir(), 'threadmark-memory-'));
    const svc = await spawnInstance({
      ...simEnv(sim),
      THREADMARK_KEYS_DB: join(dir, 'keys.db'),
      THREADMARK_MEDIA_PROXY: 'true',
      THREADMARK_MEDIA_HOSTS: `pbs.twimg.com=${host.url},video.twimg.com=${host.url}`,
    });
    const signer = new MediaSigner(86400);
    signer.adopt(readFileSync(join(dir, 'media-secret'), 'utf8').trim());
    return {
      svc,
      signer,
      stop: async () => {
        await svc.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  test('24 slow readers of 20 MB files through /media/: each file streams, the process stays within +100 MB', async (t) => {
    const { svc, signer, stop } = await service();
    t.after(stop);
    const pid = svc.child.pid!;
    // Warm the route and the allowances' tables before the baseline.
    const warm = await svc.get(signer.sign('https://video.twimg.com/ext_tw_video/0/pu/vid/avc1/1x1/Warm.mp4')!);
    assert.equal(warm.status, 200);
    assert.equal((await warm.arrayBuffer()).byteLength, 20 * MB);
    const base = await rssOf(pid);
    const readers = Array.from({ length: 24 }, (_, i) =>
      rawGet(svc.port, signer.sign(`https://video.twimg.com/ext_tw_video/${i + 1}/pu/vid/avc1/1x1/Slow${i}.mp4`)!),
    );
    const heads = await Promise.all(readers.map((r) => r.head));
    for (const h of heads) assert.match(h, /^HTTP\/1\.1 200 /);
    // Slow: each reader takes one chunk every 100 ms.
    const peak = await peakRss(pid, 5000, () => readers.forEach((r) => r.socket.resume()));
    t.diagnostic(`resident set ${(base / MB).toFixed(0)} → ${(peak / MB).toFixed(0)} MB at most`);
    assert.ok(
      peak - base < LIMIT,
      `resident set rose ${((peak - base) / MB).toFixed(1)} MB (${(base / MB).toFixed(0)} → ${(peak / MB).toFixed(0)})`,
    );
    // Then read to the end: every reader gets its whole file.
    await Promise.all(
      readers.map(
        (r) =>
          new Promise<void>((resolve) => {
            r.socket.on('data', () => r.socket.resume());
            r.socket.once('close', resolve);
            r.socket.resume();
          }),
      ),
    );
    for (const [i, r] of readers.entries()) assert.ok(r.bytes() > 20 * MB, `reader ${i} got ${r.bytes()} bytes`);
  });

  test('a zip export with media=local to a client that never reads: the archive waits, the process stays within +100 MB', async (t) => {
    const { svc, stop } = await service();
    t.after(stop);
    const pid = svc.child.pid!;
    // Warm the export route (and load yazl) with an export that reads everything before the baseline.
    const warm = await svc.get('/api/v1/profiles/alice_dev/posts?max_posts=2&format=zip');
    assert.equal(warm.status, 200);
    await warm.arrayBuffer();
    const base = await rssOf(pid);
    const asked = host.served.length;
    const r = rawGet(svc.port, '/api/v1/profiles/bigaccount/posts?max_posts=1000&format=zip&media=local');
    assert.match(await r.head, /^HTTP\/1\.1 200 /);
    const peak = await peakRss(pid, 6000);
    const fetched = host.served.length - asked;
    t.diagnostic(
      `resident set ${(base / MB).toFixed(0)} → ${(peak / MB).toFixed(0)} MB at most; ${fetched} files fetched`,
    );
    assert.ok(
      peak - base < LIMIT,
      `resident set rose ${((peak - base) / MB).toFixed(1)} MB (${(base / MB).toFixed(0)} → ${(peak / MB).toFixed(0)})`,
    );
    // What the socket's buffers take (a few MB) is all the archive is let ahead of the reader: a file or two.
    assert.ok(fetched <= 3, `${fetched} media files fetched for a client that reads nothing`);
    r.socket.destroy();
  });
});
