// Thread semantics through the HTTP server: what `thread`, `context` and `replies` put in the answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.ts';
import { IDS, HANDLES } from '../../sim/corpus.ts';

interface ReplyNode {
  post: { id: string; author: { handle: string }; metrics?: { likes?: number }; createdAt: string };
  children?: ReplyNode[];
}
interface PostJson {
  thread: { id: string }[];
  conversation: { parents: { id: string }[]; replies: ReplyNode[] };
  warnings: string[];
}

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

async function read(id: string, query = ''): Promise<{ body: PostJson; headers: Headers }> {
  const res = await s.get(`/${HANDLES.alice}/status/${id}?format=json${query ? `&${query}` : ''}`);
  assert.equal(res.status, 200);
  return { body: (await res.json()) as PostJson, headers: res.headers };
}

const flatten = (nodes: ReplyNode[]): string[] => nodes.flatMap((n) => [n.post.id, ...flatten(n.children ?? [])]);
const rootReplies = [
  IDS.replies.bigTop,
  IDS.replies.carolTop,
  IDS.replies.bobTop,
  IDS.replies.daveTop,
  IDS.replies.reader1Top,
  IDS.replies.reader2Top,
  IDS.replies.reader4Top,
  IDS.replies.reader5Top,
  IDS.replies.reader6Top,
  IDS.replies.reader7Top,
];

describe('thread and conversation', () => {
  test('the default read of a middle post holds the whole self-thread, in order', async () => {
    const { body, headers } = await read(IDS.thread[2]!);
    assert.deepEqual(
      body.thread.map((p) => p.id),
      IDS.thread,
    );
    assert.equal(headers.get('x-warnings'), 'none');
  });

  test('the default read of the root gathers every reply page, ranked by likes, with nested answers', async () => {
    const { body, headers } = await read(IDS.threadRoot);
    assert.deepEqual(
      body.thread.map((p) => p.id),
      IDS.thread,
    );
    const top = body.conversation.replies;
    assert.deepEqual([...top.map((r) => r.post.id)].sort(), [...rootReplies].sort());
    const likes = top.map((r) => r.post.metrics?.likes ?? 0);
    assert.deepEqual(
      likes,
      [...likes].sort((a, b) => b - a),
      'ranked by likes',
    );
    const all = flatten(top);
    assert.ok(all.includes(IDS.replies.daveToCarol) && all.includes(IDS.replies.bobToAlice), 'nested replies kept');
    assert.equal(new Set(all).size, all.length, 'no reply twice');
    for (const id of IDS.thread) assert.ok(!all.includes(id), `${id} is part of the thread, not a reply`);
    assert.equal(Number(headers.get('x-post-count')), IDS.thread.length + all.length);
  });

  test('replies=recent orders top-level replies newest first', async () => {
    const { body } = await read(IDS.threadRoot, 'replies=recent');
    const times = body.conversation.replies.map((r) => Date.parse(r.post.createdAt));
    assert.equal(times.length, rootReplies.length);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
  });

  test('context=thread keeps only the author chain; replies=off drops replies', async () => {
    for (const q of ['context=thread', 'replies=off']) {
      const { body } = await read(IDS.threadRoot, q);
      assert.deepEqual(
        body.thread.map((p) => p.id),
        IDS.thread,
        q,
      );
      assert.deepEqual(body.conversation.replies, [], q);
    }
  });

  test('thread=off is the post alone; thread=N caps the count and says so', async () => {
    const off = await read(IDS.thread[4]!, 'thread=off');
    assert.deepEqual(
      off.body.thread.map((p) => p.id),
      [IDS.thread[4]],
    );
    assert.equal(off.headers.get('x-post-count'), '1');
    const five = await read(IDS.threadRoot, 'thread=5&context=thread');
    assert.deepEqual(
      five.body.thread.map((p) => p.id),
      IDS.thread.slice(0, 5),
    );
    assert.equal(five.headers.get('x-post-count'), '5');
    assert.match(five.headers.get('x-warnings') ?? '', /truncated/);
  });
});
