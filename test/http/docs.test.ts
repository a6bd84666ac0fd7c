// /docs, /docs/reliability and /docs/versioning: generated HTML that covers every route and every error code; the
// guides of docs/*.md served beside them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack, TEST_BASE } from '../helpers/stack.ts';
import { PUBLIC_ROUTES } from '../../src/route-table.ts';
import { CATALOG, anchorFor } from '../../src/problems/catalog.ts';
import { esc } from '../../src/surface/docs/html.ts';
import { GUIDES, guidePath } from '../../src/surface/docs/guide-pages.ts';
import { readFileSync } from 'node:fs';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

async function html(path: string): Promise<string> {
  const res = await s.get(path);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(text, /^<!doctype html>\n<html lang="en">/);
  assert.ok(!/<script/i.test(text), 'no scripts');
  assert.equal(
    (text.match(/<section/g) ?? []).length,
    (text.match(/<\/section>/g) ?? []).length,
    'sections are closed',
  );
  return text;
}

function ids(page: string): Set<string> {
  return new Set([...page.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));
}

describe('/docs', () => {
  test('documents every declared route with its parameters and a curl example', async () => {
    const page = await html('/docs');
    for (const { decl } of PUBLIC_ROUTES) {
      assert.ok(page.includes(`<code>GET ${esc(decl.path)}</code>`), decl.path);
      assert.ok(ids(page).has(`route-${decl.operationId}`), decl.operationId);
    }
    assert.ok(page.includes('<code>thread</code>'), 'parameter rows');
    assert.ok(page.includes(esc(`curl -s '${TEST_BASE}/api/v1/posts?url=`)), 'curl example');
    assert.ok(page.includes(esc(`${TEST_BASE}/api/v1/search?q=caching`)), 'search example uses q');
    for (const id of ['quick-start', 'routes', 'paging', 'authentication']) assert.ok(ids(page).has(id), id);
  });

  test('error links of each route land on reliability anchors', async () => {
    const page = await html('/docs');
    const reliability = ids(await html('/docs/reliability'));
    const targets = [...page.matchAll(/href="[^"]*\/docs\/reliability#([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(targets.length > 20);
    for (const t of targets) assert.ok(reliability.has(t), t);
  });
});

describe('/docs/reliability', () => {
  test('has an anchor with status, title and resolution for every catalog code', async () => {
    const page = await html('/docs/reliability');
    const anchors = ids(page);
    for (const [code, entry] of Object.entries(CATALOG)) {
      assert.ok(anchors.has(anchorFor(code)), code);
      const section = page.slice(page.indexOf(`id="${anchorFor(code)}"`)).split('</section>')[0]!;
      assert.ok(section.includes(`${entry.status} ${esc(entry.title)}`), `${code} title`);
      assert.ok(section.includes(esc(entry.resolution).replace(/`([^`]+)`/g, '<code>$1</code>')), `${code} resolution`);
    }
    for (const code of ['fxtwitter_error', 'syndication_empty', 'fxtwitter_network', 'all_providers_failed']) {
      assert.ok(anchors.has(anchorFor(code)), code);
    }
    assert.ok(anchors.has('invalid-thread'));
  });

  test("a real problem's type URI points at an anchor of this page", async () => {
    const res = await s.get('/api/v1/posts?url=https://x.com/a/status/1&thread=bogus');
    assert.equal(res.status, 400);
    const problem = (await res.json()) as { type: string; code: string };
    assert.equal(problem.code, 'invalid_thread');
    const url = new URL(problem.type);
    assert.equal(`${url.origin}${url.pathname}`, `${TEST_BASE}/docs/reliability`);
    assert.ok(ids(await html(url.pathname)).has(url.hash.slice(1)));
  });
});

describe('/docs/versioning', () => {
  test('states the policy and the deprecation table', async () => {
    const page = await html('/docs/versioning');
    for (const needle of [
      '/api/convert',
      '/api/browse',
      '2026-09-15',
      '2027-09-15',
      '/api/v1/posts',
      'resource=search',
      '@1789430400',
      'Wed, 15 Sep 2027 00:00:00 GMT',
      '12 months',
    ]) {
      assert.ok(page.includes(esc(needle)), needle);
    }
  });

  test('the deprecation Link headers of the legacy aliases point at it', async () => {
    const res = await s.get('/api/convert');
    const link = res.headers.get('link') ?? '';
    const m = /<([^>]+)>; rel="deprecation"/.exec(link);
    assert.ok(m, link);
    const target = new URL(m[1]!);
    assert.equal(`${target.origin}`, TEST_BASE);
    await html(target.pathname);
  });
});

describe('/docs/<guide>: the guides of docs/*.md', () => {
  test('each guide is served under /docs and linked from the index', async () => {
    const index = await html('/docs');
    for (const guide of GUIDES) {
      const path = guidePath(guide.slug);
      assert.ok(index.includes(`href="${TEST_BASE}${path}"`), `${path} linked from /docs`);
      const page = await html(path);
      assert.ok(page.includes(`<title>${esc(guide.title)} · threadmark</title>`), path);
      const source = readFileSync(new URL(`../../docs/${guide.slug}.md`, import.meta.url), 'utf8');
      const heading = /^# (.+)$/m.exec(source)?.[1];
      assert.ok(heading && page.includes(`>${esc(heading)}</h1>`), `${path} renders docs/${guide.slug}.md`);
    }
  });

  test("examples name this deployment's base URL, and links between guides stay on /docs", async () => {
    const page = await html('/docs/api');
    assert.ok(!page.includes('http://localhost:8080'), 'the example base is replaced');
    assert.ok(page.includes(`B=${TEST_BASE}`));
    assert.ok(page.includes(`href="${TEST_BASE}/docs/feeds"`), 'feeds.md links to /docs/feeds');
    assert.ok(!/href="[a-z-]+\.md/.test(page), 'no link to a Markdown file is left');
    assert.ok(ids(page).has('behaviour-worth-knowing'), 'headings carry anchors');
  });

  test('no raw HTML from the Markdown reaches the page', async () => {
    for (const guide of GUIDES) assert.ok(!/<script|<iframe/i.test(await html(guidePath(guide.slug))), guide.slug);
  });
});
