// What a shared cache (a CDN, Varnish) in front of the service reads: every public read family answers with
// Cache-Control a shared cache may keep for exactly the service's own lifetimes (s-maxage, stale-while-revalidate,
// stale-if-error), a strong validator, and Vary naming only request headers a CDN can key on; keyed answers are
// private, and problems and 429s are never stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

const ADMIN = 'admin-token-for-cdn-header-tests';
const TTL_S = 120;
const PUBLIC = `public, max-age=${TTL_S}, s-maxage=${TTL_S}, stale-while-revalidate=${TTL_S}, stale-if-error=3600`;
/**
 * Request headers a CDN can key on: X-Link-Preview is set by the CDN itself from the User-Agent; Authorization
 * is absent on every anonymous read (one variant), and the shipped VCL passes any request carrying it.
 */
const KEYABLE = new Set(['accept', 'accept-encoding', 'x-link-preview', 'authorization']);

const FAMILIES: Record<string, string> = {
  'post permalink': `/${HANDLES.alice}/status/${IDS.threadRoot}`,
  'post (v1)': `/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.threadRoot}`,
  'post (convert)': `/api/convert?url=${encodeURIComponent(`https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`)}`,
  'profile permalink': `/${HANDLES.bob}`,
  'profile (v1)': `/api/v1/profiles/${HANDLES.bob}`,
  followers: `/api/v1/profiles/${HANDLES.bob}/followers`,
  following: `/${HANDLES.bob}/following`,
  search: '/api/v1/search?q=caching',
  'search permalink': '/search?q=caching',
  'user by id': '/api/v1/users/1461000001',
  oembed: `/oembed?url=${encodeURIComponent(`${TEST_BASE}/${HANDLES.alice}/status/${IDS.threadRoot}`)}`,
  'profile feed': `/${HANDLES.alice}/rss`,
};

function varyNames(res: Response): string[] {
  return (res.headers.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}

describe('headers for a shared cache in front', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_CACHE_TTL_S: String(TTL_S), THREADMARK_ADMIN_TOKEN: ADMIN });
  });
  after(async () => {
    await s.close();
  });

  for (const [family, path] of Object.entries(FAMILIES)) {
    test(`${family}: public lifetimes, a strong validator, Vary only on keyable headers`, async () => {
      for (const accept of [undefined, 'application/json']) {
        const res = await s.get(path, { headers: accept ? { accept } : {} });
        const body = await res.arrayBuffer();
        if (accept && res.status === 406) continue;
        assert.equal(res.status, 200, `${path} ${accept}`);
        assert.equal(res.headers.get('cache-control'), PUBLIC, path);
        const etag = res.headers.get('etag') ?? '';
        assert.match(etag, /^"[^"]+"$/, 'strong ETag');
        assert.ok(varyNames(res).length > 0, 'Vary present');
        for (const name of varyNames(res)) assert.ok(KEYABLE.has(name), `${path}: Vary ${name}`);
        // The revalidation a CDN sends with the copy it holds: 304 with the same validator and lifetimes.
        const again = await s.get(path, { headers: { ...(accept ? { accept } : {}), 'if-none-match': etag } });
        assert.equal(again.status, 304, path);
        assert.equal(again.headers.get('etag'), etag);
        assert.equal(again.headers.get('cache-control'), PUBLIC);
        assert.ok(body.byteLength > 0);
      }
    });
  }

  test('a crawler named by X-Link-Preview gets a public preview page; X-Link-Preview: 0 keeps Markdown', async () => {
    const path = `/${HANDLES.alice}/status/${IDS.threadPhoto}`;
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0';
    for (let round = 0; round < 3; round++) {
      const crawler = await s.get(path, { headers: { 'x-link-preview': '1', 'user-agent': browser } });
      await crawler.arrayBuffer();
      assert.match(crawler.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(crawler.headers.get('cache-control'), PUBLIC, 'keyed on the header: shareable');
      const other = await s.get(path, { headers: { 'x-link-preview': '0', 'user-agent': 'Slackbot 1.0' } });
      await other.arrayBuffer();
      assert.match(other.headers.get('content-type') ?? '', /^text\/markdown/, 'the header decides over the UA');
      assert.equal(other.headers.get('cache-control'), PUBLIC);
      // A crawler talking to the service directly: the User-Agent decides, and the page stays private.
      const direct = await s.get(path, { headers: { 'user-agent': 'Slackbot 1.0' } });
      await direct.arrayBuffer();
      assert.match(direct.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(
        direct.headers.get('cache-control'),
        `private, max-age=${TTL_S}, stale-while-revalidate=${TTL_S}, stale-if-error=3600`,
      );
      assert.deepEqual(varyNames(direct), ['accept', 'x-link-preview', 'accept-encoding']);
    }
  });

  test('keyed answers are private, no-store', async () => {
    const issued = await fetch(`${s.url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cdn' }),
    });
    assert.equal(issued.status, 201);
    const { key } = (await issued.json()) as { key: string };
    for (const path of [FAMILIES['profile (v1)']!, FAMILIES.followers!, FAMILIES.search!]) {
      const res = await s.get(path, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('x-api-key-status'), 'valid');
      assert.equal(res.headers.get('cache-control'), 'private, no-store', path);
    }
  });

  test('problems are never stored: 400, 404 and a 429 whose Retry-After says when to come back', async () => {
    for (const [path, status] of [
      ['/api/v1/posts?format=nope', 400],
      [`/api/v1/profiles/${HANDLES.missing}`, 404],
      ['/no/such/route/here', 404],
    ] as const) {
      const res = await s.get(path, { headers: { accept: 'application/json' } });
      const problem = await problemOf(res);
      assert.equal(res.status, status, `${path} ${problem.code}`);
      assert.equal(res.headers.get('cache-control'), 'no-store', path);
    }
    // Anonymous live searches: 5 a minute per client (search-ip); each distinct query is a live lookup.
    let limited: Response | undefined;
    for (let i = 0; i < 8 && !limited; i++) {
      const res = await s.get(`/api/v1/search?q=cdnlimit${i}`, { headers: { accept: 'application/json' } });
      if (res.status === 429) limited = res;
      else await res.arrayBuffer();
    }
    assert.ok(limited, 'search-ip refused a live lookup');
    assert.equal((await problemOf(limited)).code, 'rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal(limited.headers.get('cache-control'), 'no-store');
  });
});
