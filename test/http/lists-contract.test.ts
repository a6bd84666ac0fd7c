// The list contract's points the other list tests leave open: a several-hundred-account follower list walked
// to its end through Continue → links and by page then cursor, 200 headers on every list route and
// surface, recovery documents, every deprecation header of /api/browse on success, error, HEAD and
// OPTIONS, the documented default search feed, handle validation and reserved paths, oEmbed discovery.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BIG_FOLLOWERS, HANDLES } from '../../sim/corpus.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

interface ListBody {
  items?: Array<{ handle?: string }>;
  posts?: unknown[];
  nextCursor?: string;
  page: number;
  limit: number;
  feed?: string;
  markdown: string;
}

async function json(path: string): Promise<ListBody> {
  const res = await s.get(path + (path.includes('?') ? '&' : '?') + 'format=json');
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  return JSON.parse(text) as ListBody;
}

/** Handles of a Markdown connections page: one `[@handle](permalink)` per account line. */
function handlesIn(md: string): string[] {
  return [...md.matchAll(/^- .*\[@([A-Za-z0-9_]{1,15})\]\(http:\/\/threadmark\.test\/\1\)/gm)].map((m) => m[1]!);
}

const CONTINUE = /\[Continue →\]\((http:\/\/threadmark\.test\/[^)\s]+)\)\s*$/;

