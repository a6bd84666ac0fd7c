// Hashtag and cashtag pages: named searches for `#tag` and `$SYMBOL` with the search route's feeds, paging,
// allowance and problems, their feeds, and every rendered #tag and $TAG linking to them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { TRANSLATED_HANDLES as TH, TRANSLATED_IDS as TI } from '../../sim/corpus-translations.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { mcpCall } from '../helpers/mcp.ts';
import { searchJsonSchema } from '../../src/contract/json-schemas.ts';

let s: Stack;
before(async () => {
  // Each request comes from an address of its own (behind the one trusted proxy hop): the pages' searches are
  // charged to search-ip like any search, and the allowance itself is tested on a stack of its own below.
  s = await startStack({ THREADMARK_TRUST_PROXY: '1' });
});
after(() => s.close());

let ipSeq = 0;
function get(path: string, init: RequestInit = {}): Promise<Response> {
  ipSeq++;
  const headers = { ...(init.headers as Record<string, string>), 'x-forwarded-for': `203.0.113.${ipSeq % 250}` };
  return s.get(path, { ...init, headers });
}

interface SearchBody {
  markdown: string;
  q: string;
  feed: string;
  nextCursor?: string;
  items: { kind: string; post: { id: string } }[];
}

const json = async (path: string) => {
  const res = await get(path, { headers: { accept: 'application/json' } });
  assert.equal(res.status, 200, `${path}: ${res.status}`);
  return (await res.json()) as SearchBody;
};
const ids = (b: SearchBody) => b.items.map((i) => i.post.id);

