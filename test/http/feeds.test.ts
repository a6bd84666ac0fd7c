// Feeds through the real server: every feed type parsed with a feed parser (feedsmith) and checked for
// well-formed XML, items, dates, links and escaping with the hostile corpus account; conditional requests
// counted at the simulator; multi-account merging and its limits; discovery in the profile page and OpenAPI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseAtomFeed, parseJsonFeed, parseRssFeed } from 'feedsmith';
import { XMLValidator } from 'fast-xml-parser';
import { parse, parseFragment } from 'parse5';
import { startStack, problemOf, type Stack, TEST_BASE } from '../helpers/stack.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const permalink = (handle: string, id: string) => `${TEST_BASE}/${handle}/status/${id}`;

async function fetchText(path: string, init?: RequestInit): Promise<{ res: Response; text: string }> {
  const res = await s.get(path, init);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
  return { res, text };
}

async function rss(path: string) {
  const { res, text } = await fetchText(path);
  assert.equal(res.headers.get('content-type'), 'application/rss+xml; charset=utf-8');
  assert.equal(XMLValidator.validate(text), true, 'well-formed XML');
  return { res, text, feed: parseRssFeed(text) };
}

async function expectProblem(path: string, code: string, status = 400) {
  const res = await s.get(path);
  assert.equal(res.status, status, path);
  assert.equal((await problemOf(res)).code, code, path);
}

interface Node {
  nodeName: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: Node[];
  value?: string;
}

function walk(n: Node, visit: (n: Node) => void): void {
  visit(n);
  for (const c of n.childNodes ?? []) walk(c, visit);
  const content = (n as { content?: Node }).content;
  if (content) walk(content, visit);
}

function attr(n: Node, name: string): string | undefined {
  return n.attrs?.find((a) => a.name === name)?.value;
}

