import { after, before, describe, test } from 'node:test';
import { rawRequest } from '../helpers/raw-http.ts';
import assert from 'node:assert/strict';
import { startStack, type Stack, TEST_BASE, problemOf } from '../helpers/stack.ts';
import { IDS, HANDLES } from '../../sim/corpus.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const permalink = () => `/${HANDLES.alice}/status/${IDS.threadRoot}`;

describe('methods', () => {
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    test(`${method} on a known route is 405 with Allow`, async () => {
      for (const path of ['/api/v1/posts?url=x', permalink(), '/api/convert']) {
        const res = await s.get(path, { method });
        assert.equal(res.status, 405, path);
        assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
        assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
        const p = await problemOf(res);
        assert.equal(p.code, 'method_not_allowed');
        assert.equal(p.type, `${TEST_BASE}/docs/reliability#method-not-allowed`);
      }
    });
  }

  test('every other method Node parses (TRACE, QUERY, WebDAV...) on a known route is 405 too', async () => {
    const port = Number(new URL(s.url).port);
    for (const method of ['TRACE', 'QUERY', 'PROPFIND', 'MKCOL', 'COPY', 'LOCK', 'PURGE', 'SEARCH', 'REPORT']) {
      for (const target of ['/api/v1/posts?url=x', permalink(), '/alice_dev', '/openapi.json']) {
        const res = await rawRequest(port, { method, target });
        assert.equal(res.status, 405, `${method} ${target}`);
        assert.equal(res.headers['allow'], 'GET, HEAD, OPTIONS', `${method} ${target}`);
        assert.equal(JSON.parse(res.body.toString()).code, 'method_not_allowed', `${method} ${target}`);
      }
    }
  });

  test('a method the reads do not take, on a path no read has, is route_not_found', async () => {
    const port = Number(new URL(s.url).port);
    for (const method of ['POST', 'DELETE', 'PROPFIND']) {
      for (const target of ['/nope/nope/nope/nope', '/api/v2/posts', '/alice_dev/status/not-an-id/x']) {
        const res = await rawRequest(port, { method, target });
        assert.equal(res.status, 404, `${method} ${target}`);
        assert.equal(JSON.parse(res.body.toString()).code, 'route_not_found', `${method} ${target}`);
      }
    }
  });

  test('405 is decided before the body is read: an oversized body of an unknown type changes nothing', async () => {
    const res = await s.get(permalink(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-unknown' },
      body: Buffer.alloc(2 * 1024 * 1024, 97),
    });
    assert.equal(res.status, 405);
    assert.equal((await problemOf(res)).code, 'method_not_allowed');
  });

  test('OPTIONS answers 204 with Allow and CORS', async () => {
    const res = await s.get(permalink(), { method: 'OPTIONS', headers: { origin: 'https://example.org' } });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /GET/);
    assert.equal(await res.text(), '');
  });

  test('HEAD returns the GET headers and no body', async () => {
    // Identity coding: fetch decodes a compressed GET body, so only then does its length equal Content-Length.
    const identity = { 'accept-encoding': 'identity' };
    const get = await s.get(permalink(), { headers: identity });
    const getBody = await get.text();
    const head = await s.get(permalink(), { method: 'HEAD', headers: identity });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    for (const h of ['content-type', 'x-source', 'x-post-count', 'x-converter', 'vary', 'cache-control']) {
      assert.equal(head.headers.get(h), get.headers.get(h), h);
    }
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(getBody)));
  });
});

describe('unknown routes', () => {
  for (const path of [
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-authorization-server',
    '/api/v2/posts',
    '/nope/nope/nope/nope',
    '/favicon.ico',
    '/robots.txt',
    '/about',
  ]) {
    test(`${path} is route_not_found`, async () => {
      const res = await s.get(path);
      assert.equal(res.status, 404);
      const p = await problemOf(res);
      assert.equal(p.code, 'route_not_found');
      assert.equal(res.headers.get('www-authenticate'), null);
      assert.match(res.headers.get('link') ?? '', /docs\/reliability#route-not-found>; rel="help"/);
    });
  }
  test('POST to a reserved path is route_not_found, not 405', async () => {
    const res = await s.get('/about', { method: 'POST' });
    assert.equal(res.status, 404);
  });
});

describe('negotiation', () => {
  const cases: Array<[string | undefined, string]> = [
    [undefined, 'text/markdown'],
    ['*/*', 'text/markdown'],
    ['text/markdown', 'text/markdown'],
    ['application/json', 'application/json'],
    ['text/html', 'text/html'],
    ['text/html;q=0.5, application/json;q=0.9', 'application/json'],
    ['text/*', 'text/markdown'],
    ['application/xml, text/html;q=0.1', 'text/html'],
  ];
  for (const [accept, type] of cases) {
    test(`Accept ${accept ?? '(none)'} → ${type}`, async () => {
      const res = await s.get(permalink() + '?thread=off', { headers: accept ? { accept } : {} });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('content-type')?.startsWith(type), res.headers.get('content-type') ?? '');
      assert.match(res.headers.get('vary') ?? '', /Accept/);
    });
  }
  test('unsatisfiable Accept is 406 not_acceptable', async () => {
    for (const accept of ['image/png', 'application/xml', 'text/plain', 'application/json;q=0']) {
      const res = await s.get(permalink(), { headers: { accept } });
      assert.equal(res.status, 406, accept);
      assert.equal((await problemOf(res)).code, 'not_acceptable');
    }
  });
  test('format beats Accept', async () => {
    const res = await s.get(permalink() + '?format=json&thread=off', { headers: { accept: 'image/png' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const md = await s.get(permalink() + '?format=markdown&thread=off', { headers: { accept: 'application/json' } });
    assert.match(md.headers.get('content-type') ?? '', /^text\/markdown/);
  });
  test('problems are application/json when JSON was asked for', async () => {
    const res = await s.get('/api/v1/posts?format=json');
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const res2 = await s.get('/api/v1/posts', { headers: { accept: 'application/json' } });
    assert.match(res2.headers.get('content-type') ?? '', /^application\/json/);
    const res3 = await s.get('/api/v1/posts');
    assert.match(res3.headers.get('content-type') ?? '', /^application\/problem\+json/);
  });
});

describe('problem documents', () => {
  test('carry every member and no WWW-Authenticate, even with a bearer', async () => {
    const res = await s.get('/api/v1/posts', { headers: { authorization: 'Bearer nonsense' } });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get('www-authenticate'), null);
    const p = await problemOf(res);
    for (const k of ['type', 'title', 'status', 'code', 'detail', 'resolution', 'documentation_url']) {
      assert.ok(k in p, k);
    }
    assert.equal(p.code, 'missing_url');
    assert.equal(p.title, 'Missing url parameter');
    assert.equal(p.status, 400);
    assert.equal(p.documentation_url, `${TEST_BASE}/docs/reliability#missing-url`);
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });
});

describe('request ids', () => {
  test('a request the HTTP parser rejects gets its id from the one generator every answer uses', async () => {
    const port = Number(new URL(s.url).port);
    const rejected = await rawRequest(port, { method: 'GET', target: '/a b' });
    assert.equal(rejected.status, 400);
    const id = JSON.parse(rejected.body.toString('utf8')).request_id as string;
    const served = (await s.get('/healthz')).headers.get('x-request-id') ?? '';
    // The generator's ids share a per-process prefix (random per process, counted within it): both come from it.
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(id.slice(0, 24), served.slice(0, 24));
  });
});
