// The post use case without a server: what it asks the source for under each option, and how it assembles
// the parents, the author's chain and the replies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readPost, type PostSource } from '../../../src/domain/read-post.ts';
import type { ConversationBundle, Post, ReplyNode } from '../../../src/domain/models.ts';
import type { PostReadOptions } from '../../../src/domain/reads.ts';
import { notFound } from './failures.ts';
import { isNotFound } from '../../../src/domain/failures.ts';
import { FREE_PAYER } from '../../helpers/payer.ts';

const policy = { mode: 'shared', payer: FREE_PAYER } as const;
const FULL: PostReadOptions = {
  thread: 'full',
  context: 'full',
  replies: 'top',
  userinfo: 'off',
  full: false,
  nocache: false,
};

function post(id: string, handle: string, over: Partial<Post> = {}): Post {
  return {
    id,
    url: `https://x.com/${handle}/status/${id}`,
    author: { id: `u-${handle}`, handle, name: handle },
    createdAt: `2026-01-01T00:00:${id.slice(-2)}.000Z`,
    text: id,
    segments: [{ type: 'text', text: id }],
    media: [],
    metrics: {},
    ...over,
  };
}

// carol's question 10 ← alice 11 ← alice 12 (requested) ← alice 13 (continuation); replies by bob and carol.
const root = post('10', 'carol');
const ownParent = post('11', 'alice', { replyTo: { id: '10', handle: 'carol' } });
const requested = post('12', 'alice', { replyTo: { id: '11', handle: 'alice' } });
const continuation = post('13', 'alice', { replyTo: { id: '12', handle: 'alice' } });
const reply = (p: Post, children: ReplyNode[] = []): ReplyNode => ({ post: p, children });
const early = post('14', 'bob', { metrics: { likes: 5 }, replyTo: { id: '12', handle: 'alice' } });
const liked = post('15', 'carol', { metrics: { likes: 50 }, replyTo: { id: '12', handle: 'alice' } });

const POSTS = new Map([root, ownParent, requested, continuation].map((p) => [p.id, p]));

function bundle(over: Partial<ConversationBundle> = {}): ConversationBundle {
  return {
    post: requested,
    ancestors: [root, ownParent],
    continuations: [continuation],
    // The continuation also comes back among the replies; the read must not show it twice.
    replies: [reply(early), reply(continuation), reply(liked)],
    repliesAvailable: true,
    threadAvailable: true,
    ...over,
  };
}

function source(got: ConversationBundle = bundle()) {
  const calls: string[] = [];
  const src: PostSource & { calls: string[] } = {
    calls,
    async post(id) {
      calls.push(`post ${id}`);
      const value = POSTS.get(id);
      if (!value) throw notFound(`no post ${id}`);
      return { value, source: 'syndication', cache: 'miss', warnings: ['from a stale copy'] };
    },
    async conversation(id, o) {
      calls.push(`conversation ${id} ${o.ranking}${o.withReplies ? ' with replies' : ''}`);
      return { value: got, source: 'fxtwitter', cache: 'hit', warnings: [] };
    },
  };
  return src;
}

const ids = (posts: Post[]) => posts.map((p) => p.id);
const replyIds = (nodes: ReplyNode[]) => nodes.map((n) => n.post.id);

test('thread=off reads the single post only, with its source and warnings', async () => {
  const src = source();
  const { read, cache, settled } = await readPost(src, requested.id, { ...FULL, thread: 'off' }, policy);
  assert.deepEqual(src.calls, ['post 12']);
  assert.deepEqual([ids(read.thread), read.parents, read.replies, read.repliesMode], [['12'], [], [], 'off']);
  assert.deepEqual([read.source, read.warnings, cache, settled], ['syndication', ['from a stale copy'], 'miss', true]);
});

test("context=full: other authors' parents, the author's chain, replies ranked by likes without the chain", async () => {
  const src = source();
  const { read } = await readPost(src, requested.id, FULL, policy);
  assert.deepEqual(src.calls, ['conversation 12 top with replies']);
  assert.deepEqual(ids(read.parents), ['10']);
  assert.deepEqual(ids(read.thread), ['11', '12', '13']);
  assert.deepEqual(replyIds(read.replies), ['15', '14']);
  assert.deepEqual([read.requested.id, read.repliesMode, read.source, read.warnings], ['12', 'top', 'fxtwitter', []]);
});

test('a fallback that could not give all that was asked (thread, or replies asked for) makes the read partial', async () => {
  const partial = async (over: Partial<ConversationBundle>, opts = FULL) =>
    (await readPost(source(bundle(over)), requested.id, opts, policy)).partial;
  assert.equal(await partial({ fallback: true }), false);
  assert.equal(await partial({ fallback: true, repliesAvailable: false }), true);
  assert.equal(await partial({ fallback: true, repliesAvailable: false }, { ...FULL, replies: 'off' }), false);
  assert.equal(await partial({ fallback: true, threadAvailable: false }), true);
  // The same gaps from the deployment's first provider are what it can read, not trouble.
  assert.equal(await partial({ repliesAvailable: false, threadAvailable: false }), false);
});

test('replies=recent asks for the recent ranking and orders newest first; replies=off asks for none', async () => {
  const recent = source();
  const { read } = await readPost(recent, requested.id, { ...FULL, replies: 'recent' }, policy);
  assert.deepEqual(recent.calls, ['conversation 12 recent with replies']);
  assert.deepEqual(replyIds(read.replies), ['15', '14']);
  const bySeconds = await readPost(
    source(bundle({ replies: [reply(liked), reply(post('16', 'bob', { metrics: { likes: 0 } }))] })),
    requested.id,
    { ...FULL, replies: 'recent' },
    policy,
  );
  assert.deepEqual(replyIds(bySeconds.read.replies), ['16', '15']);
  const none = source();
  const off = await readPost(none, requested.id, { ...FULL, replies: 'off' }, policy);
  assert.deepEqual(none.calls, ['conversation 12 top']);
  assert.deepEqual([off.read.replies, off.read.repliesMode], [[], 'off']);
});

test('context=thread keeps only the author chain: no parents, no replies asked for', async () => {
  const src = source();
  const { read } = await readPost(src, requested.id, { ...FULL, context: 'thread' }, policy);
  assert.deepEqual(src.calls, ['conversation 12 top']);
  assert.deepEqual([ids(read.parents), ids(read.thread), read.replies], [[], ['11', '12', '13'], []]);
});

test('thread=N keeps the requested post and what follows it first, and says what it left out', async () => {
  const { read } = await readPost(source(), requested.id, { ...FULL, thread: 2 }, policy);
  assert.deepEqual([ids(read.parents), ids(read.thread), read.replies], [[], ['12', '13'], []]);
  assert.deepEqual(read.cut, {
    limit: 2,
    total: 6,
    thread: { kept: 2, total: 3 },
    parents: { kept: 0, total: 1 },
    replies: { kept: 0, total: 2 },
  });
});

test('what the provider could not see is said in the warnings', async () => {
  const { read } = await readPost(
    source(bundle({ threadAvailable: false, repliesAvailable: false, replies: [] })),
    requested.id,
    FULL,
    policy,
  );
  assert.deepEqual(read.warnings, [
    'thread unavailable from fxtwitter: showing the post and what it could see',
    'replies unavailable from fxtwitter',
  ]);
});

test("the source's not_found is the read's", async () => {
  await assert.rejects(readPost(source(), '99', { ...FULL, thread: 'off' }, policy), (e: unknown) => isNotFound(e));
});
