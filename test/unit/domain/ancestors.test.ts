// The walk up a conversation: bundle posts first, single reads for the rest, and how it ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ancestorChain, type AncestorSource } from '../../../src/domain/ancestors.ts';
import { readPost, type PostSource } from '../../../src/domain/read-post.ts';
import type { ConversationBundle, Post } from '../../../src/domain/models.ts';
import { notFound, upstreamFailed } from './failures.ts';
import { FREE_PAYER } from '../../helpers/payer.ts';

const policy = { mode: 'shared', payer: FREE_PAYER } as const;

function post(id: string, handle: string, parent?: { id?: string; handle: string }): Post {
  return {
    id,
    url: `https://x.com/${handle}/status/${id}`,
    author: { id: `u-${handle}`, handle, name: handle },
    createdAt: '2026-01-01T00:00:00.000Z',
    text: id,
    segments: [{ type: 'text', text: id }],
    media: [],
    metrics: {},
    ...(parent ? { replyTo: parent } : {}),
  };
}

/** a1 <- b2 <- a3 <- c4 (the requested post), all readable one by one. */
const posts = new Map([
  ['1', post('1', 'a')],
  ['2', post('2', 'b', { id: '1', handle: 'a' })],
  ['3', post('3', 'a', { id: '2', handle: 'b' })],
  ['4', post('4', 'c', { id: '3', handle: 'a' })],
]);

function bundle(ancestors: Post[] = [], threadAvailable = false): ConversationBundle {
  return { post: posts.get('4')!, ancestors, continuations: [], replies: [], repliesAvailable: false, threadAvailable };
}

function source(fail: (id: string) => Error | undefined = () => undefined): AncestorSource & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async post(id) {
      reads.push(id);
      const err = fail(id);
      if (err) throw err;
      return { value: posts.get(id)!, source: 'test', cache: 'miss', warnings: [] };
    },
  };
}

test('posts the bundle holds are not read again; the walk reads the rest up to the root', async () => {
  const src = source();
  const chain = await ancestorChain(src, bundle([posts.get('3')!], true), 'full', policy);
  assert.deepEqual(
    chain.posts.map((p) => p.id),
    ['1', '2', '3'],
  );
  assert.deepEqual(src.reads, ['2', '1']);
  assert.equal(chain.end, 'root');
});

test("a single-post source's parent carries no reply fields: it is read again to learn where it leads", async () => {
  const bare = { ...posts.get('3')! };
  delete bare.replyTo;
  const src = source();
  const chain = await ancestorChain(src, bundle([bare]), 'full', policy);
  assert.deepEqual(
    chain.posts.map((p) => p.id),
    ['1', '2', '3'],
  );
  assert.deepEqual(src.reads, ['3', '2', '1']);
});

test('context=thread reads only the author own replies to themselves', async () => {
  const src = source();
  const chain = await ancestorChain(src, bundle(), 'thread', policy);
  assert.deepEqual(chain.posts, []);
  assert.deepEqual(src.reads, []);
});

test('not found is settled and remembered per bundle; a passing failure is neither', async () => {
  const gone = source((id) => (id === '2' ? notFound('deleted') : undefined));
  const b = bundle();
  const first = await ancestorChain(gone, b, 'full', policy);
  assert.deepEqual([first.posts.map((p) => p.id), first.end, first.settled], [['3'], 'unavailable', true]);
  assert.equal(await ancestorChain(gone, b, 'full', policy), first, 'remembered');

  const flaky = source((id) => (id === '2' ? upstreamFailed() : undefined));
  const b2 = bundle();
  const once = await ancestorChain(flaky, b2, 'full', policy);
  assert.deepEqual([once.end, once.settled], ['unavailable', false]);
  await ancestorChain(flaky, b2, 'full', policy);
  assert.equal(flaky.reads.filter((id) => id === '2').length, 2, 'tried again on the next read');
});

test('a spent budget ends the walk as cut short, said in the warnings', async () => {
  const src: PostSource = {
    ...source(),
    budget: () => ({ expired: true }),
    conversation: async () => ({ value: bundle(), source: 'test', cache: 'miss', warnings: [] }),
  };
  const { read, settled } = await readPost(
    src,
    '4',
    { thread: 'full', context: 'full', replies: 'off', userinfo: 'off', full: false, nocache: false },
    policy,
  );
  assert.equal(settled, false);
  assert.equal(read.earlier, 'cut_short');
  assert.deepEqual(read.parents, []);
  assert.ok(read.warnings.some((w) => /not read: the upstream time ran out/.test(w)));
});

test("context=thread follows a parent known only by id (X left out its handle) and keeps it only when it is the author's", async () => {
  // b1 <- a2 <- a3 (requested); both replies name their parent by id alone.
  const own = new Map([
    ['1', post('1', 'b')],
    ['2', post('2', 'a', { id: '1', handle: '' })],
    ['3', post('3', 'a', { id: '2', handle: '' })],
  ]);
  const reads: string[] = [];
  const src: AncestorSource = {
    async post(id) {
      reads.push(id);
      return { value: own.get(id)!, source: 'test', cache: 'miss', warnings: [] };
    },
  };
  const b: ConversationBundle = {
    post: own.get('3')!,
    ancestors: [],
    continuations: [],
    replies: [],
    repliesAvailable: false,
    threadAvailable: false,
  };
  const thread = await ancestorChain(src, b, 'thread', policy);
  assert.deepEqual(
    thread.posts.map((p) => p.id),
    ['2'],
    "the author's own parent, not b's post above it",
  );
  const full = await ancestorChain(src, b, 'full', policy);
  assert.deepEqual(
    full.posts.map((p) => p.id),
    ['1', '2'],
  );
});
