// The vault's media store against a loopback server mapped as X's image host: hostile names, content types,
// redirects and links never put a byte outside attachments/, and nothing but X's media hosts is ever asked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaRef, mediaRefsOf } from '../../../src/domain/media-refs.ts';
import { parseMediaHosts } from '../../../src/media/hosts.ts';
import { DEFAULT_MEDIA_LIMITS, MediaStore } from '../../../src/media/store.ts';
import { loadConfig } from '../../../src/config.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let server: Server;
let base: string;
const seen: string[] = [];
let root: string;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'threadmark-media-store-'));
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url?.startsWith('/redirect')) {
      res.writeHead(302, { location: 'http://127.0.0.2:1/elsewhere.png' });
      return res.end();
    }
    res.writeHead(200, {
      'content-type': 'text/html; name="../../../evil.sh"',
      'content-disposition': 'attachment; filename="../../evil.sh"',
    });
    res.end(Buffer.concat([PNG, Buffer.from(req.url ?? '')]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(root, { recursive: true, force: true });
});

const storeIn = (vault: string) =>
  new MediaStore(join(root, vault), { hosts: { 'pbs.twimg.com': base }, limits: DEFAULT_MEDIA_LIMITS });

describe('media store', () => {
  test('hostile paths and content types end as <hash>.<sniffed ext> inside attachments/, nothing else', async () => {
    const store = storeIn('vault-a');
    for (const url of [
      'https://pbs.twimg.com/media/..%2F..%2Fevil.sh',
      'https://pbs.twimg.com/media/%2e%2e/%2e%2e/evil.jpg',
      'https://pbs.twimg.com/card_img/1/x?format=../../sh&name=../x',
    ]) {
      const r = await store.save(mediaRef(url)!);
      assert.ok(r.ok, JSON.stringify(r));
      assert.match(r.path, /^attachments\/[0-9a-f]{32}\.png$/);
    }
    assert.deepEqual(readdirSync(root).sort(), ['vault-a']);
    assert.deepEqual(readdirSync(join(root, 'vault-a')), ['attachments']);
    const files = readdirSync(join(root, 'vault-a', 'attachments')).filter((n) => !n.startsWith('.'));
    assert.equal(files.length, 3);
    assert.ok(files.every((f) => /^[0-9a-f]{32}\.png$/.test(f)));
  });

  test('foreign hosts, plain http and redirects are never followed; nothing is asked of another host', async () => {
    const store = storeIn('vault-b');
    seen.length = 0;
    assert.equal(mediaRef('https://evil.example/media/x.jpg'), undefined);
    assert.equal(mediaRef('http://pbs.twimg.com/media/x.jpg'), undefined);
    assert.equal(mediaRef('https://pbs.twimg.com.evil.example/media/x.jpg'), undefined);
    assert.equal(mediaRef('https://user@pbs.twimg.com/media/x.jpg'), undefined);
    const redirected = await store.save(mediaRef('https://pbs.twimg.com/redirect/x.jpg')!);
    assert.deepEqual(redirected, { ok: false, reason: 'failed', detail: 'HTTP 302' });
    assert.deepEqual(seen, ['/redirect/x.jpg']);
    const unmapped = await new MediaStore(join(root, 'vault-c'), {
      hosts: { 'pbs.twimg.com': base },
      limits: DEFAULT_MEDIA_LIMITS,
    }).save({ url: 'https://evil.example/x.png', original: 'https://evil.example/x.png', role: 'file' });
    assert.equal(unmapped.ok, false);
    assert.equal(!unmapped.ok && unmapped.reason, 'not_x_media');
    assert.deepEqual(seen, ['/redirect/x.jpg']);
  });

  test('an attachments/ that is a link elsewhere is refused before anything is written', () => {
    const outside = join(root, 'outside');
    mkdirSync(outside);
    mkdirSync(join(root, 'vault-d'));
    symlinkSync(outside, join(root, 'vault-d', 'attachments'));
    assert.throws(() => storeIn('vault-d'), /not a folder/);
    assert.deepEqual(readdirSync(outside), []);
  });

  test('THREADMARK_MEDIA_HOSTS maps only X media hosts, to http(s) bases', () => {
    assert.deepEqual(parseMediaHosts('pbs.twimg.com=http://127.0.0.1:9/p/,video.twimg.com=https://v.example'), {
      'pbs.twimg.com': 'http://127.0.0.1:9/p',
      'video.twimg.com': 'https://v.example',
    });
    assert.match(parseMediaHosts('evil.example=http://127.0.0.1') as string, /must map X's media hosts/);
    assert.match(parseMediaHosts('pbs.twimg.com=file:///etc') as string, /not an http\(s\) URL/);
    assert.throws(
      () => loadConfig({ THREADMARK_MEDIA_HOSTS: 'x.com=http://127.0.0.1' }),
      /THREADMARK_MEDIA_HOSTS must map X's media hosts/,
    );
  });

  test('refs: every kind of media a post holds, at original size, each once', () => {
    const refs = mediaRefsOf({
      author: {
        avatarUrl: 'https://pbs.twimg.com/profile_images/1/abc_normal.jpg',
        bannerUrl: 'https://pbs.twimg.com/profile_banners/1/1700000000',
      },
      url: 'https://x.com/a/status/1',
      media: [
        { url: 'https://pbs.twimg.com/media/KEY.jpg' },
        {
          url: 'https://video.twimg.com/ext_tw_video/1/pu/vid/1.mp4?tag=12',
          thumbnailUrl: 'https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/t.jpg',
        },
      ],
      card: { url: 'https://example.com', imageUrl: 'https://pbs.twimg.com/card_img/1/x?format=jpg&name=800x419' },
      article: {
        coverUrl: 'https://pbs.twimg.com/media/COVER?format=png&name=small',
        blocks: [{ type: 'image', url: 'https://evil.example/x.png' }],
      },
      quote: { media: [{ url: 'https://pbs.twimg.com/media/KEY.jpg' }] },
    });
    assert.deepEqual(
      refs.map((r) => [r.role, r.original]),
      [
        ['avatar', 'https://pbs.twimg.com/profile_images/1/abc.jpg'],
        ['banner', 'https://pbs.twimg.com/profile_banners/1/1700000000/1500x500'],
        ['photo', 'https://pbs.twimg.com/media/KEY?format=jpg&name=orig'],
        ['video', 'https://video.twimg.com/ext_tw_video/1/pu/vid/1.mp4?tag=12'],
        ['thumbnail', 'https://pbs.twimg.com/ext_tw_video_thumb/1/pu/img/t.jpg'],
        ['card', 'https://pbs.twimg.com/card_img/1/x?format=jpg&name=800x419'],
        ['photo', 'https://pbs.twimg.com/media/COVER?format=png&name=orig'],
      ],
    );
  });
});
