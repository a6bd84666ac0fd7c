// The conditional-request hooks on a bare Fastify scope (routes that set their own validators, as the
// feeds do), and the entity-tag helpers.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { withConditionalRequests } from '../../../src/http/negotiation/conditional.ts';
import {
  codingOf,
  entityTagOf,
  mergeVary,
  noneMatchHit,
  parseIfNoneMatch,
  tagFor304,
  withCoding,
} from '../../../src/http/negotiation/entity-tags.ts';

const LAST_MODIFIED = 'Mon, 02 Mar 2026 09:00:00 GMT';
const FEED = 'x'.repeat(4000);

function feedApp() {
  const app = Fastify();
  withConditionalRequests(app, (scope) => {
    scope.get('/feed', async (_req, reply) => {
      reply.header('content-type', 'application/rss+xml; charset=utf-8');
      reply.header('etag', 'W/"feed-v7"');
      reply.header('last-modified', LAST_MODIFIED);
      return FEED;
    });
    scope.get('/plain', async (_req, reply) => {
      reply.header('content-type', 'text/markdown; charset=utf-8');
      return 'short';
    });
  });
  return app;
}

describe('routes with their own validators', () => {
  test('a route-set ETag is kept and honoured by If-None-Match', async () => {
    const app = feedApp();
    const first = await app.inject({ url: '/feed', headers: { 'accept-encoding': 'identity' } });
    assert.equal(first.headers.etag, 'W/"feed-v7"');
    const hit = await app.inject({
      url: '/feed',
      headers: { 'accept-encoding': 'identity', 'if-none-match': 'W/"feed-v7"' },
    });
    assert.equal(hit.statusCode, 304);
    assert.equal(hit.body, '');
    const gz = await app.inject({ url: '/feed', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers.etag, 'W/"feed-v7-gzip"');
    const gzHit = await app.inject({
      url: '/feed',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': 'W/"feed-v7-gzip"' },
    });
    assert.equal(gzHit.statusCode, 304);
    assert.equal(gzHit.headers.etag, 'W/"feed-v7-gzip"');
    await app.close();
  });

  test('If-Modified-Since against the route Last-Modified, ignored when If-None-Match is present', async () => {
    const app = feedApp();
    const h = { 'accept-encoding': 'identity' };
    assert.equal(
      (await app.inject({ url: '/feed', headers: { ...h, 'if-modified-since': LAST_MODIFIED } })).statusCode,
      304,
    );
    assert.equal(
      (await app.inject({ url: '/feed', headers: { ...h, 'if-modified-since': 'Sun, 01 Mar 2026 09:00:00 GMT' } }))
        .statusCode,
      200,
    );
    assert.equal(
      (await app.inject({ url: '/feed', headers: { ...h, 'if-modified-since': 'not a date' } })).statusCode,
      200,
    );
    const both = await app.inject({
      url: '/feed',
      headers: { ...h, 'if-modified-since': LAST_MODIFIED, 'if-none-match': '"other"' },
    });
    assert.equal(both.statusCode, 200);
    // A route without Last-Modified is never 304 on a date alone.
    assert.equal(
      (await app.inject({ url: '/plain', headers: { ...h, 'if-modified-since': LAST_MODIFIED } })).statusCode,
      200,
    );
    await app.close();
  });

  test('only GET and HEAD are conditional', async () => {
    const app = Fastify();
    withConditionalRequests(app, (scope) => {
      scope.post('/op', async () => 'done');
    });
    const res = await app.inject({ method: 'POST', url: '/op', headers: { 'if-none-match': '*' } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.etag, undefined);
    await app.close();
  });
});

describe('entity tags', () => {
  test('strong, quoted, deterministic', () => {
    assert.equal(entityTagOf('abc'), entityTagOf(Buffer.from('abc')));
    assert.notEqual(entityTagOf('abc'), entityTagOf('abd'));
    assert.match(entityTagOf(''), /^"[\w-]+"$/);
  });

  test('If-None-Match parsing', () => {
    assert.equal(parseIfNoneMatch(' * '), '*');
    assert.deepEqual(parseIfNoneMatch('"a", W/"b",,"c"'), ['"a"', 'W/"b"', '"c"']);
    assert.deepEqual(parseIfNoneMatch('unquoted'), []);
    assert.equal(noneMatchHit('"x", W/"a"', '"a"'), 'W/"a"');
    assert.equal(noneMatchHit('"a-br"', '"a"'), '"a-br"');
    assert.equal(noneMatchHit('"ab"', '"a"'), undefined);
  });

  test('coding suffixes', () => {
    assert.equal(withCoding('"a"', 'br'), '"a-br"');
    assert.equal(withCoding('"a"', 'identity'), '"a"');
    assert.equal(withCoding('"a-gzip"', 'br'), '"a-gzip"');
    assert.equal(codingOf('"a-gzip"'), 'gzip');
    assert.equal(tagFor304('"a"', '"a-br"'), '"a-br"');
    assert.equal(tagFor304('"a"', '*'), '"a"');
  });

  test('Vary merging', () => {
    assert.equal(mergeVary(undefined, 'Accept-Encoding'), 'Accept-Encoding');
    assert.equal(mergeVary('Accept, accept-encoding', 'Accept-Encoding'), 'Accept, Accept-Encoding');
    assert.equal(mergeVary('*', 'Accept-Encoding'), '*');
  });
});
