// Conditional requests and compression through the real server: strong ETags, If-None-Match → 304 without
// an upstream call, br/gzip negotiation above the threshold, and HEAD.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startStack, type Stack } from '../helpers/stack.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http rather than fetch, which would decode the body and hide the coding on the wire. */
function raw(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const IDENTITY = { 'accept-encoding': 'identity' };
const STRONG_TAG = /^"[A-Za-z0-9_-]{20,}"$/;

const ADMIN = 'admin-token-for-conditional-tests';

let s: Stack;
before(async () => {
  s = await startStack({ THREADMARK_ADMIN_TOKEN: ADMIN });
});
after(() => s.close());

const status = (id: string, query = '') => `/${HANDLES.alice}/status/${id}${query}`;
const fxCalls = (id: string) => s.sim.calls({ target: 'fxtwitter', path: id });

describe('ETag', () => {
  test('a strong tag on 200, stable across the miss, the hits and a nocache refresh', async () => {
    const path = status(IDS.threadPhoto, '?thread=off');
    const miss = await raw(s.url, path, IDENTITY);
    assert.equal(miss.status, 200);
    assert.equal(miss.headers['x-cache'], 'miss');
    const tag = miss.headers.etag as string;
    assert.match(tag, STRONG_TAG);
    for (let i = 0; i < 3; i++) {
      const hit = await raw(s.url, path, IDENTITY);
      assert.equal(hit.headers['x-cache'], 'hit');
      assert.equal(hit.headers.etag, tag);
      assert.deepEqual(hit.body, miss.body);
    }
    const refreshed = await raw(s.url, `${path}&nocache=true`, IDENTITY);
    assert.equal(refreshed.headers['x-cache'], 'bypass');
    assert.equal(refreshed.headers.etag, tag, 'same bytes, same tag, whatever the cache status');
  });

  test('each representation has its own tag', async () => {
    const tags = new Set<string>();
    for (const q of ['', '?format=json', '?format=obsidian', '?full=true']) {
      const res = await raw(s.url, status(IDS.threadRoot, q), IDENTITY);
      assert.equal(res.status, 200, q);
      tags.add(res.headers.etag as string);
    }
    const html = await raw(s.url, status(IDS.threadRoot), { ...IDENTITY, accept: 'text/html' });
    tags.add(html.headers.etag as string);
    assert.equal(tags.size, 5);
  });

  test('discovery documents carry tags too; problem documents do not', async () => {
    const doc = await raw(s.url, '/openapi.json', IDENTITY);
    assert.equal(doc.status, 200);
    assert.match(doc.headers.etag as string, STRONG_TAG);
    const problem = await raw(s.url, '/api/v1/posts', IDENTITY);
    assert.equal(problem.status, 400);
    assert.equal(problem.headers.etag, undefined);
  });
});

describe('If-None-Match', () => {
  test('a matching tag on a cached entry is 304: no body, no upstream call, caching headers kept', async () => {
    const id = IDS.threadTwoPhotos;
    const path = status(id);
    const first = await raw(s.url, path, IDENTITY);
    const tag = first.headers.etag as string;
    const calls = fxCalls(id);
    assert.ok(calls >= 1);

    const res = await raw(s.url, path, { ...IDENTITY, 'if-none-match': tag });
    assert.equal(res.status, 304);
    assert.equal(res.body.length, 0);
    assert.equal(res.headers.etag, tag);
    assert.equal(res.headers['cache-control'], first.headers['cache-control']);
    assert.equal(res.headers.vary, first.headers.vary);
    assert.ok(res.headers.ratelimit, 'rate-limit headers on 304');
    assert.ok(res.headers['ratelimit-policy']);
    assert.equal(res.headers['content-type'], undefined);
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(fxCalls(id), calls, 'answered from the cache');
  });

  test('lists, weak prefixes and * match under weak comparison', async () => {
    const path = status(IDS.threadRoot);
    const tag = (await raw(s.url, path, IDENTITY)).headers.etag as string;
    for (const inm of [`"nope", ${tag}`, `W/${tag}`, `"a" ,W/"b",  ${tag} `, '*']) {
      const res = await raw(s.url, path, { ...IDENTITY, 'if-none-match': inm });
      assert.equal(res.status, 304, inm);
      assert.equal(res.headers.etag, tag, inm);
    }
  });

  test('a mismatched or malformed tag is a full 200', async () => {
    const path = status(IDS.threadRoot);
    const first = await raw(s.url, path, IDENTITY);
    const tag = first.headers.etag as string;
    for (const inm of ['"something-else"', tag.slice(1, -1), '', 'W/', `"${tag.slice(2)}`]) {
      const res = await raw(s.url, path, { ...IDENTITY, 'if-none-match': inm });
      assert.equal(res.status, 200, inm);
      assert.deepEqual(res.body, first.body);
    }
    // The tag of another representation does not validate this one.
    const json = await raw(s.url, `${path}?format=json`, { ...IDENTITY, 'if-none-match': tag });
    assert.equal(json.status, 200);
  });

  test('keyed (private, no-store) responses are validated too', async () => {
    const created = await fetch(`${s.url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'conditional-test' }),
    });
    assert.equal(created.status, 201);
    const { key } = (await created.json()) as { key: string };
    const auth = { ...IDENTITY, authorization: `Bearer ${key}` };
    const path = `/api/v1/profiles/${HANDLES.bob}`;
    const first = await raw(s.url, path, auth);
    assert.equal(first.status, 200);
    assert.equal(first.headers['cache-control'], 'private, no-store');
    assert.match(first.headers.etag as string, STRONG_TAG);
    const res = await raw(s.url, path, { ...auth, 'if-none-match': first.headers.etag as string });
    assert.equal(res.status, 304);
    assert.equal(res.headers['cache-control'], 'private, no-store');
    assert.equal(res.headers['x-api-key-status'], 'valid');
  });

  test('HEAD: same tag as GET, 304 on a match', async () => {
    const path = status(IDS.threadRoot);
    const get = await raw(s.url, path, IDENTITY);
    const head = await raw(s.url, path, IDENTITY, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers.etag, get.headers.etag);
    const cond = await raw(s.url, path, { ...IDENTITY, 'if-none-match': get.headers.etag as string }, 'HEAD');
    assert.equal(cond.status, 304);
  });
});

describe('paged lists', () => {
  test('a page with a next cursor keeps its tag across cache hits, and If-None-Match answers 304', async () => {
    const path = `/api/v1/profiles/${HANDLES.alice}/followers?limit=5`;
    const first = await raw(s.url, path, IDENTITY);
    assert.equal(first.status, 200);
    assert.match(first.body.toString('utf8'), /Continue →/, 'the page has a next cursor');
    const again = await raw(s.url, path, IDENTITY);
    assert.equal(again.headers['x-cache'], 'hit');
    assert.deepEqual(again.body, first.body, 'the same cursor, the same bytes');
    assert.equal(again.headers.etag, first.headers.etag);
    const cond = await raw(s.url, path, { ...IDENTITY, 'if-none-match': first.headers.etag as string });
    assert.equal(cond.status, 304);
  });
});

describe('compression', () => {
  test('br and gzip bodies decode to the identity bytes, each with its own strong tag', async () => {
    const path = status(IDS.threadRoot, '?full=true');
    const plain = await raw(s.url, path, IDENTITY);
    assert.ok(plain.body.length > 1024, 'large enough to compress');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(plain.headers.vary as string, /(^|, )Accept-Encoding(,|$)/);

    const br = await raw(s.url, path, { 'accept-encoding': 'gzip;q=0.5, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    assert.ok(br.body.length < plain.body.length);

    const gz = await raw(s.url, path, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.body), plain.body);

    for (const res of [br, gz]) {
      assert.equal(
        res.headers.vary,
        'Accept, X-Link-Preview, Accept-Encoding',
        'one Accept-Encoding, merged with Accept (and X-Link-Preview: permalinks answer link-preview crawlers with HTML)',
      );
      // Bodies past the compressor's synchronous-size limit are streamed (chunked, no Content-Length).
      const length = res.headers['content-length'];
      if (length !== undefined) assert.equal(Number(length), res.body.length);
    }
    const tags = [plain, br, gz].map((r) => r.headers.etag as string);
    assert.equal(new Set(tags).size, 3);
    assert.equal(tags[1], `${tags[0]!.slice(0, -1)}-br"`);

    // A client holding the br copy revalidates it with its own tag, and gets that tag back.
    const revalidated = await raw(s.url, path, { 'accept-encoding': 'br', 'if-none-match': tags[1] });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers.etag, tags[1]);
    assert.equal(revalidated.body.length, 0);
  });

  test('HEAD advertises the same coding and length as GET', async () => {
    const path = status(IDS.threadRoot, '?full=true');
    const get = await raw(s.url, path, { 'accept-encoding': 'br' });
    const head = await raw(s.url, path, { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.body.length, 0);
    for (const h of ['content-encoding', 'content-length', 'etag', 'vary'])
      assert.equal(head.headers[h], get.headers[h], h);
  });

  test('tiny bodies are sent as they are: problem documents and short posts', async () => {
    const problem = await raw(s.url, '/api/v1/posts?format=nope', { 'accept-encoding': 'br, gzip' });
    assert.equal(problem.status, 400);
    assert.ok(problem.body.length < 1024);
    assert.equal(problem.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(problem.body.toString('utf8')).code, 'invalid_format');

    const small = await raw(s.url, status(IDS.carolQuoted, '?thread=off'), { 'accept-encoding': 'br, gzip' });
    assert.equal(small.status, 200);
    assert.ok(small.body.length < 1024, `body is ${small.body.length} bytes`);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.headers.vary, 'Accept, X-Link-Preview', 'no Accept-Encoding when the body is never compressed');
  });
});