describe('walking a long follower list', () => {
  for (const start of [`/${HANDLES.big}/followers`, `/api/v1/profiles/${HANDLES.big}/followers`]) {
    test(`${start}: Continue → links lead page by page to the end, which has none`, async () => {
      const seen: string[] = [];
      let next: string | undefined = start;
      let pages = 0;
      while (next) {
        const res = await s.get(next);
        const md = await res.text();
        assert.equal(res.status, 200, next);
        pages++;
        const found = handlesIn(md);
        assert.equal(res.headers.get('x-result-count'), String(found.length));
        seen.push(...found);
        const link = CONTINUE.exec(md)?.[1];
        if (link) {
          assert.ok(link.startsWith(`${TEST_BASE}${start}?`), `Continue stays on the route: ${link}`);
          next = link.slice(TEST_BASE.length);
        } else {
          assert.doesNotMatch(md, /Continue →/);
          next = undefined;
        }
        assert.ok(pages < 40, 'paging ends');
      }
      assert.equal(seen.length, BIG_FOLLOWERS);
      assert.equal(new Set(seen).size, BIG_FOLLOWERS, 'no account twice');
      assert.equal(pages, Math.ceil(BIG_FOLLOWERS / 20));
    });
  }

  test('by page (1-10), then on by cursor from page 10, the same accounts in the same order as by cursor alone', async () => {
    const path = `/api/v1/profiles/${HANDLES.big}/followers`;
    const byCursor: string[] = [];
    let cursor: string | undefined;
    do {
      const body = await json(cursor ? `${path}?cursor=${encodeURIComponent(cursor)}` : path);
      byCursor.push(...body.items!.map((i) => i.handle!));
      cursor = body.nextCursor;
    } while (cursor);

    const byPage: string[] = [];
    let last: ListBody | undefined;
    for (let page = 1; page <= 10; page++) {
      last = await json(`${path}?page=${page}`);
      assert.equal(last.page, page);
      assert.equal(last.limit, 20);
      assert.ok(last.nextCursor, `page ${page} is not the end`);
      byPage.push(...last.items!.map((i) => i.handle!));
    }
    cursor = last!.nextCursor;
    let body: ListBody;
    do {
      body = await json(`${path}?cursor=${encodeURIComponent(cursor!)}`);
      byPage.push(...body.items!.map((i) => i.handle!));
      cursor = body.nextCursor;
    } while (cursor);
    assert.equal(body.nextCursor, undefined, 'nextCursor is absent at the end');
    assert.equal(body.page, Math.ceil(BIG_FOLLOWERS / 20));
    assert.deepEqual(byPage, byCursor);
    assert.equal(byPage.length, BIG_FOLLOWERS);
  });

  test('page 11 clamps to 10; limit 21 clamps to 20; limit 1 gives one account and a cursor', async () => {
    const path = `/${HANDLES.big}/followers`;
    const ten = await json(`${path}?page=10`);
    const eleven = await json(`${path}?page=11`);
    assert.equal(eleven.page, 10);
    assert.deepEqual(eleven.items, ten.items);
    const wide = await json(`${path}?limit=21`);
    assert.equal(wide.limit, 20);
    assert.equal(wide.items!.length, 20);
    const one = await json(`${path}?limit=1`);
    assert.equal(one.limit, 1);
    assert.equal(one.items!.length, 1);
    assert.ok(one.nextCursor);
    const md = await (await s.get(`${path}?limit=1`)).text();
    assert.match(md, /\[Continue →\]\(http:\/\/threadmark\.test\/bigaccount\/followers\?limit=1&cursor=/);
  });

  test('a short list walked by page ends without nextCursor, and its Markdown has no Continue →', async () => {
    const path = `/api/v1/profiles/${HANDLES.alice}/followers`;
    let page = 1;
    for (;;) {
      const body = await json(`${path}?page=${page}&limit=5`);
      const md = await (await s.get(`${path}?page=${page}&limit=5`)).text();
      assert.equal(CONTINUE.test(md), body.nextCursor !== undefined, `page ${page}`);
      if (!body.nextCursor) break;
      page++;
      assert.ok(page <= 10);
    }
  });
});

describe('profile posts', () => {
  test('upstream pages whose posts are all filtered out (replies, reposts) are passed over, not the end', async () => {
    const path = `/${HANDLES.alice}`;
    let cursor: string | undefined;
    let pages = 0;
    let posts = 0;
    for (; pages < 30; pages++) {
      const q = `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const body = await json(path + q);
      // The corpus timeline has runs of replies and reposts longer than a page: none of them shows as a page.
      assert.ok(body.posts!.length > 0, `page ${pages + 1} has posts`);
      posts += body.posts!.length;
      if (body.nextCursor) assert.match(await (await s.get(path + q)).text(), CONTINUE);
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    assert.equal(cursor, undefined, 'the walk ends');
    assert.ok(posts > 6, `${posts} original posts over ${pages + 1} pages`);
  });
});

describe('200 headers on every list route and surface', () => {
  const cases: Array<[string, string]> = [
    [`/api/v1/profiles/${HANDLES.alice}`, 'profile'],
    [`/${HANDLES.alice}`, 'profile'],
    [`/api/v1/profiles/${HANDLES.alice}/followers`, 'followers'],
    [`/${HANDLES.alice}/followers`, 'followers'],
    [`/api/v1/profiles/${HANDLES.alice}/following`, 'following'],
    [`/${HANDLES.alice}/following`, 'following'],
    ['/api/v1/search?q=caching', 'search'],
    ['/search?q=caching', 'search'],
    [`/api/browse?resource=profile&handle=${HANDLES.alice}`, 'profile'],
    [`/api/browse?resource=followers&handle=${HANDLES.alice}`, 'followers'],
    [`/api/browse?resource=following&handle=${HANDLES.alice}`, 'following'],
    ['/api/browse?resource=search&q=caching', 'search'],
  ];
  for (const [path, resource] of cases) {
    test(path, async () => {
      for (const accept of ['text/markdown', 'application/json', 'text/html']) {
        const res = await s.get(path, { headers: { accept } });
        const text = await res.text();
        assert.equal(res.status, 200, `${accept}: ${text.slice(0, 200)}`);
        assert.equal(res.headers.get('x-browse-resource'), resource);
        assert.match(res.headers.get('x-result-count') ?? '', /^\d+$/);
        assert.equal(res.headers.get('x-api-key-status'), 'anonymous');
        assert.equal(res.headers.get('x-source'), 'fxtwitter');
        assert.match(res.headers.get('x-cache') ?? '', /^(hit|miss)$/);
        assert.ok(res.headers.get('vary'));
        if (accept === 'application/json') {
          const body = JSON.parse(text) as ListBody;
          const n = resource === 'profile' ? body.posts!.length : body.items!.length;
          assert.equal(res.headers.get('x-result-count'), String(n));
          assert.equal(body.page, 1);
          assert.equal(body.limit, 20);
          assert.equal(typeof body.markdown, 'string');
        }
      }
    });
  }
});

describe('recovery documents', () => {
  const who = [HANDLES.missing, HANDLES.protected, HANDLES.suspended];
  for (const handle of who) {
    test(`@${handle}: JSON problem, Markdown and HTML recovery on both surfaces`, async () => {
      for (const path of [
        `/${handle}`,
        `/api/v1/profiles/${handle}`,
        `/${handle}/followers`,
        `/api/v1/profiles/${handle}/following`,
        `/api/browse?resource=profile&handle=${handle}`,
      ]) {
        const j = await s.get(path, { headers: { accept: 'application/json' } });
        assert.equal(j.status, 404, path);
        assert.equal((await problemOf(j)).code, 'not_found');
        const md = await s.get(path, { headers: { accept: 'text/markdown' } });
        assert.equal(md.status, 404, path);
        assert.match(md.headers.get('content-type') ?? '', /^text\/markdown/);
        const text = await md.text();
        assert.match(text, new RegExp(`^# Not found: @${handle}$`, 'm'), 'what is missing');
        assert.match(text, /## Where to look next/);
        assert.ok(text.includes(`(${TEST_BASE}/search?q=${handle}&feed=users)`), 'a search to try');
        assert.match(text, /## Valid URL shapes/);
        for (const shape of [
          '/{handle}',
          '/{handle}/status/{id}',
          '/{handle}/followers',
          '/{handle}/following',
          '/search?q={terms}',
          '/api/v1/profiles/{handle}',
        ]) {
          assert.ok(text.includes(`\`${shape}\``), shape);
        }
        const html = await s.get(path, { headers: { accept: 'text/html' } });
        assert.equal(html.status, 404);
        assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
        const page = await html.text();
        assert.match(page, /<h2>Valid URL shapes<\/h2>/);
        assert.ok(page.includes(`Not found: @${handle}`));
      }
    });
  }
});

describe('/api/browse deprecation headers on every response', () => {
  const DEPRECATION = '@1789430400';
  const SUNSET = 'Wed, 15 Sep 2027 00:00:00 GMT';
  const POLICY = `${TEST_BASE}/docs/versioning`;

  function assertDeprecated(res: Response, successor: string | undefined, what: string) {
    assert.equal(res.headers.get('deprecation'), DEPRECATION, what);
    assert.equal(res.headers.get('sunset'), SUNSET, what);
    const link = res.headers.get('link') ?? '';
    assert.ok(link.includes(`<${POLICY}>; rel="deprecation"; type="text/html"`), `${what}: ${link}`);
    assert.ok(link.includes(`<${POLICY}>; rel="sunset"; type="text/html"`), `${what}: ${link}`);
    if (successor) assert.ok(link.includes(`<${TEST_BASE}${successor}>; rel="successor-version"`), `${what}: ${link}`);
    else assert.doesNotMatch(link, /successor-version/, what);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    for (const h of [
      'Deprecation',
      'Sunset',
      'Link',
      'RateLimit',
      'RateLimit-Policy',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'X-Source',
      'X-Cache',
      'X-Browse-Resource',
      'X-Result-Count',
      'X-Api-Key-Status',
    ]) {
      assert.ok(exposed.includes(h), `${what}: ${h} exposed`);
    }
  }

  const cases: Array<[string, number, string | undefined]> = [
    [`/api/browse?resource=profile&handle=${HANDLES.alice}`, 200, `/api/v1/profiles/${HANDLES.alice}`],
    [`/api/browse?resource=followers&handle=${HANDLES.big}`, 200, `/api/v1/profiles/${HANDLES.big}/followers`],
    [`/api/browse?resource=following&handle=${HANDLES.big}`, 200, `/api/v1/profiles/${HANDLES.big}/following`],
    ['/api/browse?resource=search&q=caching', 200, '/api/v1/search'],
    ['/api/browse?resource=search', 400, '/api/v1/search'],
    [`/api/browse?resource=profile&handle=${HANDLES.missing}`, 404, `/api/v1/profiles/${HANDLES.missing}`],
    [`/api/browse?resource=followers&handle=${HANDLES.big}&page=0`, 400, `/api/v1/profiles/${HANDLES.big}/followers`],
    [`/api/browse?resource=profile&handle=${HANDLES.alice}&format=obsidian`, 400, `/api/v1/profiles/${HANDLES.alice}`],
    ['/api/browse?resource=timeline', 400, undefined],
    ['/api/browse', 400, undefined],
  ];
  for (const [path, status, successor] of cases) {
    test(`${path} → ${status}, on GET, HEAD and JSON`, async () => {
      const get = await s.get(path);
      await get.arrayBuffer();
      assert.equal(get.status, status);
      assertDeprecated(get, successor, `GET ${path}`);
      const head = await s.get(path, { method: 'HEAD' });
      assert.equal(head.status, status);
      assert.equal(await head.text(), '');
      assertDeprecated(head, successor, `HEAD ${path}`);
      const j = await s.get(path, { headers: { accept: 'application/json' } });
      await j.arrayBuffer();
      assertDeprecated(j, successor, `JSON ${path}`);
    });
  }

  test('405 and OPTIONS answers carry them too', async () => {
    const path = `/api/browse?resource=profile&handle=${HANDLES.alice}`;
    const post = await s.get(path, { method: 'POST' });
    assert.equal(post.status, 405);
    await post.arrayBuffer();
    assertDeprecated(post, `/api/v1/profiles/${HANDLES.alice}`, 'POST');
    const options = await s.get(path, { method: 'OPTIONS' });
    await options.arrayBuffer();
    assert.equal(options.headers.get('deprecation'), DEPRECATION);
    assert.equal(options.headers.get('sunset'), SUNSET);
  });

  test('Continue → on the alias leads to the successor route', async () => {
    const md = await (await s.get(`/api/browse?resource=followers&handle=${HANDLES.big}`)).text();
    assert.match(md, /\[Continue →\]\(http:\/\/threadmark\.test\/api\/v1\/profiles\/bigaccount\/followers\?cursor=/);
  });
});

describe('search', () => {
  test('the default feed is latest, and documented as such', async () => {
    const plain = await json('/api/v1/search?q=caching');
    const latest = await json('/api/v1/search?q=caching&feed=latest');
    assert.equal(plain.feed, 'latest');
    assert.deepEqual(plain.items, latest.items);
    const openapi = (await (await s.get('/openapi.json')).json()) as {
      paths: Record<
        string,
        { get: { parameters: Array<{ name: string; description?: string; schema?: { default?: unknown } }> } }
      >;
    };
    const feed = openapi.paths['/api/v1/search']!.get.parameters.find((p) => p.name === 'feed');
    assert.match(feed?.description ?? '', /latest \(default/);
  });

  test('missing_query on every surface', async () => {
    for (const path of [
      '/api/v1/search',
      '/search',
      '/search?q=',
      '/api/v1/search?q=%20',
      '/api/browse?resource=search',
      '/api/browse?resource=search&q=',
    ]) {
      const res = await s.get(path);
      assert.equal(res.status, 400, path);
      assert.equal((await problemOf(res)).code, 'missing_query', path);
    }
  });
});

describe('handles', () => {
  test('a leading @ is invalid_handle on every route and surface', async () => {
    for (const path of [
      '/@alice_dev',
      '/%40alice_dev',
      '/api/v1/profiles/@alice_dev',
      '/@alice_dev/followers',
      '/@alice_dev/following',
      '/api/v1/profiles/%40alice_dev/following',
      '/api/browse?resource=profile&handle=@alice_dev',
      '/api/browse?resource=followers&handle=%40alice_dev',
    ]) {
      const res = await s.get(path);
      assert.equal(res.status, 400, path);
      assert.equal((await problemOf(res)).code, 'invalid_handle', path);
    }
  });

  test('reserved site paths are never handles', async () => {
    const calls = s.sim.calls();
    for (const name of [
      'docs',
      'about',
      'search',
      'api',
      'oembed',
      'mcp',
      'admin',
      '.well-known',
      'favicon.ico',
      'robots.txt',
      'llms.txt',
      'openapi.json',
      'status',
      'home',
      'explore',
      'settings',
      'i',
      'DOCS',
    ]) {
      for (const path of [
        `/${name}`,
        `/${name}/followers`,
        `/${name}/following`,
        `/api/v1/profiles/${name}`,
        `/api/v1/profiles/${name}/followers`,
      ]) {
        const res = await s.get(path);
        await res.arrayBuffer();
        assert.notEqual(res.headers.get('x-browse-resource'), 'profile', path);
        if (path !== `/${name}`) assert.equal(res.status, 404, path);
      }
    }
    assert.equal(s.sim.calls() - calls, 0, 'no upstream lookup for a reserved path');
  });
});

describe('oEmbed discovery', () => {
  test('the profile HTML page links its oEmbed document and canonical permalink, like post pages', async () => {
    for (const path of [`/${HANDLES.alice}`, `/api/v1/profiles/${HANDLES.alice}`]) {
      const res = await s.get(path, { headers: { accept: 'text/html' } });
      const html = await res.text();
      assert.equal(res.status, 200);
      const oembed = `${TEST_BASE}/oembed?url=${encodeURIComponent(`${TEST_BASE}/${HANDLES.alice}`)}`;
      assert.ok(
        html.includes(`<link rel="alternate" type="application/json+oembed" href="${oembed.replace(/&/g, '&amp;')}">`),
        html.slice(0, 800),
      );
      assert.ok(html.includes(`<link rel="canonical" href="${TEST_BASE}/${HANDLES.alice}">`));
      const target = await s.get(oembed.slice(TEST_BASE.length));
      assert.equal(target.status, 200);
      assert.equal(((await target.json()) as { type: string }).type, 'rich');
    }
  });
});
