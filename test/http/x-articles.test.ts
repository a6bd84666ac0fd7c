// The Articles tab from X through the real server against the simulator: UserArticlesTweets lists the account's
// Articles compact (title, preview, cover), each body is read through the post's TweetDetail, so the tab renders
// every Article whole as FxTwitter's does; an X-only deployment serves it, and X takes over when FxTwitter fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { profileTabJsonSchema } from '../../src/contract/json-schemas.ts';

const HEADINGS = ['Why invalidation is hard', 'Three strategies', 'Rolling it out'];

interface TabBody {
  markdown: string;
  tab: string;
  posts: Array<{ id: string; article?: { title: string; blocks: Array<{ type: string }> } }>;
  nextCursor?: string;
}

/** The Article of the tab is whole: its headings, its list, its code are all there, not only title and preview. */
function assertWhole(body: TabBody): void {
  assert.deepEqual(
    body.posts.map((p) => p.id),
    [IDS.article],
  );
  const blocks = body.posts[0]!.article!.blocks;
  assert.ok(blocks.filter((b) => b.type === 'heading').length >= HEADINGS.length, JSON.stringify(blocks));
  for (const heading of HEADINGS) assert.ok(body.markdown.includes(heading), `the whole article: ${heading}`);
  assert.ok(body.markdown.includes('- Purge on write'));
}

const forwarded = (n: number) => ({ headers: { 'x-forwarded-for': `10.79.0.${n}` } });

describe('an X-only deployment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-xarticles-'));
  let s: Stack;
  before(async () => {
    s = await startStack({
      THREADMARK_PROVIDERS: 'x',
      THREADMARK_X_SESSIONS: writeSessions(dir, 'xarticles'),
      THREADMARK_TRUST_PROXY: 'true',
    });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // First, before anything is cached: a stale copy would stand in for the failed read.
  test('a body X will not give fails the read rather than serving the Article cut to its preview', async () => {
    s.sim.addFault({ target: 'x', kind: 'status', status: 500, match: 'TweetDetail' });
    try {
      const res = await s.get(`/api/v1/profiles/${HANDLES.alice}/articles?format=json`, forwarded(3));
      assert.equal(res.status, 502);
      assert.equal((await problemOf(res)).code, 'x_error');
    } finally {
      s.sim.clearFaults();
    }
  });

  test('serves the tab through UserArticlesTweets, each Article whole from its TweetDetail, on both surfaces', async () => {
    s.sim.resetCalls();
    const res = await s.get(`/api/v1/profiles/${HANDLES.alice}/articles?format=json`, forwarded(1));
    const text = await res.text();
    assert.equal(res.status, 200, text.slice(0, 300));
    assert.equal(res.headers.get('x-source'), 'x');
    const body = JSON.parse(text) as TabBody;
    assert.equal(body.tab, 'articles');
    assert.ok(profileTabJsonSchema.safeParse(body).success);
    assertWhole(body);
    assert.equal(s.sim.calls({ target: 'x', path: 'UserArticlesTweets' }), 1);
    assert.equal(s.sim.calls({ target: 'x', path: 'TweetDetail' }), 1, 'one body read per Article listed');
    assert.match(res.headers.get('ratelimit') ?? '', /"account-ip";r=\d+/);

    const md = await s.get(`/${HANDLES.alice}/articles`, forwarded(1));
    assert.equal(md.status, 200);
    const markdown = await md.text();
    assert.match(markdown, /^# Articles of Alice Developer \(@alice_dev\)\n/);
    assert.match(markdown, /A field guide to cache invalidation/);
    for (const heading of HEADINGS) assert.ok(markdown.includes(heading), heading);
  });

  test("cursor paging on X's cursors: the page after the last Article is the end, nothing read twice", async () => {
    const first = await s.get(`/api/v1/profiles/${HANDLES.alice}/articles?format=json&limit=1`, forwarded(6));
    assert.equal(first.status, 200);
    const one = (await first.json()) as TabBody;
    assert.deepEqual(
      one.posts.map((p) => p.id),
      [IDS.article],
    );
    assert.ok(one.nextCursor, 'X hands out a cursor on a full page');
    s.sim.resetCalls();
    const next = await s.get(
      `/api/v1/profiles/${HANDLES.alice}/articles?format=json&limit=1&cursor=${encodeURIComponent(one.nextCursor)}`,
      forwarded(6),
    );
    assert.equal(next.status, 200);
    const two = (await next.json()) as TabBody;
    assert.deepEqual(two.posts, []);
    assert.equal(two.nextCursor, undefined, 'the list ends');
    assert.equal(s.sim.calls({ target: 'x', path: 'TweetDetail' }), 0, 'no body read for an empty page');
  });

  test('an account without Articles has an empty tab; an unknown one is 404 with no body read', async () => {
    s.sim.resetCalls();
    const none = await s.get(`/api/v1/profiles/${HANDLES.bob}/articles?format=json`, forwarded(2));
    assert.equal(none.status, 200);
    const body = (await none.json()) as TabBody;
    assert.deepEqual(body.posts, []);
    assert.match(body.markdown, /No Articles on this page\./);
    const unknown = await s.get(`/api/v1/profiles/nobody_here_xyz/articles?format=json`, forwarded(2));
    assert.equal(unknown.status, 404);
    assert.equal((await problemOf(unknown)).code, 'not_found');
    assert.equal(s.sim.calls({ target: 'x', path: 'TweetDetail' }), 0);
  });
});

describe('FxTwitter first, X as the account-backed fallback', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-xarticles-fb-'));
  let s: Stack;
  before(async () => {
    s = await startStack({
      THREADMARK_PROVIDERS: 'fxtwitter,x',
      THREADMARK_X_SESSIONS: writeSessions(dir, 'xarticles-fallback'),
      THREADMARK_TRUST_PROXY: 'true',
    });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('FxTwitter serves the tab while it answers; when its articles route fails X serves it, whole', async () => {
    s.sim.resetCalls();
    const fx = await s.get(`/api/v1/profiles/${HANDLES.alice}/articles?format=json`, forwarded(4));
    assert.equal(fx.status, 200);
    assert.equal(fx.headers.get('x-source'), 'fxtwitter');
    const fromFx = (await fx.json()) as TabBody;
    assertWhole(fromFx);
    assert.equal(s.sim.calls({ target: 'x', path: 'UserArticlesTweets' }), 0);

    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500, match: '/articles' });
    try {
      const res = await s.get(`/${HANDLES.alice}/articles?format=json&nocache=1`, forwarded(5));
      const text = await res.text();
      assert.equal(res.status, 200, text.slice(0, 300));
      assert.equal(res.headers.get('x-source'), 'x');
      const fromX = JSON.parse(text) as TabBody;
      assertWhole(fromX);
      assert.deepEqual(fromX.posts[0]!.article, fromFx.posts[0]!.article, 'one domain model, the same Article');
      assert.equal(s.sim.calls({ target: 'x', path: 'UserArticlesTweets' }), 1);
    } finally {
      s.sim.clearFaults();
    }
  });
});
