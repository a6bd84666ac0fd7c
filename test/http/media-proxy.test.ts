// GET /media/{ref}: X media through the service under signed addresses. Served with ranges and a plain content
// type, cached, charged to media-ip; unsigned, altered, expired and foreign addresses refused with no upstream call.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.ts';

let s: Stack;
let off: Stack;
before(async () => {
  s = await startStack({ THREADMARK_MEDIA_PROXY: 'true' });
  off = await startStack({}, { sim: s.sim });
});
after(async () => {
  await off.close();
  await s.close();
});

const PHOTO = 'https://pbs.twimg.com/media/ProxyPhoto01?format=jpg&name=orig';
const VIDEO = 'https://video.twimg.com/ext_tw_video/1/pu/vid/avc1/1280x720/ProxyClip.mp4?tag=12';
const signed = (url: string, now?: number) => s.app.services.media.signer.sign(url, now)!;
const mediaCalls = () => s.sim.calls({ target: 'media' });

async function problem(res: Response): Promise<string> {
  assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
  return ((await res.json()) as { code: string }).code;
}

describe('media proxy', { concurrency: 1 }, () => {
  test('a signed photo: the bytes, a plain content type, nosniff, cached after the first fetch', async () => {
    s.sim.resetCalls();
    const path = signed(PHOTO);
    assert.match(path, /^\/media\/[A-Za-z0-9_-]+\.\d+\.[A-Za-z0-9_-]{43}$/);
    const res = await s.get(path);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('accept-ranges'), 'bytes');
    assert.match(res.headers.get('ratelimit-policy') ?? '', /"media-ip";q=1200;w=60/);
    const body = Buffer.from(await res.arrayBuffer());
    assert.deepEqual([...body.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    assert.equal(mediaCalls(), 1);
    assert.equal((await s.get(path)).status, 200);
    assert.equal(mediaCalls(), 1, 'the second answer comes from the cache');
  });

  test('ranges: 206 with Content-Range, suffix ranges, 416 beyond the end', async () => {
    const path = signed(VIDEO);
    const whole = Buffer.from(await (await s.get(path)).arrayBuffer());
    assert.equal(whole.subarray(4, 8).toString('latin1'), 'ftyp');
    const part = await s.get(path, { headers: { range: 'bytes=0-99' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-type'), 'video/mp4');
    assert.equal(part.headers.get('content-range'), `bytes 0-99/${whole.length}`);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(0, 100));
    const tail = await s.get(path, { headers: { range: 'bytes=-10' } });
    assert.equal(tail.status, 206);
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), whole.subarray(whole.length - 10));
    const beyond = await s.get(path, { headers: { range: `bytes=${whole.length}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${whole.length}`);
  });

  test('unsigned, altered, expired and foreign addresses are refused without any upstream call', async () => {
    s.sim.resetCalls();
    const path = signed('https://pbs.twimg.com/media/NeverFetched?format=jpg&name=orig');
    const [ref, exp, sig] = path.split('.') as [string, string, string];
    assert.equal(await problem(await s.get(ref)), 'invalid_media_signature');
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    assert.equal(await problem(await s.get(`${ref}.${exp}.${flipped}`)), 'invalid_media_signature');
    assert.equal(await problem(await s.get(`${ref}.${Number(exp) + 1}.${sig}`)), 'invalid_media_signature');
    assert.equal(await problem(await s.get(`${ref}.${exp}.${sig}.more`)), 'invalid_media_signature');
    const old = signed('https://pbs.twimg.com/media/NeverFetched?format=jpg&name=orig', Date.now() - 30 * 86400_000);
    const expired = await s.get(old);
    assert.equal(expired.status, 403);
    assert.equal(await problem(expired), 'media_url_expired');
    for (const foreign of ['https://evil.example/x.png', 'http://pbs.twimg.com/media/x.jpg', 'file:///etc/passwd']) {
      const res = await s.get(`/media/${Buffer.from(foreign).toString('base64url')}.${exp}.${sig}`);
      assert.equal(res.status, 400, foreign);
      assert.equal(await problem(res), 'invalid_media_url');
    }
    assert.equal(signed('https://evil.example/x.png'), undefined, 'nothing else is ever signed');
    assert.equal(await problem(await s.get('/media/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd')), 'invalid_media_url');
    assert.equal(mediaCalls(), 0);
  });

  test('a hostile upstream content type is not passed on', async () => {
    s.sim.addFault({ target: 'media', match: 'HostileType', kind: 'html' });
    try {
      const res = await s.get(signed('https://pbs.twimg.com/media/HostileType?format=jpg&name=orig'));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/octet-stream');
      assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
    } finally {
      s.sim.clearFaults();
    }
  });

  test('feeds and HTML pages name the signed addresses, which serve the files; with the proxy off they name X', async () => {
    const base = s.app.services.config.baseUrl;
    const proxied = new RegExp(
      `${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/media/[A-Za-z0-9_-]+\\.\\d+\\.[A-Za-z0-9_-]{43}`,
      'g',
    );
    const feed = await (await s.get('/api/v1/posts/1900000000000000001/feed?type=rss')).text();
    const inFeed = feed.match(proxied) ?? [];
    assert.ok(inFeed.length >= 3, 'photos and the video of the thread');
    assert.doesNotMatch(feed, /https:\/\/(pbs|video)\.twimg\.com\//);
    const page = await (
      await s.get('/alice_dev/status/1900000000000000002?thread=off', { headers: { accept: 'text/html' } })
    ).text();
    const inPage = page.match(proxied) ?? [];
    assert.ok(inPage.length >= 2, 'the image and the link preview');
    assert.match(page, new RegExp(`<meta property="og:image" content="${base.replace(/[.]/g, '\\.')}/media/`));
    for (const url of [inFeed[0]!, inPage[0]!]) {
      const res = await s.get(url.slice(base.length));
      assert.equal(res.status, 200, url);
      assert.match(res.headers.get('content-type') ?? '', /^(image\/png|video\/mp4)$/);
    }
    const plain = await (await off.get('/api/v1/posts/1900000000000000001/feed?type=rss')).text();
    assert.match(plain, /https:\/\/pbs\.twimg\.com\/media\//);
    assert.doesNotMatch(plain, /\/media\/[A-Za-z0-9_-]+\.\d+\./);
  });

  test('media gone upstream is 404 not_found; without THREADMARK_MEDIA_PROXY the route is 404 media_proxy_disabled', async () => {
    s.sim.addFault({ target: 'media', match: 'GoneFile', kind: 'status', status: 404 });
    try {
      const res = await s.get(signed('https://pbs.twimg.com/media/GoneFile?format=jpg&name=orig'));
      assert.equal(res.status, 404);
      assert.equal(await problem(res), 'not_found');
    } finally {
      s.sim.clearFaults();
    }
    const disabled = await off.get(signed(PHOTO));
    assert.equal(disabled.status, 404);
    assert.equal(await problem(disabled), 'media_proxy_disabled');
  });
});
