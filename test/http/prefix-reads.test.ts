// URL-prefix reads through the real server: `/{pasted X link}` answers exactly what the permalink the link names
// answers (status, media type, body, caching headers), plus a canonical Link to that permalink; links of other
// hosts are refused with the accepted hosts listed, and never fetched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

const alice = HANDLES.alice;
const post = IDS.threadPhoto;

/** A GET with the path sent byte for byte (fetch would normalise `//` and dot segments away). */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every accepted spelling of one post link, each with the permalink it reads. */
const POST_SHAPES: Array<[string, string]> = [
  [`/https://x.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/http://x.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/x.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://twitter.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://www.twitter.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://mobile.twitter.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/mobile.x.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://fxtwitter.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://vxtwitter.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://d.fxtwitter.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://fixupx.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://nitter.net/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/nitter.poast.org/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://xcancel.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  // A proxy that merges slashes leaves `https:/x.com`.
  [`/https:/x.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/HTTPS://X.COM/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://x.com/${alice}/status/${post}/photo/1`, `/${alice}/status/${post}`],
  [`/https://x.com/${alice}/status/${post}?s=20&t=abc`, `/${alice}/status/${post}`],
  [`/${encodeURIComponent(`https://x.com/${alice}/status/${post}?s=20`)}`, `/${alice}/status/${post}`],
  [`/https%3A%2F%2Fx.com/${alice}/status/${post}`, `/${alice}/status/${post}`],
  [`/https://x.com/i/status/${post}`, `/i/status/${post}`],
  [`/https://x.com/i/web/status/${post}`, `/i/status/${post}`],
];

describe('URL-prefix reads', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(async () => {
    await s.close();
  });

  test('every accepted spelling of a post link reads as its permalink, with a canonical Link', async () => {
    const direct = await rawGet(s.url, `/${alice}/status/${post}`);
    assert.equal(direct.status, 200);
    for (const [path, permalink] of POST_SHAPES) {
      const res = await rawGet(s.url, path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], direct.headers['content-type'], path);
      assert.equal(res.body, direct.body, path);
      assert.equal(res.headers['cache-control'], direct.headers['cache-control'], path);
      assert.equal(res.headers.etag, direct.headers.etag, path);
      assert.equal(res.headers.vary, direct.headers.vary, path);
      const link = String(res.headers.link);
      if (permalink.startsWith('/i/'))
        assert.match(link, new RegExp(`/${alice}/status/${post}>; rel="canonical"`), path);
      else assert.match(link, new RegExp(`<${TEST_BASE}${permalink}>; rel="canonical"`), path);
    }
  });

  test('answers replayed from cache keep each URL its own headers', async () => {
    const prefixed = `/https://x.com/${alice}/status/${IDS.threadPoll}`;
    const direct = `/${alice}/status/${IDS.threadPoll}`;
    await rawGet(s.url, direct);
    for (let i = 0; i < 3; i++) {
      const p = await rawGet(s.url, prefixed);
      assert.match(String(p.headers.link), /rel="canonical"/);
      const d = await rawGet(s.url, direct);
      assert.equal(String(d.headers.link ?? '').includes('rel="canonical"'), false);
      assert.equal(p.body, d.body);
    }
  });

  test('negotiation and the service’s own parameters work as on the permalink', async () => {
    const json = await rawGet(s.url, `/https://x.com/${alice}/status/${post}`, { accept: 'application/json' });
    assert.equal(json.status, 200);
    assert.match(String(json.headers['content-type']), /^application\/json/);
    const direct = await rawGet(s.url, `/${alice}/status/${post}?format=obsidian`);
    const viaQuery = await rawGet(s.url, `/https://x.com/${alice}/status/${post}?format=obsidian`);
    assert.equal(viaQuery.body, direct.body);
    assert.match(String(viaQuery.headers.link), new RegExp(`status/${post}\\?format=obsidian>; rel="canonical"`));
    // Encoded link, the service's parameters outside it.
    const encoded = await rawGet(
      s.url,
      `/${encodeURIComponent(`https://x.com/${alice}/status/${post}?s=1`)}?format=obsidian`,
    );
    assert.equal(encoded.body, direct.body);
    // A conditional request gets the permalink's 304.
    const etag = String(direct.headers.etag);
    const again = await rawGet(s.url, `/https://x.com/${alice}/status/${post}?format=obsidian`, {
      'if-none-match': etag,
    });
    assert.equal(again.status, 304);
  });

  test('profiles, connections, feeds, accounts by id, Lists and search read as their permalinks', async () => {
    const shapes: Array<[string, string]> = [
      [`/https://x.com/${alice}`, `/${alice}`],
      [`/x.com/@${alice}`, `/${alice}`],
      [`/https://twitter.com/${alice}/with_replies`, `/${alice}?with_replies=true`],
      [`/https://x.com/${alice}/followers`, `/${alice}/followers`],
      [`/https://x.com/${alice}/following`, `/${alice}/following`],
      [`/https://nitter.net/${alice}/rss`, `/${alice}/rss`],
      [`/https://nitter.net/${alice}/media/rss`, `/${alice}/media/rss`],
      [`/https://x.com/i/user/123`, `/i/user/123`],
      [`/https://x.com/i/lists/123`, `/i/lists/123`],
      [`/https://x.com/i/lists/123/members`, `/i/lists/123/members`],
      [`/https://x.com/search?q=hello&src=typed_query`, `/search?q=hello`],
      [`/https://x.com/search?q=hello&f=top`, `/search?q=hello&feed=top`],
      [`/https://nitter.net/search/rss?f=tweets&q=hello`, `/search/rss?q=hello`],
    ];
    for (const [path, permalink] of shapes) {
      const res = await rawGet(s.url, path);
      const direct = await rawGet(s.url, permalink);
      assert.equal(res.status, direct.status, path);
      assert.equal(res.headers['content-type'], direct.headers['content-type'], path);
      // Problem answers carry a per-request id; everything else must match.
      const strip = (b: string) => b.replace(/"request_id":"[^"]*"|request id[^\n]*/gi, '');
      assert.equal(strip(res.body), strip(direct.body), path);
      assert.ok(
        String(res.headers.link).includes(`<${TEST_BASE}${permalink}>; rel="canonical"`),
        `${path}: ${String(res.headers.link)}`,
      );
    }
  });

  test("a post's quotes and reposts, profile tabs, hashtags, cashtags and the trends read as their permalinks", async () => {
    const root = IDS.threadRoot;
    const shapes: Array<[string, string]> = [
      [`/https://x.com/${alice}/status/${root}/quotes`, `/${alice}/status/${root}/quotes`],
      [`/https://twitter.com/${alice}/status/${root}/retweets?s=20`, `/${alice}/status/${root}/reposts`],
      [`/https://nitter.net/${alice}/status/${root}/quotes`, `/${alice}/status/${root}/quotes`],
      [`/https://x.com/${alice}/media`, `/${alice}/media`],
      [`/https://mobile.twitter.com/${alice}/articles`, `/${alice}/articles`],
      [`/x.com/${alice}/about`, `/${alice}/about`],
      [`/https://x.com/hashtag/caching?src=hashtag_click`, `/hashtag/caching`],
      [`/https://x.com/hashtag/caching?src=hashtag_click&f=live`, `/hashtag/caching?feed=latest`],
      [`/${encodeURIComponent('https://x.com/search?q=%23caching&src=hashtag_click')}`, `/hashtag/caching`],
      [`/https://x.com/search?q=%24tsla&src=cashtag_click`, `/cashtag/TSLA`],
      [`/https://x.com/explore/tabs/trending`, `/trends`],
      [`/https://x.com/i/trends`, `/trends`],
    ];
    for (const [path, permalink] of shapes) {
      const res = await rawGet(s.url, path);
      const direct = await rawGet(s.url, permalink);
      assert.equal(direct.status, 200, `${permalink}: ${direct.body.slice(0, 200)}`);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], direct.headers['content-type'], path);
      assert.equal(res.body, direct.body, path);
      assert.ok(
        String(res.headers.link).includes(`<${TEST_BASE}${permalink}>; rel="canonical"`),
        `${path}: ${String(res.headers.link)}`,
      );
    }
    // A hashtag X could not have made is refused by the tag page itself, before any upstream call.
    const calls = s.sim.calls();
    const bad = await rawGet(s.url, '/https://x.com/hashtag/foo-bar');
    assert.equal(bad.status, 400);
    assert.equal((JSON.parse(bad.body) as { code: string }).code, 'invalid_hashtag');
    assert.equal(s.sim.calls(), calls);
  });

  test('a link of another host is 400 unsupported_host listing the accepted hosts, and nothing is fetched', async () => {
    const before = s.sim.calls();
    for (const path of [
      '/https://example.com/alice/status/1',
      '/example.com/alice/status/1',
      '/https://evilx.com/alice',
      '/https://api.x.com/alice/status/1',
      `/${encodeURIComponent('https://127.0.0.1/alice/status/1')}`,
      '/http://localhost:6379/alice',
    ]) {
      const res = await rawGet(s.url, path);
      assert.equal(res.status, 400, path);
      const p = JSON.parse(res.body) as { code: string; detail: string };
      assert.equal(p.code, 'unsupported_host', path);
      assert.match(p.detail, /x\.com, twitter\.com, fxtwitter\.com, vxtwitter\.com/);
    }
    assert.equal(s.sim.calls(), before);
  });

  test('a link of an accepted host naming nothing readable is 404 route_not_found; a broken one 400', async () => {
    for (const path of [
      '/https://x.com/alice/likes',
      '/https://x.com/',
      '/https://x.com/i/bookmarks',
      '/x.com/alice/status/abc',
    ]) {
      const res = await rawGet(s.url, path);
      assert.equal(res.status, 404, path);
      assert.equal((JSON.parse(res.body) as { code: string }).code, 'route_not_found', path);
    }
    const bad = await rawGet(s.url, '/https://user:pw@x.com/alice');
    assert.equal(bad.status, 400);
    assert.equal((JSON.parse(bad.body) as { code: string }).code, 'bad_request');
  });

  test('the service’s own paths are never taken for links', async () => {
    for (const path of ['/llms.txt', '/openapi.json', '/.well-known/ard.json']) {
      const res = await rawGet(s.url, path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.link?.toString().includes('rel="canonical"') ?? false, false, path);
    }
    const favicon = await rawGet(s.url, '/favicon.ico');
    assert.notEqual((await problemOf(new Response(favicon.body))).code, 'unsupported_host');
  });
});
