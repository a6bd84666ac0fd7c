// Which URLs count as this service's own permalinks for oEmbed (pure; no server).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOembedTarget } from '../../src/http/present/oembed.ts';
import { isProblem } from '../../src/problems/problem.ts';

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return isProblem(e) ? e.code : 'not a problem';
  }
  return 'no error';
};

test('post and profile permalinks under the base URL', () => {
  const base = 'https://tm.example';
  assert.deepEqual(parseOembedTarget('https://tm.example/bob/status/123', base), {
    kind: 'post',
    handle: 'bob',
    id: '123',
  });
  assert.deepEqual(parseOembedTarget('http://TM.example/bob/', base), { kind: 'profile', handle: 'bob' });
  assert.deepEqual(parseOembedTarget('https://tm.example/bob?x=1#y', base), { kind: 'profile', handle: 'bob' });
});

test("X's handle-less shapes under the base URL: a post by id alone, an account by numeric id", () => {
  const base = 'https://tm.example';
  assert.deepEqual(parseOembedTarget('https://tm.example/i/status/123', base), { kind: 'post', id: '123' });
  assert.deepEqual(parseOembedTarget('https://tm.example/i/web/status/123/', base), { kind: 'post', id: '123' });
  assert.deepEqual(parseOembedTarget('https://tm.example/i/user/783214', base), {
    kind: 'profile',
    accountId: '783214',
  });
  for (const url of [
    'https://tm.example/i/status/abc',
    'https://tm.example/i/status',
    'https://tm.example/i/web/status/',
    'https://tm.example/i/user/123456789012345678901',
    'https://tm.example/i/lists/1',
    'https://tm.example/i/other/status/1',
    'https://x.com/i/status/123',
  ])
    assert.equal(
      code(() => parseOembedTarget(url, base)),
      'not_found',
      url,
    );
});

test('a base URL with a path prefix', () => {
  const base = 'https://host.example/tm';
  assert.deepEqual(parseOembedTarget('https://host.example/tm/bob/status/9', base), {
    kind: 'post',
    handle: 'bob',
    id: '9',
  });
  assert.equal(
    code(() => parseOembedTarget('https://host.example/bob/status/9', base)),
    'not_found',
  );
});

test('anything else is not ours', () => {
  const base = 'https://tm.example';
  for (const url of [
    'https://x.com/bob/status/1',
    'https://tm.example/',
    'https://tm.example/docs',
    'https://tm.example/api/v1/posts',
    'https://tm.example/bob/status/abc',
    'https://tm.example/bob/likes',
    'https://tm.example/@bob',
    'https://tm.example/a_handle_far_too_long',
    'ftp://tm.example/bob',
    'https://tm.example/%E0%A4%A',
  ]) {
    assert.equal(
      code(() => parseOembedTarget(url, base)),
      'not_found',
      url,
    );
  }
  assert.equal(
    code(() => parseOembedTarget('bob/status/1', base)),
    'invalid_url',
  );
});
