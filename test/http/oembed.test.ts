// oEmbed 1.0 for the service's own post and profile permalinks, on /api/v1/oembed and /oembed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack, TEST_BASE } from '../helpers/stack.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const postUrl = (handle: string, id: string) => `${TEST_BASE}/${handle}/status/${id}`;

async function oembed(url: string, extra = '', route = '/api/v1/oembed') {
  const res = await s.get(`${route}?url=${encodeURIComponent(url)}${extra}`);
  const text = await res.text();
  return { res, status: res.status, body: JSON.parse(text) as Record<string, any> };
}

function assertOembed(body: Record<string, any>) {
  assert.equal(body.version, '1.0');
  assert.equal(body.type, 'rich');
  assert.equal(body.provider_name, 'threadmark');
  assert.equal(body.provider_url, TEST_BASE);
  assert.equal(typeof body.html, 'string');
  assert.ok(Number.isInteger(body.width) && body.width > 0);
  assert.ok(Number.isInteger(body.height) && body.height > 0);
  assert.equal(typeof body.cache_age, 'number');
  assert.ok(body.author_name);
  assert.ok(String(body.author_url).startsWith(TEST_BASE));
}

describe('posts', () => {
  for (const route of ['/api/v1/oembed', '/oembed']) {
    test(`${route}: a post permalink gives a rich blockquote`, async () => {
      const { res, status, body } = await oembed(postUrl(HANDLES.alice, IDS.threadRoot), '', route);
      assert.equal(status, 200, JSON.stringify(body));
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assertOembed(body);
      assert.match(
        body.html,
        /^<blockquote class="threadmark-embed" cite="http:\/\/threadmark\.test\/alice_dev\/status\/1900000000000000001"/,
      );
      assert.ok(body.html.includes(`href="${postUrl(HANDLES.alice, IDS.threadRoot)}"`));
      assert.equal(body.author_url, `${TEST_BASE}/${HANDLES.alice}`);
      assert.equal(body.width, 550);
    });
  }

  test("handle-less permalinks (/i/status, /i/web/status) embed the post under its author's permalink", async () => {
    for (const path of [`/i/status/${IDS.threadRoot}`, `/i/web/status/${IDS.threadRoot}`]) {
      const { status, body } = await oembed(`${TEST_BASE}${path}`, '', '/oembed');
      assert.equal(status, 200, `${path}: ${JSON.stringify(body)}`);
      assertOembed(body);
      assert.ok(
        body.html.startsWith(`<blockquote class="threadmark-embed" cite="${postUrl(HANDLES.alice, IDS.threadRoot)}"`),
      );
      assert.equal(body.author_url, `${TEST_BASE}/${HANDLES.alice}`);
    }
    const missing = await oembed(`${TEST_BASE}/i/status/${IDS.unknown}`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');
  });

  test('maxwidth and maxheight are honoured', async () => {
    const { body } = await oembed(postUrl(HANDLES.alice, IDS.threadRoot), '&maxwidth=300&maxheight=90');
    assert.equal(body.width, 300);
    assert.ok(body.height <= 90);
    assert.ok(body.html.includes('max-width:300px'));
  });

  test('hostile text and names are escaped in html', async () => {
    const { status, body } = await oembed(postUrl(HANDLES.hostile, IDS.hostile));
    assert.equal(status, 200, JSON.stringify(body));
    assert.ok(!body.html.includes('<script>'));
    assert.ok(!body.html.includes('<img'));
    assert.ok(body.html.includes('&lt;script&gt;'));
  });

  test('trailing slash, query and fragment are tolerated', async () => {
    const { status } = await oembed(`${postUrl(HANDLES.alice, IDS.threadRoot)}/?s=20#x`);
    assert.equal(status, 200);
  });

  test('a deleted post is 404 not_found', async () => {
    const { status, body } = await oembed(postUrl(HANDLES.alice, IDS.deleted));
    assert.equal(status, 404);
    assert.equal(body.code, 'not_found');
  });
});

describe('profiles', () => {
  test('a profile permalink gives a rich blockquote with the bio', async () => {
    const { status, body } = await oembed(`${TEST_BASE}/${HANDLES.alice}`, '', '/oembed');
    assert.equal(status, 200, JSON.stringify(body));
    assertOembed(body);
    assert.ok(body.html.includes(`@${HANDLES.alice}`));
    assert.equal(body.author_url, `${TEST_BASE}/${HANDLES.alice}`);
  });

  test('/i/user/{id} embeds the account behind the id, under its handle', async () => {
    const { status, body } = await oembed(`${TEST_BASE}/i/user/1461000001`);
    assert.equal(status, 200, JSON.stringify(body));
    assertOembed(body);
    assert.ok(body.html.includes(`@${HANDLES.alice}`));
    assert.equal(body.author_url, `${TEST_BASE}/${HANDLES.alice}`);
  });

  test('a hostile profile is escaped', async () => {
    const { status, body } = await oembed(`${TEST_BASE}/${HANDLES.hostile}`);
    assert.equal(status, 200, JSON.stringify(body));
    assert.ok(!/<img|<script|<b>/.test(body.html));
  });
});

describe('errors', () => {
  const cases: Array<[string, string, number, string]> = [
    ['missing url', '', 400, 'missing_url'],
    ['not a URL', '?url=not%20a%20url', 400, 'invalid_url'],
    [
      'a platform URL (not ours)',
      `?url=${encodeURIComponent(`https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`)}`,
      404,
      'not_found',
    ],
    ['another site', `?url=${encodeURIComponent('https://example.org/alice/status/1')}`, 404, 'not_found'],
    ['one of our non-permalink pages', `?url=${encodeURIComponent(`${TEST_BASE}/docs`)}`, 404, 'not_found'],
    ['a malformed status path', `?url=${encodeURIComponent(`${TEST_BASE}/alice/status/abc`)}`, 404, 'not_found'],
    [
      'format=xml',
      `?url=${encodeURIComponent(postUrl(HANDLES.alice, IDS.threadRoot))}&format=xml`,
      400,
      'invalid_format',
    ],
    [
      'bad maxwidth',
      `?url=${encodeURIComponent(postUrl(HANDLES.alice, IDS.threadRoot))}&maxwidth=wide`,
      400,
      'invalid_dimension',
    ],
  ];
  for (const [name, qs, status, code] of cases) {
    test(`${name} → ${status} ${code}`, async () => {
      const res = await s.get(`/api/v1/oembed${qs}`);
      const body = (await res.json()) as { code: string; detail: string };
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(body.code, code);
      assert.ok(body.detail);
    });
  }

  test('the not-ours detail names the accepted permalink shapes', async () => {
    const res = await s.get(`/oembed?url=${encodeURIComponent('https://x.com/a/status/1')}`);
    const body = (await res.json()) as { detail: string };
    assert.ok(body.detail.includes(`${TEST_BASE}/{handle}/status/{id}`), body.detail);
  });
});

describe('discovery', () => {
  test('the HTML representation of a post links its oEmbed', async () => {
    const res = await s.get(`/${HANDLES.alice}/status/${IDS.threadRoot}`, { headers: { accept: 'text/html' } });
    assert.equal(res.status, 200);
    const page = await res.text();
    const m = /<link[^>]+type="application\/json\+oembed"[^>]*>/.exec(page);
    assert.ok(m, 'oEmbed discovery link');
    const href = /href="([^"]+)"/.exec(m[0])![1]!.replace(/&amp;/g, '&');
    const target = new URL(href);
    const follow = await s.get(`${target.pathname}${target.search}`);
    assert.equal(follow.status, 200);
  });
});
