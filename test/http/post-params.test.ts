// Every parameter of GET /api/v1/posts with its exact error code, on both surfaces and the legacy alias.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.ts';
import { IDS, HANDLES } from '../../sim/corpus.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

async function expectCode(path: string, code: string, status = 400) {
  const res = await s.get(path);
  const body = await res.text();
  assert.equal(res.status, status, `${path} → ${body}`);
  assert.equal(JSON.parse(body).code, code, path);
}

const h = () => HANDLES.alice;
const id = () => IDS.threadRoot;
const enc = encodeURIComponent;

describe('identification', () => {
  test('missing_url when nothing identifies the post', () => expectCode('/api/v1/posts', 'missing_url'));
  test('invalid_url', async () => {
    for (const u of [
      '',
      'http://',
      'ftp://x.com/a/status/1',
      'https://user:pw@x.com/a/status/1',
      'not a url at all%%',
      'x'.repeat(3000),
    ]) {
      await expectCode(`/api/v1/posts?url=${enc(u)}`, 'invalid_url');
    }
  });
  test('unsupported_host', async () => {
    for (const u of [
      'https://example.com/a/status/1',
      'https://x.co/a/status/1',
      'https://nitter.net/a/status/1',
      'https://evilx.com/a/status/1',
      'https://api.x.com/a/status/1',
    ]) {
      await expectCode(`/api/v1/posts?url=${enc(u)}`, 'unsupported_host');
    }
  });
  test('invalid_path', async () => {
    for (const p of [
      '/',
      '/alice',
      '/alice/status',
      '/alice/status/abc',
      '/alice/statuses/1',
      '/@alice/status/1',
      '/alice/status/1/photo/x',
      '/a_handle_far_too_long/status/1',
      '/alice/status/1/extra',
    ]) {
      await expectCode(`/api/v1/posts?url=${enc('https://x.com' + p)}`, 'invalid_path');
    }
  });
  test('invalid_params for handle + id', async () => {
    await expectCode('/api/v1/posts?id=123', 'invalid_params');
    await expectCode('/api/v1/posts?handle=alice', 'invalid_params');
    await expectCode('/api/v1/posts?handle=@alice&id=1', 'invalid_params');
    await expectCode('/api/v1/posts?handle=alice&id=12a', 'invalid_params');
    await expectCode('/api/v1/posts?handle=toolonghandle1234&id=1', 'invalid_params');
    await expectCode('/api/v1/posts?handle=alice&handle=bob&id=1', 'invalid_params');
  });
  test('url wins over handle and id, even invalid ones', async () => {
    const res = await s.get(
      `/api/v1/posts?thread=off&id=notnumeric&handle=@@&url=${enc(`https://x.com/${h()}/status/${id()}`)}`,
    );
    assert.equal(res.status, 200);
  });
  test('both hosts with www., mobile., media trailers, query and fragment', async () => {
    const variants = [
      `https://x.com/${h()}/status/${id()}`,
      `https://twitter.com/${h()}/status/${id()}`,
      `https://www.x.com/${h()}/status/${id()}`,
      `https://mobile.twitter.com/${h()}/status/${id()}`,
      `http://www.twitter.com/${h()}/status/${id()}/`,
      `https://x.com/${h()}/status/${id()}/photo/1`,
      `https://x.com/${h()}/status/${id()}/video/2`,
      `https://x.com/${h()}/status/${id()}?s=20&t=abc#frag`,
      `x.com/${h()}/status/${id()}`,
      `https://X.COM/${h()}/status/${id()}`,
    ];
    for (const u of variants) {
      const res = await s.get(`/api/v1/posts?thread=off&format=json&url=${enc(u)}`);
      assert.equal(res.status, 200, u);
      const body = (await res.json()) as { post: { id: string } };
      assert.equal(body.post.id, id(), u);
    }
  });
  test('handle + id form reads the post', async () => {
    const res = await s.get(`/api/v1/posts?thread=off&format=json&handle=${h()}&id=${id()}`);
    assert.equal(res.status, 200);
  });
});

