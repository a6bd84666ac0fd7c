// with_replies and with_reposts on the profile routes, through the real server and simulator: off by default (the
// contract's "recent original posts", a self-thread's continuations included), each kind labelled when asked for,
// cursors tied to the choice. From X the replies come from the profile's Replies tab, as from FxTwitter.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { mcpCall } from '../helpers/mcp.ts';

interface ProfileJson {
  markdown: string;
  includes?: { replies: boolean; reposts: boolean };
  posts: { id: string; author: { handle: string }; replyTo?: { handle: string }; repostOf?: { id: string } }[];
  nextCursor?: string;
  warnings: string[];
}

describe('timeline options', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(async () => {
    await s.close();
  });
  const read = async (query: string) => {
    const res = await s.get(`/api/v1/profiles/${HANDLES.alice}?format=json&${query}`);
    assert.equal(res.status, 200, query);
    return (await res.json()) as ProfileJson;
  };

  test("by default the account's own posts: originals and its self-thread, no replies to others", async () => {
    const json = await read('');
    assert.ok(json.posts.length > 0);
    assert.ok(json.posts.every((p) => (!p.replyTo || p.replyTo.handle === HANDLES.alice) && !p.repostOf));
    assert.equal(json.includes, undefined);
    assert.match(json.markdown, /^## Recent posts$/m);
  });

  test('replies and reposts between original posts never leave a page empty while more follow', async () => {
    const walk = async (query: string) => {
      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const json = await read(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        pages.push(json.posts.map((p) => p.id));
        cursor = json.nextCursor;
      } while (cursor && pages.length < 30);
      assert.equal(cursor, undefined, `${query}: the walk ends`);
      return pages;
    };
    const all = (await walk('limit=20')).flat();
    assert.ok(all.length > 5);
    for (const limit of [2, 3, 5]) {
      const pages = await walk(`limit=${limit}`);
      assert.deepEqual(pages.flat(), all, `limit=${limit}: every original post once, in order`);
      const sizes = pages.map((p) => p.length);
      // A page is cut from one upstream page of the timeline, so it can be short where one ends; never empty.
      assert.ok(
        sizes.every((n) => n >= 1 && n <= limit),
        `limit=${limit}: pages ${sizes.join(',')}`,
      );
      assert.ok(pages.length <= 2 * Math.ceil(all.length / limit), `limit=${limit}: ${pages.length} pages`);
    }
  });

  test('with_replies adds the replies, labelled', async () => {
    const json = await read('with_replies=true');
    const ids = json.posts.map((p) => p.id);
    assert.ok(ids.includes(IDS.replies.aliceToBob) && ids.includes(IDS.replies.aliceToDave));
    assert.ok(json.posts.every((p) => !p.repostOf));
    assert.deepEqual(json.includes, { replies: true, reposts: false });
    assert.match(json.markdown, /^## Recent posts and replies$/m);
    assert.match(json.markdown, /Replying to \[@bob\]/);
  });

  test('with_reposts adds the reposts, labelled', async () => {
    const json = await read('with_reposts=1');
    const reposts = json.posts.filter((p) => p.repostOf);
    assert.ok(reposts.some((p) => p.repostOf!.id === IDS.communityNote));
    assert.ok(json.posts.every((p) => !p.replyTo || p.replyTo.handle === HANDLES.alice || p.repostOf));
    assert.match(json.markdown, /^## Recent posts and reposts$/m);
    assert.match(json.markdown, /↻ Reposted by/);
  });

  test('both at once', async () => {
    const json = await read('with_replies=yes&with_reposts=true');
    assert.ok(json.posts.some((p) => p.repostOf) && json.posts.some((p) => p.replyTo && !p.repostOf));
    assert.match(json.markdown, /^## Recent posts, replies and reposts$/m);
  });

  test('a cursor belongs to its choice of options, and Continue → keeps them', async () => {
    const first = await read('with_replies=true&limit=3');
    assert.ok(first.nextCursor);
    assert.match(first.markdown, /with_replies=true/);
    const next = await s.get(
      `/api/v1/profiles/${HANDLES.alice}?with_replies=true&limit=3&cursor=${encodeURIComponent(first.nextCursor)}`,
    );
    assert.equal(next.status, 200);
    const other = await s.get(
      `/api/v1/profiles/${HANDLES.alice}?limit=3&cursor=${encodeURIComponent(first.nextCursor)}`,
    );
    assert.equal(other.status, 400);
    assert.equal((await problemOf(other)).code, 'invalid_cursor');
  });

  test('inside a date window replies come from search; reposts cannot, and the answer says so', async () => {
    const json = await read('since=2026-03-02&until=2026-03-03&with_replies=true&with_reposts=true');
    assert.ok(json.posts.some((p) => p.id === IDS.replies.aliceToBob));
    assert.ok(json.warnings.includes('reposts are not available inside a date window'));
  });

  test('bad values are 400 invalid_flag', async () => {
    for (const q of ['with_replies=maybe', 'with_reposts=2', 'with_replies=']) {
      const res = await s.get(`/${HANDLES.alice}?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal((await problemOf(res)).code, 'invalid_flag', q);
    }
  });
});

describe('timeline options from X: the Replies tab (UserTweetsAndReplies)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-replies-'));
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: writeSessions(dir, 'replies') });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const replies = () => s.sim.calls({ target: 'x', path: 'UserTweetsAndReplies' });
  const R = IDS.replies;

  test('with_replies reads the Replies tab: the replies to others, labelled, without the posts they answer', async () => {
    const before = replies();
    const res = await s.get(`/api/v1/profiles/${HANDLES.alice}?format=json&with_replies=true`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'x');
    const json = (await res.json()) as ProfileJson;
    const ids = json.posts.map((p) => p.id);
    assert.ok(ids.includes(R.aliceToBob) && ids.includes(R.aliceToDave), ids.join(','));
    assert.ok(!ids.includes(R.bobTop) && !ids.includes(R.daveTop), 'the posts answered are context, not the timeline');
    assert.ok(json.posts.every((p) => p.author.handle === HANDLES.alice));
    assert.deepEqual(json.posts.find((p) => p.id === R.aliceToBob)!.replyTo, { id: R.bobTop, handle: 'bob' });
    assert.match(json.markdown, /Replying to \[@bob\]/);
    assert.ok(replies() > before);
  });

  test('without replies the Posts tab alone is read', async () => {
    const before = replies();
    const json = (await (await s.get(`/api/v1/profiles/${HANDLES.alice}?format=json&nocache=1`)).json()) as ProfileJson;
    assert.ok(!json.posts.some((p) => p.id === R.aliceToBob));
    assert.equal(replies(), before);
  });

  test('the with_replies feed, the export and the MCP tool read it too', async () => {
    const rss = await (await s.get(`/${HANDLES.alice}/with_replies/rss`)).text();
    assert.ok(rss.includes(`/status/${R.aliceToBob}`), 'feed kind=with_replies');
    const exported = (await (
      await s.get(`/api/v1/profiles/${HANDLES.alice}/posts?format=json&with_replies=true&max_posts=50`)
    ).json()) as { posts: { id: string }[] };
    assert.ok(
      exported.posts.some((p) => p.id === R.aliceToDave),
      'export with_replies',
    );
    const md = await mcpCall(s.url, 'read_profile', { handle: HANDLES.alice, with_replies: true });
    assert.match(md, /Replying to \[@dave\]/);
  });
});
