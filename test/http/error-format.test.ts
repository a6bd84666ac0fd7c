// One rule for the format of errors: without Accept (or with */*) every error is a problem document, a missing
// profile's as much as a missing post's; the Markdown or HTML recovery document of a missing profile is for
// requests that name Markdown or HTML. A problem's detail never opens with a provider's name: `source` names it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { readFileSync } from 'node:fs';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { ERROR_FORMAT_RULE, errorFormatRuleHtml } from '../../src/surface/error-format.ts';

let s: Stack;
before(async () => {
  s = await startStack({ THREADMARK_PROVIDERS: 'syndication,fxtwitter' });
});
after(() => s.close());

const PROVIDER_FIRST = /^(syndication|fxtwitter|x)\b/i;

test('without Accept a missing profile and a missing post answer the same problem document', async () => {
  for (const accept of [undefined, '*/*']) {
    const headers: Record<string, string> = accept ? { accept } : {};
    for (const path of [
      `/${HANDLES.missing}`,
      `/api/v1/profiles/${HANDLES.missing}`,
      `/${HANDLES.carol}/status/${IDS.deleted}`,
      `/api/v1/posts?handle=${HANDLES.carol}&id=${IDS.deleted}`,
    ]) {
      const res = await s.get(path, { headers });
      assert.equal(res.status, 404, path);
      assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8', `${path} ${accept}`);
      const p = await problemOf(res);
      assert.equal(p.code, 'not_found', path);
      assert.doesNotMatch(String(p.detail), PROVIDER_FIRST, `${path}: ${String(p.detail)}`);
    }
  }
});

test('a request naming Markdown or HTML gets the recovery document of a missing profile, with where to look next', async () => {
  for (const [headers, query, type] of [
    [{ accept: 'text/markdown' }, '', 'text/markdown'],
    [{ accept: 'text/html' }, '', 'text/html'],
    [{}, '?format=markdown', 'text/markdown'],
  ] as const) {
    const res = await s.get(`/${HANDLES.missing}${query}`, { headers });
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type') ?? '', new RegExp(`^${type}`));
    assert.match(await res.text(), /Where to look next/);
  }
  // A missing post stays a problem document whatever is asked: the contract allows recovery documents on profiles.
  const post = await s.get(`/${HANDLES.carol}/status/${IDS.deleted}`, { headers: { accept: 'text/markdown' } });
  assert.equal(post.status, 404);
  assert.match(post.headers.get('content-type') ?? '', /^application\/problem\+json/);
});

test("the provider that said so is a field of the problem, not its detail's subject", async () => {
  const res = await s.get(`/api/v1/posts?handle=${HANDLES.carol}&id=${IDS.deleted}`);
  const p = await problemOf(res);
  assert.equal(p.source, 'syndication');
  assert.doesNotMatch(String(p.detail), /syndication/);
  assert.match(String(p.detail), new RegExp(IDS.deleted));
});

test('the rule is stated once, word for word, in docs/api.md, llms.txt and /docs', async () => {
  const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  assert.ok(api.includes(ERROR_FORMAT_RULE), 'docs/api.md');
  assert.ok((await (await s.get('/llms.txt')).text()).includes(ERROR_FORMAT_RULE), 'llms.txt');
  assert.ok((await (await s.get('/docs')).text()).includes(errorFormatRuleHtml()), '/docs');
});

test('the problem of a missing profile or post says where to look next, in `see_also`', async () => {
  const profile = await problemOf(await s.get(`/api/v1/profiles/${HANDLES.missing}`));
  assert.deepEqual(profile.see_also, [
    {
      title: `Accounts named like ${HANDLES.missing}`,
      href: `${TEST_BASE}/search?q=${HANDLES.missing}&feed=users`,
    },
  ]);
  const post = await problemOf(await s.get(`/${HANDLES.carol}/status/${IDS.deleted}`));
  assert.deepEqual(
    (post.see_also as { href: string }[]).map((l) => l.href),
    [`${TEST_BASE}/${HANDLES.carol}`, `${TEST_BASE}/search?q=${HANDLES.carol}&feed=users`],
  );
});
