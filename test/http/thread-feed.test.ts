// Thread feeds through the real server against the simulator: RSS, Atom and JSON Feed parsed by a feed parser,
// each item's place in the conversation, validators and 304s, a conversation that grows, and bad input.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAtomFeed, parseJsonFeed, parseRssFeed } from 'feedsmith';
import { XMLValidator } from 'fast-xml-parser';
import { startStack, problemOf, type Stack, TEST_BASE } from '../helpers/stack.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { getCorpus } from '../../sim/corpus.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const ROOT = IDS.threadRoot;
const RSS_PATH = `/${HANDLES.alice}/status/${ROOT}/rss`;

async function ok(path: string, init?: RequestInit): Promise<{ res: Response; text: string }> {
  const res = await s.get(path, init);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
  return { res, text };
}

async function expectProblem(path: string, code: string, status = 400) {
  const res = await s.get(path);
  assert.equal(res.status, status, path);
  assert.equal((await problemOf(res)).code, code, path);
}

function assertNewestFirst(times: number[]) {
  for (const t of times) assert.ok(Number.isFinite(t), 'dates parse');
  for (let i = 1; i < times.length; i++) assert.ok(times[i - 1]! >= times[i]!, `item ${i} is newer than item ${i - 1}`);
}

describe('thread feed', () => {
  test('RSS: the author thread and the replies, newest first, each titled with its place', async () => {
    const { res, text } = await ok(RSS_PATH);
    assert.equal(res.headers.get('content-type'), 'application/rss+xml; charset=utf-8');
    assert.equal(XMLValidator.validate(text), true, 'well-formed XML');
    const feed = parseRssFeed(text);
    assert.match(feed.title ?? '', /^Thread by @alice_dev: 1\/12 A thread on #caching/);
    assert.equal(feed.link, `${TEST_BASE}/${HANDLES.alice}/status/${ROOT}`);
    assert.equal(feed.atom?.links?.find((l) => l.rel === 'self')?.href, `${TEST_BASE}${RSS_PATH}`);
    const items = feed.items ?? [];
    assertNewestFirst(items.map((i) => Date.parse(i.pubDate ?? '')));
    const byLink = new Map(items.map((i) => [i.link, i]));
    const part = (n: number) => byLink.get(`${TEST_BASE}/${HANDLES.alice}/status/${IDS.thread[n - 1]}`);
    assert.match(part(1)?.title ?? '', /^Part 1 of 12 of the thread: 1\/12 /);
    assert.match(part(3)?.title ?? '', /^Part 3 of 12 of the thread: /);
    assert.match(part(12)?.title ?? '', /^Part 12 of 12 of the thread: 12\/12 That is it/);
    assert.match(part(3)?.description ?? '', /<em>Part 3 of 12 of the thread<\/em>/, 'the place opens the content');
    const bob = byLink.get(`${TEST_BASE}/${HANDLES.bob}/status/${IDS.replies.bobTop}`);
    assert.equal(bob?.title, 'Reply to @alice_dev: Great thread! The stampede video is painfully familiar.');
    const aliceToBob = byLink.get(`${TEST_BASE}/${HANDLES.alice}/status/${IDS.replies.aliceToBob}`);
    assert.equal(aliceToBob?.title, 'Reply to @bob: Ha, you were on call for that one.');
    assert.equal(new Set(items.map((i) => i.guid?.value)).size, items.length, 'one item per post');
    assert.ok(items.length > 12, 'replies as well as the thread');
  });

  test('Atom and JSON Feed on the versioned route, with title=author', async () => {
    const atom = await ok(`/api/v1/posts/${ROOT}/feed?type=atom`);
    assert.equal(atom.res.headers.get('content-type'), 'application/atom+xml; charset=utf-8');
    assert.equal(XMLValidator.validate(atom.text), true);
    const a = parseAtomFeed(atom.text);
    assert.ok((a.entries ?? []).some((e) => /^Part 2 of 12 of the thread: /.test(e.title?.value ?? '')));

    const json = await ok(`/api/v1/posts/${ROOT}/feed?type=json&title=author`);
    assert.match(json.res.headers.get('content-type') ?? '', /^application\/feed\+json/);
    const j = parseJsonFeed(json.text);
    assert.equal(j.feed_url, `${TEST_BASE}/api/v1/posts/${ROOT}/feed?type=json&title=author`);
    const titles = (j.items ?? []).map((i) => i.title ?? '');
    assert.ok(titles.includes('@bob: Reply to @alice_dev: Great thread! The stampede video is painfully familiar.'));
    assert.ok(
      titles.every((t) => /^@\w+: /.test(t)),
      'every title names its author',
    );
  });

  test('a post in the middle of a thread gives the same conversation', async () => {
    const { text } = await ok(`/${HANDLES.alice}/status/${IDS.threadPoll}/rss`);
    const items = parseRssFeed(text).items ?? [];
    assert.ok(items.some((i) => /^Part 1 of 12 of the thread/.test(i.title ?? '')));
    assert.ok(items.some((i) => /^Part 12 of 12 of the thread/.test(i.title ?? '')));
  });

  test('validators: strong ETag, Last-Modified, 304 without an upstream call', async () => {
    const first = await ok(RSS_PATH, { headers: { 'accept-encoding': 'identity' } });
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

  test('a conversation that grows: the new reply comes first and the old ETag no longer matches', async () => {
    const path = `/${HANDLES.dave}/status/${IDS.daveRoot}/rss`;
    const before = await ok(path, { headers: { 'accept-encoding': 'identity' } });
    const oldTag = before.res.headers.get('etag')!;
    const corpus = getCorpus();
    const parent = corpus.posts.get(IDS.daveRoot)!;
    const carol = corpus.usersByHandle.get(HANDLES.carol)!;
    const dave = corpus.users.get(parent.authorId)!;
    const id = '1900000000000099901';
    corpus.posts.set(id, {
      ...parent,
      id,
      authorId: carol.id,
      createdAt: Date.now() - 60_000,
      text: 'Late to this, but the grown thread shows up in the feed.',
      replyPrefix: [dave.handle],
      replyToId: IDS.daveRoot,
      quoteId: undefined,
      media: [],
      likes: 1,
    });
    corpus.children.set(IDS.daveRoot, [...(corpus.children.get(IDS.daveRoot) ?? []), id]);

    // nocache reads the conversation afresh, as the next poll after the cache lifetime would.
    const res = await s.get(`${path}?nocache=true`, {
      headers: { 'if-none-match': oldTag, 'accept-encoding': 'identity' },
    });
    const text = await res.text();
    assert.equal(res.status, 200, 'the old ETag no longer matches');
    assert.notEqual(res.headers.get('etag'), oldTag);
    const first = parseRssFeed(text).items?.[0];
    assert.equal(first?.link, `${TEST_BASE}/${HANDLES.carol}/status/${id}`);
    assert.equal(first?.title, `Reply to @${dave.handle}: Late to this, but the grown thread shows up in the feed.`);
  });

  test('since_id keeps only newer posts', async () => {
    const { text } = await ok(`${RSS_PATH}?since_id=${IDS.replies.bobTop}`);
    const ids = (parseRssFeed(text).items ?? []).map((i) => (i.link ?? '').split('/').pop()!);
    assert.ok(ids.length > 0);
    for (const id of ids) assert.ok(BigInt(id) > BigInt(IDS.replies.bobTop), id);
  });

  test('bad input: problems from the catalog', async () => {
    await expectProblem(`/${HANDLES.alice}/status/abc/rss`, 'invalid_params');
    await expectProblem(`/api/v1/posts/12x/feed`, 'invalid_params');
    await expectProblem(`/api/v1/posts/${ROOT}/feed?type=yaml`, 'invalid_feed_option');
    await expectProblem(`${RSS_PATH}?since_id=x`, 'invalid_since_id');
    await expectProblem(`${RSS_PATH}?min_likes=lots`, 'invalid_filter');
    await expectProblem(`/${HANDLES.alice}/status/1900000000000099999/rss`, 'not_found', 404);
  });

  test('declared in OpenAPI with the filters', async () => {
    const doc = (await (await s.get('/openapi.json')).json()) as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }>;
    };
    for (const path of ['/{handle}/status/{id}/rss', '/api/v1/posts/{id}/feed']) {
      const names = (doc.paths[path]?.get?.parameters ?? []).map((p) => p.name);
      for (const n of ['include', 'exclude', 'media', 'min_likes', 'min_reposts', 'lang', 'title', 'since_id'])
        assert.ok(names.includes(n), `${path} declares ${n}`);
    }
  });
});
