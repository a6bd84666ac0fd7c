// Feed filters through the real server against the simulator: each filter and combinations checked against the
// simulator's own posts, every feed route taking them, invalid values answered with invalid_filter, and the cache
// key and ETag differing per filter (with no extra upstream read for a filtered feed).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIST_IDS } from '../../sim/corpus-lists.ts';
import { parseJsonFeed, parseRssFeed } from 'feedsmith';
import { startStack, problemOf, type Stack, TEST_BASE } from '../helpers/stack.ts';
import { getCorpus, HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import type { SimPost } from '../../sim/corpus-types.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const THREAD = `/api/v1/posts/${IDS.threadRoot}/feed?type=json`;
const PROFILE = `/api/v1/profiles/${HANDLES.alice}/feed?type=json`;

interface Item {
  id: string;
  title: string;
  post: SimPost;
}

async function items(path: string): Promise<{ items: Item[]; etag: string; self: string | undefined }> {
  const res = await s.get(path, { headers: { 'accept-encoding': 'identity' } });
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
  const feed = parseJsonFeed(text);
  const corpus = getCorpus();
  return {
    etag: res.headers.get('etag')!,
    self: feed.feed_url,
    items: (feed.items ?? []).map((i) => {
      const id = (i.url ?? '').split('/').pop()!;
      const post = corpus.posts.get(id);
      assert.ok(post, `item ${id} is a simulator post`);
      return { id, title: i.title ?? '', post };
    }),
  };
}

const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * The test's own reading of "whole word, case-insensitive, on the text and the alt texts" (an Article post's text
 * is its article's title and preview).
 */
function mentions(p: SimPost, term: string): boolean {
  const alts = p.media.flatMap((m) => ('alt' in m && m.alt ? [m.alt] : []));
  const hay = [p.text, p.article?.title ?? '', p.article?.previewText ?? '', ...alts].join('\n');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${esc(term)}(?![\\p{L}\\p{N}_])`, 'iu').test(hay);
}

const sep = (path: string) => (path.includes('?') ? '&' : '?');

/** The filtered feed is exactly the unfiltered feed's items that the predicate keeps, in the same order. */
async function expectFilter(base: string, query: string, keep: (p: SimPost) => boolean, nonEmpty = true) {
  const all = await items(base);
  const got = await items(`${base}${sep(base)}${query}`);
  const want = all.items.filter((i) => keep(i.post)).map((i) => i.id);
  assert.deepEqual(
    got.items.map((i) => i.id),
    want,
    `${query} on ${base}`,
  );
  if (nonEmpty) assert.ok(want.length > 0 && want.length < all.items.length, `${query} is a real test on ${base}`);
  return got;
}

describe('feed filter matrix', () => {
  for (const base of [THREAD, PROFILE]) {
    test(`each filter on ${base}`, async () => {
      await expectFilter(base, 'include=caching', (p) => mentions(p, 'caching'));
      await expectFilter(base, 'include=CACHING', (p) => mentions(p, 'caching'));
      await expectFilter(base, 'exclude=caching', (p) => !mentions(p, 'caching'));
      await expectFilter(base, 'media=only', (p) => p.media.length > 0);
      await expectFilter(base, 'media=none', (p) => p.media.length === 0);
      await expectFilter(base, 'min_likes=50', (p) => p.likes >= 50);
      await expectFilter(base, 'min_reposts=5', (p) => p.reposts >= 5);
      await expectFilter(base, 'lang=en', (p) => p.lang === 'en', false);
      await expectFilter(base, 'lang=de,fr', () => false, false);
    });
  }

  test('words are whole words; phrases, alt texts and link targets match', async () => {
    // "cache" is not "caching" nor "caches".
    await expectFilter(THREAD, 'include=cache', (p) => mentions(p, 'cache'));
    await expectFilter(THREAD, `include=${encodeURIComponent('"TTL needs jitter"')}`, (p) =>
      mentions(p, 'ttl needs jitter'),
    );
    const diagram = await expectFilter(THREAD, 'include=diagram', (p) => mentions(p, 'diagram'));
    assert.deepEqual(
      diagram.items.map((i) => i.id),
      [IDS.threadPhoto],
      'only the alt text says diagram',
    );
    const links = await expectFilter(THREAD, 'include=example.com', (p) => p.text.includes('https://example.com/'));
    assert.equal(links.items.length, 2);
    // Two terms: either one keeps a post.
    await expectFilter(THREAD, 'include=poll,diagram', (p) => mentions(p, 'poll') || mentions(p, 'diagram'));
  });

  test('combinations narrow together', async () => {
    await expectFilter(
      THREAD,
      `include=lesson&exclude=${encodeURIComponent('ttl "stale-if-error"')}&min_likes=60`,
      (p) => mentions(p, 'lesson') && !mentions(p, 'ttl') && !mentions(p, 'stale-if-error') && p.likes >= 60,
    );
    await expectFilter(PROFILE, 'media=none&min_likes=20&exclude=threadmark', (p) => {
      return p.media.length === 0 && p.likes >= 20 && !mentions(p, 'threadmark');
    });
  });

  test('title=author names the author in every title, and changes nothing else', async () => {
    const plain = await items(THREAD);
    const byAuthor = await items(`${THREAD}&title=author`);
    assert.deepEqual(
      byAuthor.items.map((i) => i.id),
      plain.items.map((i) => i.id),
    );
    const corpus = getCorpus();
    byAuthor.items.forEach((it, n) => {
      const handle = corpus.users.get(it.post.authorId)!.handle;
      // The author takes room from the text: a long title is clipped sooner.
      assert.ok(it.title.startsWith(`@${handle}: `), it.title);
      const rest = it.title.slice(handle.length + 3);
      assert.ok(plain.items[n]!.title.startsWith(rest.replace(/…$/, '')), `${it.title} / ${plain.items[n]!.title}`);
    });
  });

  test('every feed route takes the filters', async () => {
    const routes = [
      `/${HANDLES.alice}/rss`,
      `/${HANDLES.alice}/media/rss`,
      `/${HANDLES.alice}/with_replies/rss`,
      `/${HANDLES.alice},${HANDLES.carol}/rss`,
      `/search/rss?q=${SEARCH_TERMS.caching}`,
      `/api/v1/search/feed?q=${SEARCH_TERMS.caching}`,
      `/i/lists/1900000000000090001/rss`,
      `/api/v1/lists/1900000000000090001/feed`,
      `/${HANDLES.alice}/status/${IDS.threadRoot}/rss`,
    ];
    for (const route of routes) {
      const bad = await s.get(`${route}${sep(route)}media=some`);
      assert.equal(bad.status, 400, route);
      assert.equal((await problemOf(bad)).code, 'invalid_filter', route);
      const res = await s.get(`${route}${sep(route)}include=caching&title=author`);
      const text = await res.text();
      if (res.status === 503) continue; // account-backed lists need an X session, which this stack has not
      assert.equal(res.status, 200, `${route}: ${text.slice(0, 200)}`);
      const feed = parseRssFeed(text);
      assert.match(feed.atom?.links?.find((l) => l.rel === 'self')?.href ?? '', /include=caching&title=author/);
      for (const it of feed.items ?? []) {
        assert.match(it.title ?? '', /^(@\w+: |↻ )/, `${route}: ${it.title}`);
        assert.match(it.description ?? '', /caching/i, `${route}: ${it.title}`);
      }
    }
  });
});

describe('invalid filters', () => {
  const cases: Array<[string, RegExp]> = [
    ['include=', /no word or phrase/],
    ['include=%20%2C%20', /no word or phrase/],
    [`include=${encodeURIComponent('"unclosed phrase')}`, /not closed/],
    [`include=${encodeURIComponent('""')}`, /empty/],
    [`include=${Array.from({ length: 21 }, (_, i) => `w${i}`).join('+')}`, /more than 20 terms/],
    [`exclude=${'x'.repeat(101)}`, /longer than 100/],
    [`exclude=${'x '.repeat(600)}`, /`exclude`/],
    ['include=a&include=b', /`include`/],
    ['include=Cache&exclude=cache', /both in `include` and in `exclude`/],
    ['media=some', /`media`/],
    ['media=', /`media`/],
    ['min_likes=-1', /`min_likes`/],
    ['min_likes=1.5', /`min_likes`/],
    ['min_likes=lots', /`min_likes`/],
    ['min_reposts=1e3', /`min_reposts`/],
    ['min_reposts=9999999999', /`min_reposts`/],
    ['lang=english!', /not a language tag/],
    ['lang=', /not a language tag/],
    [`lang=${Array.from({ length: 11 }, (_, i) => `a${String.fromCharCode(97 + i)}`).join(',')}`, /more than 10/],
    ['title=bold', /`title`/],
  ];
  for (const [query, detail] of cases) {
    test(`${query.slice(0, 60)} is 400 invalid_filter`, async () => {
      for (const base of [`/${HANDLES.alice}/rss`, THREAD]) {
        const res = await s.get(`${base}${sep(base)}${query}`);
        assert.equal(res.status, 400, `${base} ${query}`);
        assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
        const p = await problemOf(res);
        assert.equal(p.code, 'invalid_filter');
        assert.equal(p.title, 'Invalid feed filter');
        assert.match(String(p.detail), detail);
        assert.match(String(p.type), /\/docs\/reliability#invalid-filter$/);
      }
    });
  }

  test('invalid_filter is documented on /docs/reliability and in OpenAPI', async () => {
    const page = await (await s.get('/docs/reliability')).text();
    assert.match(page, /invalid_filter/);
    assert.match(page, /Invalid feed filter/);
    const doc = JSON.stringify(await (await s.get('/openapi.json')).json());
    assert.match(doc, /invalid_filter/);
  });
});

describe('filters in the cache key and the ETag', () => {
  test('each filter is its own feed: distinct ETags and self links; equal filters share them', async () => {
    const variants = [
      '',
      'include=caching',
      'exclude=caching',
      'media=only',
      'media=none',
      'min_likes=0',
      'min_likes=50',
      'min_reposts=0',
      'lang=en',
      'title=author',
      'title=text',
      'include=caching&title=author',
    ];
    const etags = new Map<string, string>();
    const selves = new Map<string, string>();
    for (const v of variants) {
      const got = await items(v ? `${THREAD}&${v}` : THREAD);
      etags.set(v, got.etag);
      selves.set(v, got.self ?? '');
    }
    assert.equal(new Set(etags.values()).size, variants.length, 'one ETag per filter, even when the items agree');
    assert.equal(new Set(selves.values()).size, variants.length);
    assert.equal(selves.get('min_likes=0'), `${TEST_BASE}/api/v1/posts/${IDS.threadRoot}/feed?type=json&min_likes=0`);

    // Spelling does not make a new feed: case and separators are normalised.
    const a = await items(`${THREAD}&include=Caching,Poll`);
    const b = await items(`${THREAD}&include=caching%20%20poll`);
    assert.equal(a.etag, b.etag);
    assert.equal(a.self, b.self);
  });

  test("a filtered feed answers 304 to its own ETag, 200 to the unfiltered feed's, and reads nothing more upstream", async () => {
    const path = `/${HANDLES.alice}/rss`;
    const plain = await s.get(path, { headers: { 'accept-encoding': 'identity' } });
    await plain.arrayBuffer();
    const calls = s.sim.calls();
    const filtered = `${path}?exclude=caching&media=none`;
    const first = await s.get(filtered, { headers: { 'accept-encoding': 'identity' } });
    await first.arrayBuffer();
    assert.equal(first.status, 200);
    assert.equal(s.sim.calls(), calls, 'a filter is applied to the cached read');
    const same = await s.get(filtered, {
      headers: { 'if-none-match': first.headers.get('etag')!, 'accept-encoding': 'identity' },
    });
    assert.equal(same.status, 304);
    const other = await s.get(filtered, {
      headers: { 'if-none-match': plain.headers.get('etag')!, 'accept-encoding': 'identity' },
    });
    assert.equal(other.status, 200);
    await other.arrayBuffer();
  });
});

describe('filters on the matching list reads', () => {
  interface PostJson {
    id: string;
  }
  async function json<T>(path: string): Promise<T> {
    const res = await s.get(path);
    const text = await res.text();
    assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
  const corpusPost = (id: string) => getCorpus().posts.get(id)!;

  test('profile: each page keeps only the posts the filters keep, and Continue keeps the filters', async () => {
    const base = `/api/v1/profiles/${HANDLES.alice}?format=json`;
    const all = await json<{ posts: PostJson[] }>(base);
    for (const [query, keep] of [
      ['include=caching', (p: SimPost) => mentions(p, 'caching')],
      ['exclude=caching&media=none', (p: SimPost) => !mentions(p, 'caching') && p.media.length === 0],
      ['min_likes=50', (p: SimPost) => p.likes >= 50],
      ['lang=de', () => false],
    ] as const) {
      const got = await json<{ posts: PostJson[] }>(`${base}&${query}`);
      assert.deepEqual(
        got.posts.map((p) => p.id),
        all.posts.map((p) => p.id).filter((id) => keep(corpusPost(id))),
        query,
      );
    }
    const md = await (await s.get(`/${HANDLES.alice}?include=caching&limit=3`)).text();
    const next = /\[Continue →\]\(([^)]+)\)/.exec(md)?.[1];
    assert.ok(next?.includes('include=caching'), next);
    const page2 = await s.get(next!.replace(TEST_BASE, ''));
    assert.equal(page2.status, 200, 'the cursor goes on with the filters');
    await page2.arrayBuffer();
  });

  test('search: posts filtered, the same upstream page read', async () => {
    const base = `/api/v1/search?q=${SEARCH_TERMS.caching}&format=json`;
    const all = await json<{ items: Array<{ kind: string; post?: PostJson }> }>(base);
    const calls = s.sim.calls();
    const got = await json<{ items: Array<{ kind: string; post?: PostJson }> }>(`${base}&media=only`);
    assert.equal(s.sim.calls(), calls, 'no extra upstream read');
    const ids = (r: typeof all) => r.items.flatMap((i) => (i.post ? [i.post.id] : []));
    const want = ids(all).filter((id) => corpusPost(id).media.length > 0);
    assert.ok(want.length > 0 && want.length < ids(all).length);
    assert.deepEqual(ids(got), want);
  });

  test('bad filters are 400 invalid_filter on the list reads too', async () => {
    for (const path of [
      `/${HANDLES.alice}?min_likes=x`,
      `/api/v1/profiles/${HANDLES.alice}?include=${encodeURIComponent('"open')}`,
      `/api/v1/search?q=${SEARCH_TERMS.caching}&media=some`,
      `/search?q=${SEARCH_TERMS.caching}&include=a&exclude=A`,
    ]) {
      const res = await s.get(path);
      assert.equal(res.status, 400, path);
      assert.equal((await problemOf(res)).code, 'invalid_filter', path);
    }
    const title = await s.get(`/api/v1/profiles/${HANDLES.alice}?title=author`);
    await title.arrayBuffer();
    assert.equal(title.status, 200, 'title is a feed option: a list read ignores unknown parameters as before');
  });
});

describe('filters through MCP', () => {
  async function call(args: Record<string, unknown>): Promise<{ text: string; isError?: boolean }> {
    const res = await s.get('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'read_profile', arguments: args },
      }),
    });
    const body = (await res.json()) as { result: { content: Array<{ text: string }>; isError?: boolean } };
    return { text: body.result.content[0]!.text, isError: body.result.isError };
  }

  test('read_profile takes the filters; a bad one is the invalid_filter problem', async () => {
    const all = await call({ handle: HANDLES.alice });
    const kept = await call({ handle: HANDLES.alice, min_likes: 100 });
    const headings = (md: string) => md.split('\n').filter((l) => l.startsWith('### ')).length;
    assert.ok(headings(kept.text) > 0 && headings(kept.text) < headings(all.text), kept.text.slice(0, 400));
    const bad = await call({ handle: HANDLES.alice, media: 'sometimes' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /invalid_filter/);
  });
});

describe('filters on X Lists (with sessions)', () => {
  let x: Stack;
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-filters-'));
  let ip = 0;
  // Each request its own address: list reads are charged to the account pool per address.
  const caller = () => ({ headers: { 'x-forwarded-for': `10.55.0.${++ip}`, 'accept-encoding': 'identity' } });
  before(async () => {
    const sessions = join(dir, 'sessions.jsonl');
    writeFileSync(
      sessions,
      JSON.stringify({ username: 'f1', auth_token: 'filters_tok_1', ct0: 'filters_ct0_1' }) + '\n',
    );
    x = await startStack({
      THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
      THREADMARK_X_SESSIONS: sessions,
      THREADMARK_TRUST_PROXY: 'true',
    });
  });
  after(async () => {
    await x.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function ids(path: string): Promise<string[]> {
    const res = await x.get(path, caller());
    const text = await res.text();
    assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
    if (path.includes('/feed') || path.endsWith('/rss') || path.includes('/rss?'))
      return (parseJsonFeed(text).items ?? []).map((i) => (i.url ?? '').split('/').pop()!);
    // A repost is judged by the post it shows.
    const posts = (JSON.parse(text) as { posts: Array<{ id: string; repostOf?: { id: string } }> }).posts ?? [];
    return posts.map((p) => p.repostOf?.id ?? p.id);
  }

  test('the list read and the list feed keep only the filtered posts', async () => {
    const post = (id: string) => getCorpus().posts.get(id)!;
    const read = `/api/v1/lists/${LIST_IDS.caching}?format=json`;
    const all = await ids(read);
    const kept = await ids(`${read}&min_likes=20`);
    const want = all.filter((id) => post(id).likes >= 20);
    assert.ok(want.length > 0 && want.length < all.length, 'a real test');
    assert.deepEqual(kept, want);

    const feed = `/api/v1/lists/${LIST_IDS.caching}/feed?type=json`;
    const feedAll = await ids(feed);
    const feedKept = await ids(`${feed}&media=none&min_likes=20`);
    assert.deepEqual(
      feedKept,
      feedAll.filter((id) => post(id).media.length === 0 && post(id).likes >= 20),
    );
    assert.ok(feedKept.length > 0);
  });

  test('members take no post filters; a bad filter on the list posts is 400 invalid_filter', async () => {
    const bad = await x.get(`/i/lists/${LIST_IDS.caching}?lang=1`, caller());
    assert.equal(bad.status, 400);
    assert.equal((await problemOf(bad)).code, 'invalid_filter');
    const doc = (await (await x.get('/openapi.json')).json()) as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }>;
    };
    const names = (path: string) => (doc.paths[path]?.get?.parameters ?? []).map((p) => p.name);
    assert.ok(names('/api/v1/lists/{id}').includes('include'));
    assert.ok(!names('/api/v1/lists/{id}/members').includes('include'));
  });
});
