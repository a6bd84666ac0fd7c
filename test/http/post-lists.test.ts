// Quotes and reposts of a post and a profile's media tab, through the real server against the simulator: FxTwitter's
// /2/status/{id}/quotes, /2/status/{id}/reposts and /2/profile/{h}/media first, X's SearchTimeline
// (quoted_tweet_id:), Retweeters and UserMedia with sessions, every representation, cursor paging, the feeds, the
// MCP tools, each bad input with its exact problem, and the 503 when no configured provider serves the read.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { mcpCall } from '../helpers/mcp.ts';
import { profileTabJsonSchema, quotesJsonSchema, repostsJsonSchema } from '../../src/contract/json-schemas.ts';

const ROOT = IDS.threadRoot;
/** Newest first: the readers quoted the root one hour apart. */
const QUOTES = [...IDS.rootQuotes].reverse();
const REPOSTERS = ['reader_0444', 'reader_0443', 'reader_0442', 'reader_0441', HANDLES.big];

interface ListBody {
  markdown: string;
  post?: { id: string };
  profile?: { handle: string };
  posts?: Array<{ id: string; author: { handle: string }; media: unknown[]; quote?: { id: string } }>;
  items?: Array<{ handle: string }>;
  nextCursor?: string;
  page: number;
  source: string;
}

async function json(s: Stack, path: string): Promise<{ res: Response; body: ListBody }> {
  const res = await s.get(path + (path.includes('?') ? '&' : '?') + 'format=json');
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
  return { res, body: JSON.parse(text) as ListBody };
}