/** Everything an entry's HTML could run or load: script elements, event handlers, non-http(s) URLs. */
function assertInert(html: string): string {
  let text = '';
  walk(parseFragment(html), (n) => {
    assert.notEqual(n.nodeName, 'script');
    for (const a of n.attrs ?? []) {
      assert.ok(!a.name.startsWith('on'), `event handler ${a.name}`);
      if (a.name === 'href' || a.name === 'src') assert.match(a.value, /^https?:\/\//, `${a.name}=${a.value}`);
    }
    if (n.nodeName === '#text') text += n.value;
  });
  return text;
}

const dates = (xs: Array<string | undefined>) => xs.map((d) => Date.parse(d ?? ''));
function assertNewestFirst(times: number[]) {
  for (const t of times) assert.ok(Number.isFinite(t), 'dates parse');
  for (let i = 1; i < times.length; i++)
    assert.ok(times[i - 1]! >= times[i]!, `item ${i} is not older than item ${i - 1}`);
}

describe('profile RSS', () => {
  test('/{handle}/rss: channel metadata, items with links, dates, authors, categories and enclosures', async () => {
    const { res, feed } = await rss(`/${HANDLES.alice}/rss`);
    assert.equal(feed.title, 'Alice Developer (@alice_dev)');
    assert.equal(feed.link, `${TEST_BASE}/${HANDLES.alice}`);
    assert.match(feed.description ?? '', /Backend engineer/);
    assert.equal(feed.ttl, 5, 'ttl is the 300 s cache lifetime in minutes');
    assert.match(feed.image?.url ?? '', /^https:\/\/.*profile_images/);
    const self = feed.atom?.links?.find((l) => l.rel === 'self');
    assert.equal(self?.href, `${TEST_BASE}/${HANDLES.alice}/rss`);
    assert.equal(
      res.headers.get('cache-control'),
      'public, max-age=300, s-maxage=300, stale-while-revalidate=300, stale-if-error=3600',
    );
    assert.ok(res.headers.get('etag')?.startsWith('"'), 'strong ETag');
    assert.equal(res.headers.get('last-modified'), feed.items?.[0]?.pubDate, 'Last-Modified is the newest item');

    const items = feed.items ?? [];
    assert.ok(items.length >= 10);
    assertNewestFirst(dates(items.map((i) => i.pubDate)));
    for (const it of items) {
      assert.ok(it.link?.startsWith(`${TEST_BASE}/${HANDLES.alice}/status/`), it.link);
      assert.equal(it.guid?.value, it.link);
      assert.equal(it.guid?.isPermaLink, true);
      assert.match(it.comments ?? '', /^https:\/\/x\.com\/alice_dev\/status\/\d+$/);
      assert.deepEqual(it.dc?.creators, ['Alice Developer (@alice_dev)']);
      assert.ok(it.title && !it.title.includes('\n'));
      assertInert(it.description ?? '');
    }
    const links = items.map((i) => i.link);
    assert.ok(
      links.includes(permalink(HANDLES.alice, IDS.threadPhoto)),
      "own thread continuations are the author's posts",
    );
    assert.ok(
      !links.includes(permalink(HANDLES.alice, IDS.replies.aliceToBob)),
      'replies to others only in with_replies',
    );
    assert.ok(!items.some((i) => i.guid?.isPermaLink === false), 'no reposts');

    const note = items.find((i) => i.link === permalink(HANDLES.alice, IDS.noteTweet))!;
    assert.equal(
      note.title,
      'Long post about cache invalidation, because 280 characters was never going to be enough.',
    );
    assert.ok(
      note.categories?.some((c) => c.name === 'caching'),
      'hashtags become categories',
    );
    assert.match(note.description ?? '', /Fourth, the culture/, 'full text, not a summary');

    const photo = items.find((i) => i.link === permalink(HANDLES.alice, IDS.threadPhoto))!;
    assert.equal(photo.enclosures?.[0]?.type, 'image/jpeg');
    assert.match(photo.enclosures?.[0]?.url ?? '', /^https:\/\/pbs\.twimg\.com\//);
    assert.equal(photo.media?.contents?.[0]?.medium, 'image');
    assert.match(photo.description ?? '', /Quoting/, 'quotes are part of the content');
    const poll = items.find((i) => i.link === permalink(HANDLES.alice, IDS.threadPoll))!;
    assert.match(poll.description ?? '', /In-process LRU/);
    const video = items.find((i) => i.link === permalink(HANDLES.alice, IDS.threadVideo))!;
    assert.equal(video.enclosures?.[0]?.type, 'video/mp4');
  });

  test('/{handle}/media/rss keeps only posts with photos or videos', async () => {
    const { feed } = await rss(`/${HANDLES.alice}/media/rss`);
    const items = feed.items ?? [];
    assert.ok(items.length >= 3);
    for (const it of items) assert.ok((it.enclosures?.length ?? 0) > 0, `${it.link} has media`);
    const links = items.map((i) => i.link);
    for (const id of [IDS.threadPhoto, IDS.threadVideo, IDS.threadTwoPhotos])
      assert.ok(links.includes(permalink(HANDLES.alice, id)));
    const two = items.find((i) => i.link === permalink(HANDLES.alice, IDS.threadTwoPhotos))!;
    assert.equal(two.media?.contents?.length, 2, 'every photo as media:content');
    assert.match(feed.title ?? '', /media$/);
  });

  test('/{handle}/with_replies/rss adds replies and labelled reposts', async () => {
    const { feed } = await rss(`/${HANDLES.alice}/with_replies/rss`);
    const items = feed.items ?? [];
    const reply = items.find((i) => i.link === permalink(HANDLES.alice, IDS.replies.aliceToBob));
    assert.ok(reply, 'reply to bob present');
    assert.match(reply.title ?? '', /^Reply to @bob: /);
    const repost = items.find((i) => i.link === permalink(HANDLES.big, IDS.communityNote));
    assert.ok(repost, 'repost present');
    assert.match(repost.title ?? '', /^↻ @alice_dev reposted @bigaccount: Caching makes/);
    assert.equal(repost.guid?.isPermaLink, false);
    assert.equal(repost.guid?.value, `${permalink(HANDLES.big, IDS.communityNote)}#repost-by-alice_dev`);
    assert.match(repost.description ?? '', /Reposted by/);
    assert.deepEqual(repost.dc?.creators, ['Big Account (@bigaccount)'], 'the original author wrote it');
  });

  test('threads=grouped gives one item per self-thread, oldest post first', async () => {
    const separate = (await rss(`/${HANDLES.alice}/rss`)).feed.items ?? [];
    const { feed } = await rss(`/${HANDLES.alice}/rss?threads=grouped`);
    const items = feed.items ?? [];
    const root = items.find((i) => i.link === permalink(HANDLES.alice, IDS.threadRoot));
    assert.ok(root, 'the thread is filed under its first post');
    assert.match(root.title ?? '', /\(thread, 12 posts\)$/);
    const text = assertInert(root.description ?? '');
    assert.ok(text.indexOf('1/12') < text.indexOf('12/12'), 'posts in thread order');
    for (const id of IDS.thread) assert.match(root.description ?? '', new RegExp(id), `post ${id} in the thread item`);
    assert.ok(!items.some((i) => i.link === permalink(HANDLES.alice, IDS.threadLast)));
    assert.equal(items.length, separate.length - 11);
    assert.equal(
      feed.atom?.links?.find((l) => l.rel === 'self')?.href,
      `${TEST_BASE}/${HANDLES.alice}/rss?threads=grouped`,
    );
  });
});

describe('versioned feeds: Atom and JSON Feed', () => {
  test('type=atom is Atom 1.0 with self and alternate links, dates, authors and enclosures', async () => {
    const { res, text } = await fetchText(`/api/v1/profiles/${HANDLES.alice}/feed?type=atom&kind=media`);
    assert.equal(res.headers.get('content-type'), 'application/atom+xml; charset=utf-8');
    assert.equal(XMLValidator.validate(text), true);
    const feed = parseAtomFeed(text);
    const self = `${TEST_BASE}/api/v1/profiles/${HANDLES.alice}/feed?type=atom&kind=media`;
    assert.equal(feed.id, self);
    assert.equal(feed.links?.find((l) => l.rel === 'self')?.href, self);
    assert.equal(feed.links?.find((l) => l.rel === 'alternate')?.href, `${TEST_BASE}/${HANDLES.alice}`);
    const entries = feed.entries ?? [];
    assert.ok(entries.length >= 3);
    assert.equal(
      feed.updated,
      entries
        .map((e) => e.updated!)
        .sort()
        .at(-1),
    );
    assertNewestFirst(dates(entries.map((e) => e.published)));
    for (const e of entries) {
      assert.match(e.published ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(e.links?.find((l) => l.rel === 'alternate')?.href, e.id);
      assert.match(e.links?.find((l) => l.rel === 'related')?.href ?? '', /^https:\/\/x\.com\//);
      assert.ok(e.links?.some((l) => l.rel === 'enclosure' && /^(image|video)\//.test(l.type ?? '')));
      assert.equal(e.authors?.[0]?.uri, `${TEST_BASE}/${HANDLES.alice}`);
      assert.equal(e.content?.type, 'html');
      assertInert(e.content?.value ?? '');
    }
  });

  test('type=json is JSON Feed 1.1', async () => {
    const { res, text } = await fetchText(`/api/v1/profiles/${HANDLES.alice}/feed?type=json`);
    assert.equal(res.headers.get('content-type'), 'application/feed+json; charset=utf-8');
    const raw = JSON.parse(text) as { version: string; _threadmark: { ttl_seconds: number } };
    assert.equal(raw.version, 'https://jsonfeed.org/version/1.1');
    assert.equal(raw._threadmark.ttl_seconds, 300);
    const feed = parseJsonFeed(raw);
    assert.equal(feed.feed_url, `${TEST_BASE}/api/v1/profiles/${HANDLES.alice}/feed?type=json`);
    assert.equal(feed.home_page_url, `${TEST_BASE}/${HANDLES.alice}`);
    const items = feed.items ?? [];
    assertNewestFirst(dates(items.map((i) => i.date_published)));
    for (const it of items) {
      assert.equal(it.url, it.id);
      assert.match(it.external_url ?? '', /^https:\/\/x\.com\/alice_dev\/status\/\d+$/);
      assert.equal(it.authors?.[0]?.url, `${TEST_BASE}/${HANDLES.alice}`);
      assertInert(it.content_html ?? '');
    }
    const photo = items.find((i) => i.id === permalink(HANDLES.alice, IDS.threadPhoto))!;
    assert.equal(photo.attachments?.[0]?.mime_type, 'image/jpeg');
    assert.equal(photo.image, photo.attachments?.[0]?.url);
  });

  test('kind=with_replies on the versioned route matches the permalink', async () => {
    const v1 = parseRssFeed((await fetchText(`/api/v1/profiles/${HANDLES.alice}/feed?kind=with_replies`)).text);
    const permalinkFeed = (await rss(`/${HANDLES.alice}/with_replies/rss`)).feed;
    assert.deepEqual(
      v1.items?.map((i) => i.guid?.value),
      permalinkFeed.items?.map((i) => i.guid?.value),
    );
  });

  test('the bearer key is honoured as on the profile routes', async () => {
    const res = await s.get(`/${HANDLES.bob}/rss`, { headers: { authorization: 'Bearer not-a-key' } });
    assert.equal(res.status, 401);
    assert.equal((await problemOf(res)).code, 'invalid_key');
    const anon = await s.get(`/api/v1/profiles/${HANDLES.bob}/feed`);
    assert.equal(anon.headers.get('x-api-key-status'), 'anonymous');
    await anon.arrayBuffer();
  });

  test('fixed media types: Accept does not negotiate, bad options are 400 invalid_feed_option', async () => {
    const res = await s.get(`/${HANDLES.bob}/rss`, { headers: { accept: 'text/html' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/rss+xml; charset=utf-8');
    await res.arrayBuffer();
    await expectProblem(`/api/v1/profiles/${HANDLES.bob}/feed?type=xml`, 'invalid_feed_option');
    await expectProblem(`/api/v1/profiles/${HANDLES.bob}/feed?kind=likes`, 'invalid_feed_option');
    await expectProblem(`/${HANDLES.bob}/rss?threads=nested`, 'invalid_feed_option');
    const head = await s.get(`/${HANDLES.bob}/rss`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });
});

describe('hostile content', () => {
  const name = '<img src=x onerror=alert(1)> **Mallory** [admin](javascript:alert(1))';

  test('RSS: names round-trip as text and the post HTML is inert', async () => {
    const { feed } = await rss(`/${HANDLES.hostile}/rss`);
    assert.equal(feed.title, `${name} (@mallory_md)`);
    assert.match(feed.description ?? '', /<script>alert\(1\)<\/script>/, 'bio shown as the text it is');
    const item = feed.items?.find((i) => i.link === permalink(HANDLES.hostile, IDS.hostile));
    assert.ok(item);
    assert.equal(item.title, '# heading injection');
    assert.deepEqual(item.dc?.creators, [`${name} (@mallory_md)`]);
    const text = assertInert(item.description ?? '');
    assert.match(text, /<script>alert\(1\)<\/script>/, 'markup in the post is shown, not run');
    assert.match(text, /&amp; &lt;tag&gt;/, 'entity-like text stays literal');
    assert.match(text, /\[click\]\(javascript:alert\(1\)\)/);
  });

  test('Atom and JSON Feed carry the same text', async () => {
    const atom = parseAtomFeed((await fetchText(`/api/v1/profiles/${HANDLES.hostile}/feed?type=atom`)).text);
    assert.equal(atom.title?.value, `${name} (@mallory_md)`);
    const entry = atom.entries?.find((e) => e.id === permalink(HANDLES.hostile, IDS.hostile));
    assert.match(assertInert(entry?.content?.value ?? ''), /<script>alert\(1\)<\/script>/);
    assert.equal(entry?.authors?.[0]?.name, `${name} (@mallory_md)`);
    const json = parseJsonFeed(
      JSON.parse((await fetchText(`/api/v1/profiles/${HANDLES.hostile}/feed?type=json`)).text),
    );
    assert.equal(json.title, `${name} (@mallory_md)`);
    const item = json.items?.find((i) => i.id === permalink(HANDLES.hostile, IDS.hostile));
    assert.match(assertInert(item?.content_html ?? ''), /<script>alert\(1\)<\/script>/);
  });
});

describe('search feeds', () => {
  test('/search/rss: matching posts with the search as channel', async () => {
    const { feed } = await rss('/search/rss?q=caching');
    assert.equal(feed.title, 'Search: caching · latest');
    assert.equal(feed.link, `${TEST_BASE}/search?q=caching&feed=latest`);
    const items = feed.items ?? [];
    assert.ok(items.length > 0);
    for (const it of items) {
      assert.match(assertInert(it.description ?? ''), /caching/i);
      assert.match(it.link ?? '', new RegExp(`^${TEST_BASE}/\\w+/status/\\d+$`));
    }
    assertNewestFirst(dates(items.map((i) => i.pubDate)));
  });

  test('/api/v1/search/feed: Atom and JSON; errors as on search', async () => {
    const atom = parseAtomFeed((await fetchText('/api/v1/search/feed?q=threadmark&type=atom')).text);
    assert.equal(
      atom.links?.find((l) => l.rel === 'self')?.href,
      `${TEST_BASE}/api/v1/search/feed?q=threadmark&type=atom`,
    );
    assert.ok((atom.entries?.length ?? 0) > 0);
    const json = parseJsonFeed(
      JSON.parse((await fetchText('/api/v1/search/feed?q=threadmark&type=json&feed=top')).text),
    );
    assert.equal(json.title, 'Search: threadmark · top');
    await expectProblem('/search/rss', 'missing_query');
    await expectProblem('/search/rss?q=x&feed=users', 'invalid_feed');
    await expectProblem('/api/v1/search/feed?q=x&type=yaml', 'invalid_feed_option');
  });
});

describe('cheap to poll', () => {
  test('If-None-Match and If-Modified-Since give 304 with no upstream call', async () => {
    const path = `/${HANDLES.dave}/rss`;
    const first = await fetchText(path, { headers: { 'accept-encoding': 'identity' } });
    const etag = first.res.headers.get('etag')!;
    const lastModified = first.res.headers.get('last-modified')!;
    const calls = s.sim.calls();

    const byTag = await s.get(path, { headers: { 'if-none-match': etag, 'accept-encoding': 'identity' } });
    assert.equal(byTag.status, 304);
    assert.equal(await byTag.text(), '');
    assert.equal(byTag.headers.get('etag'), etag);
    assert.equal(byTag.headers.get('content-type'), null);
    assert.equal(byTag.headers.get('last-modified'), lastModified);
    assert.equal(
      byTag.headers.get('cache-control'),
      'public, max-age=300, s-maxage=300, stale-while-revalidate=300, stale-if-error=3600',
    );
    assert.ok(byTag.headers.get('ratelimit'), 'rate-limit headers as on every response');

    const byDate = await s.get(path, { headers: { 'if-modified-since': lastModified } });
    assert.equal(byDate.status, 304);
    await byDate.arrayBuffer();
    assert.equal(s.sim.calls(), calls, 'no upstream call for either 304');

    const changed = await s.get(path, { headers: { 'if-none-match': '"something-else"' } });
    assert.equal(changed.status, 200);
    await changed.arrayBuffer();
    const older = await s.get(path, {
      headers: { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() },
    });
    assert.equal(older.status, 200);
    await older.arrayBuffer();
  });

  test('the same data gives the same strong tag; a compressed body gets its own', async () => {
    const path = `/api/v1/profiles/${HANDLES.carol}/feed?type=atom`;
    const a = await s.get(path, { headers: { 'accept-encoding': 'identity' } });
    const b = await s.get(path, { headers: { 'accept-encoding': 'identity' } });
    assert.equal(a.headers.get('etag'), b.headers.get('etag'));
    await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    const gz = await s.get(path, { headers: { 'accept-encoding': 'gzip' } });
    await gz.arrayBuffer();
    assert.equal(gz.headers.get('etag'), a.headers.get('etag')!.replace(/"$/, '-gzip"'));
    const again = await s.get(path, {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.get('etag')! },
    });
    assert.equal(again.status, 304);
    assert.equal(again.headers.get('etag'), gz.headers.get('etag'));
  });

  test('a stale feed is served when every upstream fails', async () => {
    const own = await startStack({ THREADMARK_CACHE_TTL_S: '1' });
    try {
      const path = `/${HANDLES.carol}/rss`;
      const fresh = await own.get(path, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(fresh.status, 200);
      const body = await fresh.text();
      await sleep(1100);
      own.sim.addFault({ target: '*', kind: 'status', status: 501 });
      const stale = await own.get(path, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(stale.status, 200);
      assert.equal(stale.headers.get('x-cache'), 'stale');
      assert.equal(await stale.text(), body);
      const polled = await own.get(path, { headers: { 'if-none-match': fresh.headers.get('etag')! } });
      assert.equal(polled.status, 304, 'the stale copy still validates');
    } finally {
      await own.close();
    }
  });
});

describe('multi-account feeds', () => {
  test('/{a,b}/rss merges both accounts newest first', async () => {
    const { feed } = await rss(`/${HANDLES.alice},${HANDLES.carol}/rss`);
    assert.equal(feed.title, '@alice_dev, @carol');
    const items = feed.items ?? [];
    assertNewestFirst(dates(items.map((i) => i.pubDate)));
    const authors = new Set(items.flatMap((i) => i.dc?.creators ?? []));
    assert.deepEqual([...authors].sort(), ['Alice Developer (@alice_dev)', 'Carol (@carol)']);
    const guids = items.map((i) => i.guid?.value);
    assert.equal(new Set(guids).size, guids.length, 'no duplicates');
    assert.equal(
      feed.atom?.links?.find((l) => l.rel === 'self')?.href,
      `${TEST_BASE}/${HANDLES.alice},${HANDLES.carol}/rss`,
    );
  });

  test('repeated handles count once; an account that is not public is left out with a warning', async () => {
    const dup = (await rss(`/${HANDLES.bob},BOB,${HANDLES.bob}/rss`)).feed;
    const single = (await rss(`/${HANDLES.bob}/rss`)).feed;
    assert.deepEqual(
      dup.items?.map((i) => i.guid?.value),
      single.items?.map((i) => i.guid?.value),
    );
    const { res, feed } = await rss(`/${HANDLES.bob},${HANDLES.protected},${HANDLES.missing}/rss`);
    assert.match(res.headers.get('x-warnings') ?? '', /locked_lena left out/);
    assert.ok((feed.items ?? []).every((i) => i.link?.startsWith(`${TEST_BASE}/${HANDLES.bob}/`)));
    await expectProblem(`/${HANDLES.protected}/rss`, 'not_found', 404);
    await expectProblem(`/${HANDLES.protected},${HANDLES.missing}/rss`, 'not_found', 404);
  });

  test('limits: at most 10 handles, each a valid handle', async () => {
    const ten = [
      'alice_dev',
      'bob',
      'carol',
      'dave',
      'bigaccount',
      'mallory_md',
      'reader_0001',
      'reader_0002',
      'reader_0003',
      'reader_0004',
    ];
    const { feed } = await rss(`/${ten.join(',')}/rss`);
    assert.ok((feed.items?.length ?? 0) > 20, 'a merged feed is not cut to one page');
    await expectProblem(`/${[...ten, 'reader_0005'].join(',')}/rss`, 'too_many_handles');
    await expectProblem(`/api/v1/profiles/${[...ten, 'reader_0005'].join(',')}/feed`, 'too_many_handles');
    await expectProblem(`/${HANDLES.bob},not-a-handle/rss`, 'invalid_handle');
    await expectProblem(`/${HANDLES.bob},,${HANDLES.carol}/rss`, 'invalid_handle');
    await expectProblem(`/${HANDLES.bob},docs/rss`, 'invalid_handle');
    await expectProblem('/@bob/rss', 'invalid_handle');
  });
});

describe('routing and discovery', () => {
  test('feed paths do not shadow other routes; reserved paths are not handles', async () => {
    const status = await s.get(`/${HANDLES.alice}/status/${IDS.threadRoot}?thread=off`);
    assert.equal(status.status, 200);
    assert.match(status.headers.get('content-type') ?? '', /markdown/);
    await status.arrayBuffer();
    const followers = await s.get(`/${HANDLES.alice}/followers`);
    assert.equal(followers.status, 200);
    await followers.arrayBuffer();
    await expectProblem('/docs/rss', 'route_not_found', 404);
    await expectProblem('/api/rss', 'route_not_found', 404);
  });

  test('the profile HTML page announces its feeds', async () => {
    const { text } = await fetchText(`/${HANDLES.alice}`, { headers: { accept: 'text/html' } });
    const feeds: Array<{ href?: string; title?: string }> = [];
    walk(parse(text), (n) => {
      if (n.nodeName === 'link' && attr(n, 'rel') === 'alternate' && attr(n, 'type') === 'application/rss+xml') {
        feeds.push({ href: attr(n, 'href'), title: attr(n, 'title') });
      }
    });
    assert.deepEqual(
      feeds.map((f) => f.href),
      ['rss', 'media/rss', 'with_replies/rss'].map((p) => `${TEST_BASE}/${HANDLES.alice}/${p}`),
    );
  });

  test('OpenAPI and /docs list every feed route with its media types', async () => {
    const doc = (await (await s.get('/openapi.json')).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const expected: Record<string, string[]> = {
      '/{handle}/rss': ['application/rss+xml'],
      '/{handle}/media/rss': ['application/rss+xml'],
      '/{handle}/with_replies/rss': ['application/rss+xml'],
      '/search/rss': ['application/rss+xml'],
      '/api/v1/profiles/{handle}/feed': ['application/rss+xml', 'application/atom+xml', 'application/feed+json'],
      '/api/v1/search/feed': ['application/rss+xml', 'application/atom+xml', 'application/feed+json'],
    };
    for (const [path, types] of Object.entries(expected)) {
      const op = doc.paths[path]?.get;
      assert.ok(op, `${path} in OpenAPI`);
      assert.deepEqual(Object.keys(op.responses['200']?.content ?? {}), types, path);
      assert.ok(op.responses['400'], `${path} documents its 400s`);
    }
    const docs = await (await s.get('/docs')).text();
    for (const path of Object.keys(expected)) assert.ok(docs.includes(`GET ${path}`), `/docs lists ${path}`);
  });
});
