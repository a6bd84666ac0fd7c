// Profiles, followers, following, search and the /api/browse alias through the real server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack, problemOf, TEST_BASE } from '../helpers/stack.ts';
import { HANDLES } from '../../sim/corpus.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

interface ListBody {
  markdown: string;
  items?: Array<{ handle?: string; kind?: string }>;
  posts?: Array<{ id: string; replyTo?: { handle: string }; repostOf?: unknown }>;
  profile?: { handle: string };
  nextCursor?: string;
  page: number;
  limit: number;
}

async function json(path: string, init?: RequestInit): Promise<{ res: Response; body: ListBody }> {
  const res = await s.get(path + (path.includes('?') ? '&' : '?') + 'format=json', init);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  return { res, body: JSON.parse(text) as ListBody };
}

async function expectCode(path: string, code: string, status = 400) {
  const res = await s.get(path);
  const body = await res.text();
  assert.equal(res.status, status, `${path} → ${body}`);
  assert.equal(JSON.parse(body).code, code, path);
}

describe('profile', () => {
  for (const path of [`/api/v1/profiles/${HANDLES.alice}`, `/${HANDLES.alice}`]) {
    test(`${path}: bio, counts and original posts only (a self-thread's continuations included)`, async () => {
      const { res, body } = await json(path);
      assert.equal(body.profile?.handle, HANDLES.alice);
      assert.ok(body.posts && body.posts.length > 0);
      for (const p of body.posts) {
        assert.ok(!p.replyTo || p.replyTo.handle === HANDLES.alice, 'replies to others are filtered out');
        assert.equal(p.repostOf, undefined, 'reposts are filtered out');
      }
      assert.equal(res.headers.get('x-browse-resource'), 'profile');
      assert.equal(res.headers.get('x-result-count'), String(body.posts.length));
      assert.equal(res.headers.get('x-api-key-status'), 'anonymous');
      assert.ok(res.headers.get('x-source'));
      assert.ok(res.headers.get('x-cache'));
      assert.equal(body.page, 1);
      assert.equal(body.limit, 20);
    });
  }
  test('Markdown shows the profile and ends with Continue → while there is a next page', async () => {
    const res = await s.get(`/${HANDLES.alice}?limit=5`);
    assert.equal(res.status, 200);
    const md = await res.text();
    assert.match(md, /@alice_dev/);
    assert.match(md, /\[Continue →\]\(http:\/\/threadmark\.test\/alice_dev\?limit=5&cursor=[A-Za-z0-9_-]+\)\s*$/);
  });
  test('handles are validated exactly', async () => {
    await expectCode('/api/v1/profiles/@alice', 'invalid_handle');
    await expectCode('/api/v1/profiles/a-b', 'invalid_handle');
    await expectCode(`/api/v1/profiles/${'a'.repeat(16)}`, 'invalid_handle');
    await expectCode('/@alice', 'invalid_handle');
    await expectCode(`/${'a'.repeat(16)}/followers`, 'invalid_handle');
  });
  test('obsidian is not supported on list routes', async () => {
    await expectCode(`/api/v1/profiles/${HANDLES.alice}?format=obsidian`, 'invalid_format');
    await expectCode(`/${HANDLES.alice}/followers?format=obsidian`, 'invalid_format');
  });
  test('missing profile: problem for JSON, recovery document for Markdown and HTML', async () => {
    const j = await s.get(`/api/v1/profiles/${HANDLES.missing}?format=json`);
    assert.equal(j.status, 404);
    assert.equal((await problemOf(j)).code, 'not_found');
    const md = await s.get(`/${HANDLES.missing}`, { headers: { accept: 'text/markdown' } });
    assert.equal(md.status, 404);
    assert.match(md.headers.get('content-type') ?? '', /^text\/markdown/);
    const text = await md.text();
    assert.match(text, new RegExp(HANDLES.missing));
    assert.match(text, /\/\{handle\}\/status\/\{id\}/);
    const html = await s.get(`/${HANDLES.protected}`, { headers: { accept: 'text/html' } });
    assert.equal(html.status, 404);
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await html.text(), /<!doctype html>/i);
  });
});

