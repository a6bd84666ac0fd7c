// The Articles tab as a feed through the real server against the simulator: RSS on the permalink
// (/{handle}/articles/rss), RSS, Atom and JSON Feed on /api/v1/profiles/{handle}/articles/feed parsed by a feed parser,
// each Article whole in its item, validators and 304s, the feed filters, bad input, the page's feed discovery link,
// OpenAPI and llms.txt; then the same feed from an X-only deployment and the 503 when no provider serves it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAtomFeed, parseJsonFeed, parseRssFeed } from 'feedsmith';
import { XMLValidator } from 'fast-xml-parser';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';

const RSS_PATH = `/${HANDLES.alice}/articles/rss`;
const V1_PATH = `/api/v1/profiles/${HANDLES.alice}/articles/feed`;
const TITLE = 'A field guide to cache invalidation';
const HEADINGS = ['Why invalidation is hard', 'Three strategies', 'Rolling it out'];
const ITEM_URL = `${TEST_BASE}/${HANDLES.alice}/status/${IDS.article}`;

async function ok(s: Stack, path: string, init?: RequestInit): Promise<{ res: Response; text: string }> {
  const res = await s.get(path, init);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
  return { res, text };
}

async function expectProblem(s: Stack, path: string, code: string, status: number) {
  const res = await s.get(path);
  assert.equal(res.status, status, path);
  assert.equal((await problemOf(res)).code, code, path);
}

/** The feed's one item is the Article, whole: its title, and in its content the headings and list of its body. */
function assertArticleItem(item: { title?: string; link?: string; content?: string }) {
  assert.equal(item.title, TITLE);
  assert.equal(item.link, ITEM_URL);
  for (const heading of HEADINGS) assert.ok(item.content?.includes(heading), `the whole article: ${heading}`);
  assert.ok(item.content?.includes('Purge on write'));
}