describe('hashtag and cashtag pages', () => {
  test('/hashtag/{tag} is the search for #tag, on both surfaces, and matches the search schema', async () => {
    const page = await json('/hashtag/caching?limit=5');
    const v1 = await json('/api/v1/hashtags/caching?limit=5');
    const search = await json(`/api/v1/search?q=${encodeURIComponent('#caching')}&limit=5`);
    assert.equal(page.q, '#caching');
    assert.ok(ids(page).length > 0);
    assert.deepEqual(ids(page), ids(search));
    assert.deepEqual(ids(v1), ids(search));
    assert.ok(searchJsonSchema.safeParse(page).success);
  });

  test('paging: Continue → stays on the tag page, names no q, and its cursor reads the next page', async () => {
    const res = await get('/hashtag/caching?limit=2');
    const md = await res.text();
    const next = /\[Continue →\]\(([^)]+)\)/.exec(md)?.[1];
    assert.ok(next, md);
    const url = new URL(next);
    assert.equal(url.origin + url.pathname, `${TEST_BASE}/hashtag/caching`);
    assert.equal(url.searchParams.get('q'), null);
    const first = await json('/hashtag/caching?limit=2');
    const second = await json(`/hashtag/caching?limit=2&cursor=${encodeURIComponent(url.searchParams.get('cursor')!)}`);
    assert.equal(second.items.length, 2);
    assert.ok(
      ids(second).every((id) => !ids(first).includes(id)),
      'the next page holds other posts',
    );
  });

  test('/cashtag/{symbol} searches the upper-case $SYMBOL; top works; users is no tag feed', async () => {
    const body = await json('/cashtag/tsla');
    assert.equal(body.q, '$TSLA');
    assert.deepEqual(ids(body), [TI.cashtags]);
    assert.equal((await json('/api/v1/cashtags/NVDA?feed=top')).feed, 'top');
    const users = await get('/hashtag/caching?feed=users');
    assert.equal(users.status, 400);
    assert.equal((await problemOf(users)).code, 'invalid_feed');
  });

  test('photos and videos are account-backed: 503 search_unavailable with Retry-After without sessions', async () => {
    const res = await get('/hashtag/caching?feed=photos');
    assert.equal(res.status, 503);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
    assert.equal((await problemOf(res)).code, 'search_unavailable');
  });

  test('every rendered #tag and $TAG links to its page here (posts, searches, feeds, HTML, Obsidian)', async () => {
    const post = await (await get(`/${TH.owen}/status/${TI.cashtags}?thread=off`)).text();
    assert.ok(post.includes(`[$TSLA](${TEST_BASE}/cashtag/TSLA)`), post);
    assert.ok(post.includes(`[#flashsale](${TEST_BASE}/hashtag/flashsale)`), post);
    const thread = await (await get(`/${HANDLES.alice}/status/${IDS.threadRoot}?thread=off`)).text();
    assert.ok(thread.includes(`[#caching](${TEST_BASE}/hashtag/caching)`), thread);
    assert.doesNotMatch(thread, /x\.com\/hashtag/);
    const html = await (await get(`/cashtag/TSLA`, { headers: { accept: 'text/html' } })).text();
    assert.ok(html.includes(`href="${TEST_BASE}/hashtag/flashsale"`), html);
    const feed = await (await get('/hashtag/flashsale/rss')).text();
    assert.ok(feed.includes(`${TEST_BASE}/cashtag/TSLA`), feed);
    // Obsidian keeps hashtags as the vault's own tags; a cashtag, which Obsidian has no notion of, links here.
    const note = await (await get(`/${TH.owen}/status/${TI.cashtags}?thread=off&format=obsidian`)).text();
    assert.ok(note.includes(`[\\$TSLA](${TEST_BASE}/cashtag/TSLA)`), note);
    assert.match(note, /(^|\s)#flashsale\b/m);
    assert.doesNotMatch(note, /x\.com\/(hashtag|search)/);
  });

  test('feeds: /hashtag/{tag}/rss and /api/v1/cashtags/{symbol}/feed?type=atom', async () => {
    const rss = await get('/hashtag/flashsale/rss');
    assert.equal(rss.status, 200);
    assert.match(rss.headers.get('content-type') ?? '', /^application\/rss\+xml/);
    const xml = await rss.text();
    assert.match(xml, /<title>#flashsale · latest<\/title>/);
    assert.ok(xml.includes(`<atom:link href="${TEST_BASE}/hashtag/flashsale/rss" rel="self"`), xml);
    assert.ok(xml.includes(`${TEST_BASE}/${TH.owen}/status/${TI.cashtags}`));
    const atom = await get('/api/v1/cashtags/TSLA/feed?type=atom');
    assert.equal(atom.status, 200);
    assert.match(atom.headers.get('content-type') ?? '', /^application\/atom\+xml/);
    assert.match(await atom.text(), /<title[^>]*>\$TSLA · latest<\/title>/);
  });

  test('the MCP tools search_hashtag and search_cashtag', async () => {
    const text = await mcpCall(s.url, 'search_cashtag', { symbol: 'TSLA' });
    assert.ok(text.includes(`${TH.owen}`), text);
    const tag = await mcpCall(s.url, 'search_hashtag', { tag: 'flashsale', limit: 1 });
    assert.ok(tag.includes('#flashsale'), tag);
  });
});

describe('bad tags: the exact problem, no upstream call', () => {
  const cases: [string, string][] = [
    [`/hashtag/${'a'.repeat(140)}`, 'invalid_hashtag'],
    ['/hashtag/foo-bar', 'invalid_hashtag'],
    ['/hashtag/%23caching', 'invalid_hashtag'],
    ['/hashtag/2026', 'invalid_hashtag'],
    ['/hashtag/caching%2F..%2F..%2Fetc', 'invalid_hashtag'],
    [`/api/v1/hashtags/${'a'.repeat(140)}`, 'invalid_hashtag'],
    ['/hashtag/foo!/rss', 'invalid_hashtag'],
    ['/cashtag/TOOLONGX', 'invalid_cashtag'],
    ['/cashtag/%24TSLA', 'invalid_cashtag'],
    ['/cashtag/T5LA', 'invalid_cashtag'],
    [`/api/v1/cashtags/${'A'.repeat(140)}/feed`, 'invalid_cashtag'],
  ];
  for (const [path, code] of cases) {
    test(`${path.length > 40 ? path.slice(0, 40) + '…' : path} → 400 ${code}`, async () => {
      s.sim.resetCalls();
      const res = await get(path);
      assert.equal(res.status, 400);
      const p = await problemOf(res);
      assert.equal(p.code, code);
      assert.equal(s.sim.calls(), 0);
    });
  }
  test('a tag in Unicode letters is a tag', async () => {
    const res = await get(`/hashtag/${encodeURIComponent('キャッシュ')}`);
    assert.equal(res.status, 200);
  });
});

describe('search allowance', () => {
  let fresh: Stack;
  before(async () => {
    fresh = await startStack();
  });
  after(() => fresh.close());

  test('live tag lookups are charged to search-ip (5 a minute), cached ones are not', async () => {
    const remaining = (res: Response) => /"search-ip";r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1];
    const first = await fresh.get('/hashtag/caching');
    assert.equal(first.status, 200);
    assert.equal(remaining(first), '4');
    const cached = await fresh.get('/hashtag/caching');
    assert.equal(cached.status, 200);
    for (const tag of ['a1', 'b2', 'c3', 'd4'])
      assert.equal((await fresh.get(`/cashtag/${tag.replace(/\d/, '')}X`)).status, 200);
    const denied = await fresh.get('/hashtag/one_more');
    assert.equal(denied.status, 429);
    assert.equal((await problemOf(denied)).code, 'rate_limited');
    assert.ok(Number(denied.headers.get('retry-after')) > 0);
  });
});