describe('paging', () => {
  async function walk(path: string): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 60; i++) {
      const { body } = await json(path + (cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''));
      for (const it of body.items ?? []) seen.push(it.handle!);
      if (!body.nextCursor) return seen;
      cursor = body.nextCursor;
    }
    throw new Error('paging did not end');
  }

  test('a follower list of several hundred accounts walks to its end by cursor', async () => {
    const handles = await walk(`/api/v1/profiles/${HANDLES.big}/followers`);
    assert.ok(handles.length >= 400, `only ${handles.length}`);
    assert.equal(new Set(handles).size, handles.length, 'no duplicates across pages');
  });

  test('page N walks the same list as the cursors do, and clamps above 10', async () => {
    const all = await walk(`/${HANDLES.big}/following`);
    const byPage: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const { body } = await json(`/${HANDLES.big}/following?page=${page}`);
      assert.equal(body.page, page);
      byPage.push(...(body.items ?? []).map((i) => i.handle!));
    }
    assert.deepEqual(byPage, all.slice(0, byPage.length));
    const clamped = await json(`/${HANDLES.big}/following?page=99`);
    assert.equal(clamped.body.page, 10);
    assert.deepEqual(
      clamped.body.items!.map((i) => i.handle),
      all.slice(180, 200),
    );
  });

  test('limit clamps to 20, and a short list ends without a cursor or Continue link', async () => {
    const { body } = await json(`/${HANDLES.big}/followers?limit=500`);
    assert.equal(body.limit, 20);
    assert.equal(body.items!.length, 20);
    const small = await json(`/${HANDLES.big}/followers?limit=3`);
    assert.equal(small.body.items!.length, 3);
    const ends = await s.get(`/${HANDLES.alice}/followers`);
    const md = await ends.text();
    const j = await json(`/${HANDLES.alice}/followers`);
    assert.equal(j.body.nextCursor === undefined, !md.includes('Continue →'));
  });

  test('page and limit errors', async () => {
    for (const q of ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'limit=0', 'limit=x', 'page=1&page=2']) {
      await expectCode(`/${HANDLES.big}/followers?${q}`, 'invalid_page');
    }
  });

  test('cursor wins over page; tampered and cross-route cursors are rejected', async () => {
    const first = await json(`/${HANDLES.big}/followers`);
    const cursor = first.body.nextCursor!;
    const second = await json(`/${HANDLES.big}/followers?page=5&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(second.body.page, 2);
    const flipped = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
    await expectCode(`/${HANDLES.big}/followers?cursor=${encodeURIComponent(flipped)}`, 'invalid_cursor');
    await expectCode(`/${HANDLES.big}/following?cursor=${encodeURIComponent(cursor)}`, 'invalid_cursor');
    await expectCode(`/${HANDLES.alice}/followers?cursor=${encodeURIComponent(cursor)}`, 'invalid_cursor');
    await expectCode(`/${HANDLES.big}/followers?cursor=not-a-cursor`, 'invalid_cursor');
    await expectCode(`/${HANDLES.big}/followers?cursor=`, 'invalid_cursor');
  });
});

describe('search', () => {
  for (const path of ['/api/v1/search', '/search']) {
    test(`${path}: missing_query, invalid_feed, results with feed-bound cursors`, async () => {
      await expectCode(path, 'missing_query');
      await expectCode(`${path}?q=%20%20`, 'missing_query');
      await expectCode(`${path}?q=caching&feed=everything`, 'invalid_feed');
      const { res, body } = await json(`${path}?q=caching`);
      assert.equal(res.headers.get('x-browse-resource'), 'search');
      assert.ok(body.items!.length > 0);
      if (body.nextCursor) {
        await expectCode(`${path}?q=caching&feed=top&cursor=${encodeURIComponent(body.nextCursor)}`, 'invalid_cursor');
        await expectCode(`${path}?q=other&cursor=${encodeURIComponent(body.nextCursor)}`, 'invalid_cursor');
        const next = await json(`${path}?q=caching&cursor=${encodeURIComponent(body.nextCursor)}`);
        assert.equal(next.body.page, 2);
      }
    });
  }
  test('account-backed feeds without sessions answer 503 search_unavailable with Retry-After', async () => {
    for (const feed of ['photos', 'videos', 'users']) {
      const res = await s.get(`/api/v1/search?q=caching&feed=${feed}`);
      assert.equal(res.status, 503, feed);
      assert.equal((await problemOf(res)).code, 'search_unavailable');
      assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
    }
  });
});

describe('legacy /api/browse', () => {
  test('resource selects the successor, with deprecation headers and successor link', async () => {
    const { res, body } = await json(`/api/browse?resource=profile&handle=${HANDLES.alice}`);
    assert.equal(body.profile?.handle, HANDLES.alice);
    assert.equal(res.headers.get('deprecation'), '@1789430400');
    assert.equal(res.headers.get('sunset'), 'Wed, 15 Sep 2027 00:00:00 GMT');
    assert.match(
      res.headers.get('link') ?? '',
      new RegExp(`<${TEST_BASE}/api/v1/profiles/${HANDLES.alice}>; rel="successor-version"`),
    );
    const f = await json(`/api/browse?resource=followers&handle=${HANDLES.big}`);
    assert.equal(f.body.items!.length, 20);
    const q = await json('/api/browse?resource=search&q=caching');
    assert.ok(q.body.items!.length > 0);
    assert.match(q.res.headers.get('link') ?? '', /\/api\/v1\/search>; rel="successor-version"/);
  });
  test('invalid or missing resource: 400 invalid_resource, deprecation but no successor link', async () => {
    for (const path of ['/api/browse', '/api/browse?resource=timeline', '/api/browse?resource=']) {
      const res = await s.get(path);
      assert.equal(res.status, 400);
      assert.equal((await problemOf(res)).code, 'invalid_resource');
      assert.equal(res.headers.get('deprecation'), '@1789430400');
      assert.equal(res.headers.get('sunset'), 'Wed, 15 Sep 2027 00:00:00 GMT');
      const link = res.headers.get('link') ?? '';
      assert.match(link, /rel="deprecation"/);
      assert.match(link, /rel="help"/);
      assert.doesNotMatch(link, /successor-version/);
    }
    const head = await s.get('/api/browse?resource=profile&handle=alice_dev', { method: 'HEAD' });
    assert.equal(head.headers.get('deprecation'), '@1789430400');
    assert.match(head.headers.get('link') ?? '', /successor-version/);
  });
  test('handle is required and validated for profile resources', async () => {
    await expectCode('/api/browse?resource=profile', 'invalid_handle');
    await expectCode('/api/browse?resource=following&handle=@x', 'invalid_handle');
  });
});
