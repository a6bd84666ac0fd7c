// Date windows on the feeds (profile and search, permalink and versioned): since ≤ time < until, read straight away
// through X search, with the edges exact (to the second, as X search operators count); a bad or reversed window is
// 400 invalid_date.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getCorpus, HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';

const corpus = getCorpus();
const iso = (ms: number) => new Date(ms).toISOString();
/** A post's time as the simulator holds it. */
const at = (id: string) => corpus.posts.get(id)!.createdAt;

let ipSeq = 0;
/** Each request from its own address: windowed feeds are live search lookups, charged per address. */
const fresh = (extra: Record<string, string> = {}): RequestInit => ({
  headers: { 'x-forwarded-for': `10.41.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`, ...extra },
});

interface JsonFeed {
  title: string;
  feed_url: string;
  items: Array<{ id: string; url: string; date_published: string }>;
}

/** The status ids of a JSON Feed's items, in feed order. */
const idsOf = (f: JsonFeed) => f.items.map((i) => /\/status\/(\d+)/.exec(i.url)![1]!);

describe('date windows on feeds', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_TRUST_PROXY: 'true' });
  });
  after(() => s.close());

  async function jsonFeed(path: string): Promise<JsonFeed> {
    const res = await s.get(path, fresh());
    const text = await res.text();
    assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as JsonFeed;
  }

  test("profile feed: since is inclusive and until exclusive, at a post's own time", async () => {
    // The thread's 2/12 .. 4/12: a window from 2/12's instant to 4/12's instant holds 2/12 and 3/12, not 4/12.
    const [from, mid, to] = [IDS.threadPhoto, IDS.threadPoll, IDS.threadVideo];
    const path = `/api/v1/profiles/${HANDLES.alice}/feed?type=json&since=${iso(at(from))}&until=${iso(at(to))}`;
    const feed = await jsonFeed(path);
    const ids = idsOf(feed);
    assert.ok(ids.includes(from), 'since is inclusive');
    assert.ok(ids.includes(mid));
    assert.ok(!ids.includes(to), 'until is exclusive');
    for (const i of feed.items) {
      const t = Date.parse(i.date_published);
      assert.ok(t >= at(from) && t < at(to), i.date_published);
    }
    assert.match(feed.title, / · from 2026-03-0\dT\S+ to before 2026-03-0\dT\S+$/);
    assert.ok(feed.feed_url.includes(`since=${encodeURIComponent(iso(at(from)))}`), feed.feed_url);
    // X search operators count whole seconds: a second later the first post falls out and the last one comes in.
    const shifted = idsOf(
      await jsonFeed(
        `/api/v1/profiles/${HANDLES.alice}/feed?type=json&since=${iso(at(from) + 1000)}&until=${iso(at(to) + 1000)}`,
      ),
    );
    assert.ok(!shifted.includes(from));
    assert.ok(shifted.includes(to));
  });

  test('the RSS permalinks take the window too (posts, media, merged accounts)', async () => {
    const since = iso(at(IDS.threadRoot));
    const until = iso(at(IDS.threadLast) + 1);
    for (const path of [
      `/${HANDLES.alice}/rss`,
      `/${HANDLES.alice}/media/rss`,
      `/${HANDLES.alice},${HANDLES.bob}/rss`,
    ]) {
      const res = await s.get(`${path}?since=${since}&until=${until}`, fresh());
      assert.equal(res.status, 200, path);
      const xml = await res.text();
      assert.ok(xml.includes(`${TEST_BASE}${path}?since=`), `${path}: self link keeps the window`);
      for (const [, date] of xml.matchAll(/<pubDate>([^<]+)<\/pubDate>/g)) {
        const t = Date.parse(date!);
        // RSS dates have whole seconds.
        assert.ok(t >= Date.parse(since) - 999 && t < Date.parse(until), `${path}: ${date}`);
      }
    }
    const windowed = await (await s.get(`/${HANDLES.alice}/rss?since=${since}&until=${until}`, fresh())).text();
    assert.equal((windowed.match(/<item>/g) ?? []).length, 12, "alice's 12-post thread, nothing else");
  });

  test('search feed: the window is read as X search operators', async () => {
    const feed = await jsonFeed(
      `/api/v1/search/feed?q=${SEARCH_TERMS.caching}&type=json&since=2026-02-25&until=2026-03-01`,
    );
    assert.ok(feed.items.length > 0);
    for (const i of feed.items) {
      const t = Date.parse(i.date_published);
      assert.ok(t >= Date.UTC(2026, 1, 25) && t < Date.UTC(2026, 2, 1), i.date_published);
    }
    const rss = await s.get(`/search/rss?q=${SEARCH_TERMS.caching}&until=2026-02-20`, fresh());
    assert.equal(rss.status, 200);
    for (const [, date] of (await rss.text()).matchAll(/<pubDate>([^<]+)<\/pubDate>/g))
      assert.ok(Date.parse(date!) < Date.UTC(2026, 1, 20), date);
  });

  test('a windowed feed is a live search lookup: charged to search-ip', async () => {
    const res = await s.get(`/${HANDLES.bob}/rss?until=2026-03-10`, fresh());
    assert.equal(res.status, 200);
    assert.match(res.headers.get('ratelimit') ?? '', /"search-ip";r=4;/);
    const plain = await s.get(`/${HANDLES.bob}/rss`, fresh());
    assert.doesNotMatch(plain.headers.get('ratelimit') ?? '', /search-ip/);
  });

  test('bad windows: unparseable, impossible or reversed is 400 invalid_date on every feed route', async () => {
    const feeds = [
      `/${HANDLES.alice}/rss?`,
      `/${HANDLES.alice}/with_replies/rss?`,
      `/api/v1/profiles/${HANDLES.alice}/feed?`,
      `/search/rss?q=${SEARCH_TERMS.caching}&`,
      `/api/v1/search/feed?q=${SEARCH_TERMS.caching}&`,
    ];
    const bad = [
      'since=yesterday',
      'until=2026-02-30',
      'since=2026-03-02&until=2026-03-01',
      'since=2026-03-01&until=2026-03-01',
    ];
    for (const f of feeds) {
      for (const w of bad) {
        const res = await s.get(`${f}${w}`, fresh());
        assert.equal(res.status, 400, `${f}${w}`);
        const p = await problemOf(res);
        assert.equal(p.code, 'invalid_date', `${f}${w}`);
      }
    }
  });

  test('the window is declared on the feed routes (OpenAPI)', async () => {
    const doc = (await (await s.get('/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: Array<{ name: string }>; responses: Record<string, unknown> } }>;
    };
    for (const path of ['/{handle}/rss', '/api/v1/profiles/{handle}/feed', '/search/rss', '/api/v1/search/feed']) {
      const names = doc.paths[path]!.get.parameters.map((p) => p.name);
      assert.ok(names.includes('since') && names.includes('until'), path);
      assert.ok(JSON.stringify(doc.paths[path]!.get.responses['400']).includes('invalid_date'), path);
    }
  });
});
