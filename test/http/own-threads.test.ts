// An account's own posts include its self-thread continuations (replies to itself) wherever they are listed:
// the profile page, the account-id route, the export, the feeds and the MCP tool, through the real server and
// simulator. Replies to other people stay behind with_replies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getCorpus, HANDLES, IDS } from '../../sim/corpus.ts';
import { mcpCall } from '../helpers/mcp.ts';
import { startStack, type Stack } from '../helpers/stack.ts';

const corpus = getCorpus();

interface Listed {
  id: string;
  type?: string;
  replyTo?: { handle: string };
  repostOf?: unknown;
}

/** alice's timeline as the simulator holds it: her posts, her replies to herself, no replies to others or reposts. */
function aliceOwnPosts(): string[] {
  const alice = corpus.usersByHandle.get(HANDLES.alice)!;
  return corpus.timelines
    .get(alice.id)!
    .filter((e) => {
      const p = corpus.posts.get(e.postId)!;
      return !e.repostedBy && (!p.replyToId || corpus.posts.get(p.replyToId)!.authorId === alice.id);
    })
    .map((e) => e.postId);
}

const repliesToOthers = [IDS.replies.aliceToBob, IDS.replies.aliceToDave];

describe("an account's own threads", () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_CACHE_TTL_S: '0' });
  });
  after(() => s.close());

  const walkProfile = async (path: string, query = ''): Promise<{ posts: Listed[]; markdown: string[] }> => {
    const posts: Listed[] = [];
    const markdown: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await s.get(`${path}?format=json${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.status, 200);
      const json = (await res.json()) as { posts: Listed[]; nextCursor?: string; markdown: string };
      posts.push(...json.posts);
      markdown.push(json.markdown);
      cursor = json.nextCursor;
    } while (cursor && markdown.length < 20);
    return { posts, markdown };
  };

  test('the profile lists every post of the self-thread and none of the replies to others', async () => {
    const expected = aliceOwnPosts();
    assert.ok(
      IDS.thread.every((id) => expected.includes(id)),
      'the corpus has the whole self-thread',
    );
    for (const path of [
      `/api/v1/profiles/${HANDLES.alice}`,
      `/api/v1/users/${corpus.usersByHandle.get(HANDLES.alice)!.id}`,
    ]) {
      const { posts, markdown } = await walkProfile(path);
      assert.deepEqual(
        posts.map((p) => p.id),
        expected,
        path,
      );
      assert.ok(posts.every((p) => !p.repostOf && (!p.replyTo || p.replyTo.handle === HANDLES.alice)));
      assert.match(
        markdown[0]!,
        new RegExp(`\\[Thread\\]\\(http://threadmark\\.test/alice_dev/status/${IDS.threadLast}\\)`),
      );
    }
    const all = (await walkProfile(`/api/v1/profiles/${HANDLES.alice}`, '&with_replies=true')).posts.map((p) => p.id);
    assert.ok(repliesToOthers.every((id) => all.includes(id)));
    assert.equal(all.length, expected.length + repliesToOthers.length);
  });

  test('the export holds the same posts as the profile: the whole self-thread, no replies to others', async () => {
    const res = await s.get(`/api/v1/profiles/${HANDLES.alice}/posts`);
    assert.equal(res.status, 200);
    const lines = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Listed & { reason?: string; posts?: number });
    const posts = lines.slice(0, -1);
    assert.deepEqual(
      posts.map((p) => p.id),
      aliceOwnPosts(),
    );
    assert.deepEqual(lines.at(-1), { type: 'end', reason: 'end_of_timeline', posts: aliceOwnPosts().length });

    const withReplies = await s.get(`/api/v1/profiles/${HANDLES.alice}/posts?format=json&with_replies=true`);
    const doc = (await withReplies.json()) as { posts: Listed[] };
    assert.equal(doc.posts.length, aliceOwnPosts().length + repliesToOthers.length);
  });

  test('the profile feed and the MCP tool list the same own posts', async () => {
    const feed = (await (await s.get(`/api/v1/profiles/${HANDLES.alice}/feed?type=json`)).json()) as {
      items: { url: string }[];
    };
    const inFeed = feed.items.map((i) => i.url.split('/').at(-1));
    for (const id of IDS.thread) assert.ok(inFeed.includes(id), `feed has ${id}`);
    const text = await mcpCall(s.url, 'read_profile', { handle: HANDLES.alice });
    assert.match(text, new RegExp(`/status/${IDS.threadLast}\\b`), 'the newest continuation is on the first page');
    assert.doesNotMatch(text, new RegExp(`/status/(${repliesToOthers.join('|')})\\b`));
  });
});