/** Every page from the first, following nextCursor. */
async function walk(s: Stack, path: string, key: 'posts' | 'items', pick: (x: never) => string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { body } = await json(s, `${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    pages++;
    assert.equal(body.page, pages);
    seen.push(...(body[key] as never[]).map(pick));
    cursor = body.nextCursor;
  } while (cursor && pages < 10);
  assert.equal(cursor, undefined, 'the list ends');
  return seen;
}

describe('from FxTwitter', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());

  test('quotes: the quoted post and the posts quoting it, newest first, on both surfaces', async () => {
    for (const path of [`/api/v1/posts/${ROOT}/quotes`, `/${HANDLES.alice}/status/${ROOT}/quotes`]) {
      const { res, body } = await json(s, path);
      assert.equal(res.headers.get('x-source'), 'fxtwitter');
      assert.equal(res.headers.get('x-browse-resource'), 'quotes');
      assert.equal(res.headers.get('x-result-count'), '3');
      assert.equal(body.post!.id, ROOT);
      assert.deepEqual(
        body.posts!.map((p) => p.id),
        QUOTES,
      );
      assert.ok(body.posts!.every((p) => p.quote?.id === ROOT));
      assert.ok(quotesJsonSchema.safeParse(body).success);
    }
  });

  test('quotes in Markdown: heading, the post in one line, quotes without the quoted post; Continue → pages on', async () => {
    const res = await s.get(`/${HANDLES.alice}/status/${ROOT}/quotes?limit=2`);
    assert.match(res.headers.get('content-type') ?? '', /^text\/markdown/);
    const md = await res.text();
    assert.match(md, /^# Quotes of @alice_dev's post\n\nPost by Alice Developer \(@alice_dev\) · /);
    assert.match(md, /## Reader 433 \(@reader_0433\) · .*\n\nGood thread, bookmarked\./);
    assert.doesNotMatch(md.split('Page 1')[1]!, /A thread on #caching/, 'the quoted post is not repeated per quote');
    const last = md.trimEnd().split('\n').at(-1)!;
    assert.match(
      last,
      new RegExp(
        `^\\[Continue →\\]\\(${TEST_BASE}/alice_dev/status/${ROOT}/quotes\\?limit=2&cursor=[A-Za-z0-9_-]+\\)$`,
      ),
    );
    const seen = await walk(s, `/api/v1/posts/${ROOT}/quotes?limit=1`, 'posts', (p: { id: string }) => p.id);
    assert.deepEqual(seen, QUOTES);

    const html = await (
      await s.get(`/${HANDLES.alice}/status/${ROOT}/quotes`, { headers: { accept: 'text/html' } })
    ).text();
    assert.ok(html.includes(`href="${TEST_BASE}/alice_dev/status/${ROOT}/quotes/rss"`), 'feed discovery link');
  });

  test('quotes take the post filters; a quote of a post with none is an empty page', async () => {
    const { body } = await json(s, `/api/v1/posts/${ROOT}/quotes?include=team`);
    assert.deepEqual(
      body.posts!.map((p) => p.id),
      [IDS.rootQuotes[1]],
    );
    const none = await json(s, `/api/v1/posts/${IDS.replies.bobTop}/quotes`);
    assert.deepEqual(none.body.posts, []);
    assert.match(none.body.markdown, /No quotes on this page\./);
  });

  test('reposts: the accounts, most recent first, paged with cursors', async () => {
    const { res, body } = await json(s, `/${HANDLES.alice}/status/${ROOT}/reposts`);
    assert.equal(res.headers.get('x-browse-resource'), 'reposts');
    assert.deepEqual(
      body.items!.map((a) => a.handle),
      REPOSTERS,
    );
    assert.ok(repostsJsonSchema.safeParse(body).success);
    const seen = await walk(s, `/api/v1/posts/${ROOT}/reposts?limit=2`, 'items', (a: { handle: string }) => a.handle);
    assert.deepEqual(seen, REPOSTERS);
    const md = await (await s.get(`/api/v1/posts/${ROOT}/reposts`)).text();
    assert.match(md, /^# Reposts of @alice_dev's post\n/);
    assert.match(md, /- \*\*Big Account\*\* \(\[@bigaccount\]\(http:\/\/threadmark\.test\/bigaccount\)\)/);
  });

  test('media: the profile and its own posts with photos or videos, newest first; feed link in HTML', async () => {
    for (const path of [`/${HANDLES.alice}/media`, `/api/v1/profiles/${HANDLES.alice}/media`]) {
      const { res, body } = await json(s, path);
      assert.equal(res.headers.get('x-browse-resource'), 'media');
      assert.equal(body.profile!.handle, HANDLES.alice);
      assert.ok(body.posts!.length >= 3);
      assert.ok(body.posts!.every((p) => p.author.handle === HANDLES.alice && p.media.length > 0));
      assert.ok(body.posts!.some((p) => p.id === IDS.threadPhoto));
      assert.ok(profileTabJsonSchema.safeParse(body).success);
    }
    const html = await (await s.get(`/${HANDLES.alice}/media`, { headers: { accept: 'text/html' } })).text();
    assert.ok(html.includes(`href="${TEST_BASE}/alice_dev/media/rss"`));
    const md = await (await s.get(`/${HANDLES.alice}/media`)).text();
    assert.match(md, /^# Media of Alice Developer \(@alice_dev\)\n/);
  });

  test("articles: the account's X Articles, each rendered whole; an account without any has an empty tab", async () => {
    for (const path of [`/${HANDLES.alice}/articles`, `/api/v1/profiles/${HANDLES.alice}/articles`]) {
      const { res, body } = await json(s, path);
      assert.equal(res.headers.get('x-browse-resource'), 'articles');
      assert.deepEqual(
        body.posts!.map((p) => p.id),
        [IDS.article],
      );
      assert.ok(profileTabJsonSchema.safeParse(body).success);
    }
    const md = await (await s.get(`/${HANDLES.alice}/articles`)).text();
    assert.match(md, /^# Articles of Alice Developer \(@alice_dev\)\n/);
    assert.match(md, /Page 1 · 1 article\n/);
    assert.match(md, /A field guide to cache invalidation/);
    for (const heading of ['Why invalidation is hard', 'Three strategies', 'Rolling it out'])
      assert.ok(md.includes(heading), `the whole article: ${heading}`);
    assert.ok(md.includes('- Purge on write'));
    const none = await json(s, `/api/v1/profiles/${HANDLES.bob}/articles`);
    assert.deepEqual(none.body.posts, []);
    assert.match(none.body.markdown, /No Articles on this page\./);
  });

  test('bad input: impossible ids and bad cursors ask no upstream; missing posts and accounts are 404', async () => {
    s.sim.resetCalls();
    for (const path of [`/api/v1/posts/0/quotes`, `/${HANDLES.alice}/status/0/reposts`, `/x/status/01/quotes`]) {
      const res = await s.get(path + '?format=json');
      assert.equal(res.status, 404, path);
      assert.equal((await problemOf(res)).code, 'not_found');
    }
    const bad = await s.get(`/api/v1/posts/abc/quotes`);
    assert.equal(bad.status, 400);
    assert.equal((await problemOf(bad)).code, 'invalid_params');
    const badHandle = await s.get(`/api/v1/profiles/no-such!/media`);
    assert.equal(badHandle.status, 400);
    assert.equal((await problemOf(badHandle)).code, 'invalid_handle');
    const cursor = await s.get(`/api/v1/posts/${ROOT}/quotes?cursor=not-a-cursor`);
    assert.equal(cursor.status, 400);
    assert.equal((await problemOf(cursor)).code, 'invalid_cursor');
    assert.equal(s.sim.calls(), 0, 'nothing was asked upstream');

    const deleted = await s.get(`/api/v1/posts/${IDS.deleted}/reposts?format=json`);
    assert.equal(deleted.status, 404);
    assert.equal((await problemOf(deleted)).code, 'not_found');
    const recovery = await s.get(`/${HANDLES.carol}/status/${IDS.deleted}/quotes`, {
      headers: { accept: 'text/markdown' },
    });
    assert.equal(recovery.status, 404);
    assert.match(recovery.headers.get('content-type') ?? '', /^text\/markdown/);
    const missing = await s.get(`/api/v1/profiles/${HANDLES.missing}/media?format=json`);
    assert.equal(missing.status, 404);
    assert.equal((await problemOf(missing)).code, 'not_found');
    const locked = await s.get(`/api/v1/profiles/${HANDLES.protected}/media?format=json`);
    assert.equal(locked.status, 404);
  });

  test('the quotes feed: RSS on the permalink, any type on v1, filters applied', async () => {
    const rss = await s.get(`/${HANDLES.alice}/status/${ROOT}/quotes/rss`);
    assert.equal(rss.status, 200);
    assert.match(rss.headers.get('content-type') ?? '', /rss\+xml/);
    const xml = await rss.text();
    assert.equal((xml.match(/<item>/g) ?? []).length, 3);
    assert.match(xml, /<title>Quotes of @alice_dev: /);
    const feed = (await (await s.get(`/api/v1/posts/${ROOT}/quotes/feed?type=json&include=team`)).json()) as {
      items: Array<{ url: string }>;
    };
    assert.deepEqual(
      feed.items.map((i) => i.url),
      [`${TEST_BASE}/reader_0432/status/${IDS.rootQuotes[1]}`],
    );
    const gone = await s.get(`/api/v1/posts/0/quotes/feed`);
    assert.equal(gone.status, 404);
  });

  test('MCP tools list_quotes, list_reposts and list_media answer the Markdown', async () => {
    assert.match(await mcpCall(s.url, 'list_quotes', { id: ROOT }), /^# Quotes of @alice_dev's post/);
    assert.match(await mcpCall(s.url, 'list_reposts', { id: ROOT, limit: 2 }), /reader_0444[\s\S]*Continue →/);
    assert.match(await mcpCall(s.url, 'list_media', { handle: HANDLES.alice }), /^# Media of Alice Developer/);
    assert.match(await mcpCall(s.url, 'list_articles', { handle: HANDLES.alice }), /cache invalidation/);
  });

  test('OpenAPI and llms.txt describe the routes', async () => {
    const openapi = (await (await s.get('/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const p of [
      '/api/v1/posts/{id}/quotes',
      '/api/v1/posts/{id}/reposts',
      '/api/v1/profiles/{handle}/media',
      '/{handle}/status/{id}/quotes',
      '/{handle}/status/{id}/quotes/rss',
    ])
      assert.ok(openapi.paths[p], p);
    assert.ok(JSON.stringify(openapi.paths['/api/v1/posts/{id}/quotes']).includes('read_unavailable'));
    const llms = await (await s.get('/llms.txt')).text();
    for (const tool of ['list_quotes', 'list_reposts', 'list_media', 'list_articles']) assert.ok(llms.includes(tool));
  });
});

describe('from X with sessions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-tabs-'));
  let s: Stack;
  before(async () => {
    s = await startStack({
      THREADMARK_PROVIDERS: 'x',
      THREADMARK_X_SESSIONS: writeSessions(dir, 'tabs'),
      THREADMARK_TRUST_PROXY: 'true',
    });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const as = (n: number) => ({ headers: { 'x-forwarded-for': `10.77.0.${n}` } });

  test('quotes through SearchTimeline (quoted_tweet_id:), reposts through Retweeters, media through UserMedia', async () => {
    s.sim.resetCalls();
    const quotes = await s.get(`/api/v1/posts/${ROOT}/quotes?format=json&limit=2`, as(1));
    assert.equal(quotes.status, 200);
    assert.equal(quotes.headers.get('x-source'), 'x');
    const q = (await quotes.json()) as ListBody;
    assert.deepEqual(
      q.posts!.map((p) => p.id),
      QUOTES.slice(0, 2),
    );
    assert.ok(s.sim.calls({ target: 'x', path: 'SearchTimeline' }) >= 1);
    const more = (await (
      await s.get(`/api/v1/posts/${ROOT}/quotes?format=json&limit=2&cursor=${q.nextCursor}`, as(1))
    ).json()) as ListBody;
    assert.deepEqual(
      more.posts!.map((p) => p.id),
      QUOTES.slice(2),
    );

    const reposts = (await (await s.get(`/api/v1/posts/${ROOT}/reposts?format=json`, as(2))).json()) as ListBody;
    assert.deepEqual(
      reposts.items!.map((a) => a.handle),
      REPOSTERS,
    );
    assert.ok(s.sim.calls({ target: 'x', path: 'Retweeters' }) >= 1);

    const media = await walk(
      s,
      `/api/v1/profiles/${HANDLES.alice}/media?limit=2`,
      'posts',
      (p: { id: string }) => p.id,
    );
    assert.ok(media.length >= 3 && media.includes(IDS.threadPhoto));
    assert.ok(s.sim.calls({ target: 'x', path: 'UserMedia' }) >= 2, 'the grid module is appended to on later pages');
  });

  test('each X call is charged to account-ip; a cached page is free', async () => {
    const first = await s.get(`/api/v1/posts/${ROOT}/reposts?limit=3`, as(9));
    assert.equal(first.status, 200);
    const left = (r: Response) => /"account-ip";r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1];
    const after1 = left(first);
    assert.ok(after1 !== undefined, first.headers.get('ratelimit') ?? 'no RateLimit header');
    const again = await s.get(`/api/v1/posts/${ROOT}/reposts?limit=3`, as(9));
    assert.equal(left(again) ?? after1, after1, 'a cached read charges nothing');
  });
});

describe('with no provider that serves them', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'syndication' });
  });
  after(() => s.close());

  test('503 read_unavailable with Retry-After on quotes, reposts, media and the quotes feed', async () => {
    for (const path of [
      `/api/v1/posts/${ROOT}/quotes`,
      `/${HANDLES.alice}/status/${ROOT}/reposts`,
      `/api/v1/profiles/${HANDLES.alice}/media`,
      `/${HANDLES.alice}/articles`,
      `/api/v1/posts/${ROOT}/quotes/feed`,
    ]) {
      const res = await s.get(path + (path.endsWith('feed') ? '' : '?format=json'));
      assert.equal(res.status, 503, path);
      assert.equal((await problemOf(res)).code, 'read_unavailable', path);
      assert.ok(Number(res.headers.get('retry-after')) > 0, path);
    }
  });
});