describe('from FxTwitter', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());

  test('RSS on the permalink: the account, and one item per Article, rendered whole', async () => {
    const { res, text } = await ok(s, RSS_PATH);
    assert.match(res.headers.get('content-type') ?? '', /^application\/rss\+xml/);
    assert.equal(XMLValidator.validate(text), true);
    const feed = parseRssFeed(text);
    assert.equal(feed.title, 'Alice Developer (@alice_dev) · Articles');
    assert.equal(feed.link, `${TEST_BASE}/${HANDLES.alice}/articles`);
    assert.equal(feed.items?.length, 1);
    const item = feed.items[0]!;
    assertArticleItem({ title: item.title, link: item.link, content: item.content?.encoded ?? item.description });
    assert.ok(text.includes(`${TEST_BASE}${RSS_PATH}`), 'the self link');
  });

  test('v1: Atom and JSON Feed by `type`, each naming itself with its type', async () => {
    const atom = await ok(s, `${V1_PATH}?type=atom`);
    assert.match(atom.res.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    const a = parseAtomFeed(atom.text);
    assert.equal(a.entries?.length, 1);
    const entry = a.entries[0]!;
    assertArticleItem({ title: entry.title?.value, link: entry.links?.[0]?.href, content: entry.content?.value });
    assert.ok(a.links?.some((l) => l.rel === 'self' && l.href === `${TEST_BASE}${V1_PATH}?type=atom`));

    const json = await ok(s, `${V1_PATH}?type=json`);
    assert.match(json.res.headers.get('content-type') ?? '', /^application\/feed\+json/);
    const j = parseJsonFeed(JSON.parse(json.text));
    assert.equal(j.feed_url, `${TEST_BASE}${V1_PATH}?type=json`);
    assert.equal(j.items?.length, 1);
    const item = j.items[0]!;
    assertArticleItem({ title: item.title, link: item.url, content: item.content_html });

    const rss = await ok(s, V1_PATH);
    assert.match(rss.res.headers.get('content-type') ?? '', /^application\/rss\+xml/);
  });

  test('validators: strong ETag, Last-Modified, 304 without an upstream call', async () => {
    const first = await ok(s, RSS_PATH, { headers: { 'accept-encoding': 'identity' } });
    const etag = first.res.headers.get('etag')!;
    const lastModified = first.res.headers.get('last-modified')!;
    assert.match(etag, /^"[^"]+"$/);
    assert.equal(lastModified, parseRssFeed(first.text).items?.[0]?.pubDate);
    const calls = s.sim.calls();
    const byTag = await s.get(RSS_PATH, { headers: { 'if-none-match': etag, 'accept-encoding': 'identity' } });
    assert.equal(byTag.status, 304);
    assert.equal(await byTag.text(), '');
    const byDate = await s.get(RSS_PATH, { headers: { 'if-modified-since': lastModified } });
    assert.equal(byDate.status, 304);
    await byDate.arrayBuffer();
    assert.equal(s.sim.calls(), calls, 'no upstream call for either 304');
  });

  test('feed filters keep or drop the Article and name themselves in the self link; since_id polls', async () => {
    const kept = parseJsonFeed(JSON.parse((await ok(s, `${V1_PATH}?type=json&include=invalidation`)).text));
    assert.equal(kept.items?.length, 1);
    assert.equal(kept.feed_url, `${TEST_BASE}${V1_PATH}?type=json&include=invalidation`);
    const dropped = parseJsonFeed(JSON.parse((await ok(s, `${V1_PATH}?type=json&exclude=invalidation`)).text));
    assert.deepEqual(dropped.items ?? [], []);
    const popular = parseJsonFeed(JSON.parse((await ok(s, `${V1_PATH}?type=json&min_likes=100000000`)).text));
    assert.deepEqual(popular.items ?? [], []);
    const byAuthor = parseRssFeed((await ok(s, `${RSS_PATH}?title=author`)).text);
    assert.equal(byAuthor.items?.[0]?.title, `@${HANDLES.alice}: ${TITLE}`);
    const newer = parseRssFeed((await ok(s, `${RSS_PATH}?since_id=${IDS.article}`)).text);
    assert.deepEqual(newer.items ?? [], [], 'nothing newer than the Article');
    await expectProblem(s, `${RSS_PATH}?min_likes=-1`, 'invalid_filter', 400);
    await expectProblem(s, `${RSS_PATH}?since_id=abc`, 'invalid_since_id', 400);
    await expectProblem(s, `${V1_PATH}?type=pdf`, 'invalid_feed_option', 400);
  });

  test('bad input: a bad handle asks no upstream; an unknown account is 404; one without Articles is an empty feed', async () => {
    s.sim.resetCalls();
    await expectProblem(s, `/api/v1/profiles/no-such!/articles/feed`, 'invalid_handle', 400);
    assert.equal(s.sim.calls(), 0);
    await expectProblem(s, `/nobody_here_xyz/articles/rss`, 'not_found', 404);
    const empty = parseRssFeed((await ok(s, `/${HANDLES.bob}/articles/rss`)).text);
    assert.deepEqual(empty.items ?? [], []);
  });

  test('the tab page names its feed; OpenAPI and llms.txt describe both routes', async () => {
    const html = await (await s.get(`/${HANDLES.alice}/articles`, { headers: { accept: 'text/html' } })).text();
    assert.ok(html.includes(`href="${TEST_BASE}/alice_dev/articles/rss"`), 'feed discovery link');
    const openapi = (await (await s.get('/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const p of ['/api/v1/profiles/{handle}/articles/feed', '/{handle}/articles/rss']) {
      assert.ok(openapi.paths[p], p);
      assert.ok(JSON.stringify(openapi.paths[p]).includes('read_unavailable'), p);
    }
    const llms = await (await s.get('/llms.txt')).text();
    assert.ok(llms.includes('/articles/rss'));
  });
});

describe('from X with sessions only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-article-feeds-'));
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: writeSessions(dir, 'article-feeds') });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the feed is read through UserArticlesTweets, each Article whole from its TweetDetail', async () => {
    s.sim.resetCalls();
    const { text } = await ok(s, `${V1_PATH}?type=json`);
    const feed = parseJsonFeed(JSON.parse(text));
    assert.equal(feed.items?.length, 1);
    const item = feed.items[0]!;
    assertArticleItem({ title: item.title, link: item.url, content: item.content_html });
    assert.equal(s.sim.calls({ target: 'x', path: 'UserArticlesTweets' }), 1);
    assert.equal(s.sim.calls({ target: 'x', path: 'TweetDetail' }), 1);
  });
});

describe('with no provider that serves it', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'syndication' });
  });
  after(() => s.close());

  test('503 read_unavailable with Retry-After on both routes', async () => {
    for (const path of [RSS_PATH, V1_PATH]) {
      const res = await s.get(path);
      assert.equal(res.status, 503, path);
      assert.equal((await problemOf(res)).code, 'read_unavailable', path);
      assert.ok(Number(res.headers.get('retry-after')) > 0, path);
    }
  });
});