describe('options', () => {
  const base = () => `/api/v1/posts?url=${enc(`https://x.com/${h()}/status/${id()}`)}`;
  const bad: Array<[string, string]> = [
    ['format=html', 'invalid_format'],
    ['format=JSON', 'invalid_format'],
    ['format=', 'invalid_format'],
    ['thread=1', 'invalid_thread'],
    ['thread=0', 'invalid_thread'],
    ['thread=101', 'invalid_thread'],
    ['thread=02', 'invalid_thread'],
    ['thread=yes', 'invalid_thread'],
    ['thread=5&thread=6', 'invalid_thread'],
    ['context=parents', 'invalid_context'],
    ['replies=all', 'invalid_replies'],
    ['userinfo=yes', 'invalid_userinfo'],
    ['full=maybe', 'invalid_flag'],
    ['nocache=2', 'invalid_flag'],
  ];
  for (const [q, code] of bad) test(`${q} → ${code}`, () => expectCode(`${base()}&${q}`, code));

  const good = [
    'thread=off',
    'thread=full',
    'thread=conversation',
    'thread=2',
    'thread=9',
    'thread=10',
    'thread=99',
    'thread=100',
    'context=full',
    'context=thread',
    'replies=top',
    'replies=recent',
    'replies=off',
    'userinfo=off',
    'userinfo=author',
    'userinfo=all',
    'full=true',
    'full=1',
    'full=yes',
    'full=false',
    'full=0',
    'nocache=true',
    'nocache=1',
    'nocache=yes',
    'nocache=false',
    'nocache=0',
    'format=markdown',
    'format=obsidian',
    'format=json',
  ];
  for (const q of good) {
    test(`${q} is accepted`, async () => {
      const res = await s.get(`${base()}&${q}`);
      assert.equal(res.status, 200, await res.clone().text());
    });
  }
});

describe('permalink surface', () => {
  test('invalid handle or id in the path → invalid_params', async () => {
    await expectCode(`/${'a'.repeat(16)}/status/${id()}`, 'invalid_params');
    await expectCode(`/${h()}/status/12x`, 'invalid_params');
    await expectCode(`/@${h()}/status/1`, 'invalid_params');
  });
  test('the same options and codes apply', async () => {
    await expectCode(`/${h()}/status/${id()}?thread=1`, 'invalid_thread');
    await expectCode(`/${h()}/status/${id()}?format=xml`, 'invalid_format');
  });
  test('bodies are identical to the versioned surface', async () => {
    for (const q of ['format=json', 'format=markdown', 'format=obsidian&thread=3', 'full=true&userinfo=all']) {
      const a = await (await s.get(`/${h()}/status/${id()}?${q}`)).text();
      const b = await (await s.get(`/api/v1/posts?handle=${h()}&id=${id()}&${q}`)).text();
      assert.equal(a, b, q);
    }
  });
});

describe('bearer keys are ignored on posts', () => {
  test('an unknown bearer key is never 401 here', async () => {
    const res = await s.get(`/${h()}/status/${id()}?thread=off`, { headers: { authorization: 'Bearer tm_unknown' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('www-authenticate'), null);
  });
});

describe('legacy /api/convert', () => {
  test('missing_url, invalid_mode, and mode selects the representation', async () => {
    await expectCode('/api/convert', 'missing_url');
    await expectCode('/api/convert?handle=a&id=1', 'missing_url');
    const u = enc(`https://x.com/${h()}/status/${id()}`);
    await expectCode(`/api/convert?url=${u}&mode=pdf`, 'invalid_mode');
    const j = await s.get(`/api/convert?url=${u}&mode=json&thread=off`);
    assert.match(j.headers.get('content-type') ?? '', /^application\/json/);
    const html = await s.get(`/api/convert?url=${u}&mode=html&thread=off`);
    assert.match(html.headers.get('content-type') ?? '', /^text\/html/);
    const both = await s.get(`/api/convert?url=${u}&mode=html&format=json&thread=off`);
    assert.match(both.headers.get('content-type') ?? '', /^application\/json/);
  });
  test('deprecation headers on success, error and HEAD', async () => {
    const u = enc(`https://x.com/${h()}/status/${id()}`);
    for (const [path, method] of [
      [`/api/convert?url=${u}&thread=off`, 'GET'],
      ['/api/convert', 'GET'],
      [`/api/convert?url=${u}&thread=off`, 'HEAD'],
      ['/api/convert', 'POST'],
    ] as const) {
      const res = await s.get(path, { method });
      assert.equal(res.headers.get('deprecation'), '@1789430400', path);
      assert.equal(res.headers.get('sunset'), 'Wed, 15 Sep 2027 00:00:00 GMT');
      const link = res.headers.get('link') ?? '';
      assert.match(link, /rel="deprecation"; type="text\/html"/);
      assert.match(link, /rel="sunset"; type="text\/html"/);
      assert.match(link, /<http:\/\/threadmark\.test\/api\/v1\/posts>; rel="successor-version"/);
      const exposed = res.headers.get('access-control-expose-headers') ?? '';
      for (const name of ['Deprecation', 'Sunset', 'Link']) assert.ok(exposed.includes(name), name);
    }
  });
});
