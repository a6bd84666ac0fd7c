// readPost remembers the assembled read per cached bundle: a hit (the same bundle object) skips assembly, while
// other options, another bundle and warnings of the read itself never see a read that is not theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assembledSize, readPost, type PostSource } from '../../../src/domain/read-post.ts';
import { ResponseCache } from '../../../src/stores/cache/responses.ts';
import type { ConversationBundle } from '../../../src/domain/models.ts';
import type { PostReadOptions } from '../../../src/domain/reads.ts';
import type { Sourced } from '../../../src/domain/sourced.ts';
import { parentPost, replies, selfThread } from '../../fixtures/render/corpus.ts';
import { FREE_PAYER } from '../../helpers/payer.ts';

const OPTS: PostReadOptions = {
  thread: 'full',
  context: 'full',
  replies: 'top',
  userinfo: 'off',
  full: false,
  nocache: false,
};

function bundle(): ConversationBundle {
  return {
    post: selfThread[0]!,
    ancestors: [parentPost],
    continuations: selfThread.slice(1),
    replies,
    repliesAvailable: true,
    threadAvailable: true,
  };
}

const assembled = new ResponseCache(8 * 1024 * 1024).slot('post-read', assembledSize);

function sourceOf(got: () => Sourced<ConversationBundle>): PostSource {
  return {
    post: async () => assert.fail('no single-post read expected'),
    conversation: async () => got(),
    assembled,
  };
}

test('the same bundle and options give the same read; other options and bundles their own', async () => {
  const b = bundle();
  const src = sourceOf(() => ({ value: b, source: 'fxtwitter', cache: 'hit', warnings: [] }));
  const policy = { mode: 'shared', payer: FREE_PAYER } as const;
  const first = await readPost(src, b.post.id, OPTS, policy);
  const again = await readPost(src, b.post.id, OPTS, policy);
  assert.equal(again.read, first.read);
  const trimmed = await readPost(src, b.post.id, { ...OPTS, thread: 2 }, policy);
  assert.notEqual(trimmed.read, first.read);
  assert.equal(trimmed.read.thread.length + trimmed.read.parents.length, 2);
  const noReplies = await readPost(src, b.post.id, { ...OPTS, replies: 'off' }, policy);
  assert.deepEqual(noReplies.read.replies, []);
  assert.ok(first.read.replies.length > 0);
  const other = await readPost(
    sourceOf(() => ({ value: bundle(), source: 'fxtwitter', cache: 'hit', warnings: [] })),
    b.post.id,
    OPTS,
    policy,
  );
  assert.notEqual(other.read, first.read);
  assert.deepEqual(other.read, first.read);
});

test('warnings of one read are its own and never reach the shared read', async () => {
  const b = bundle();
  let warnings: string[] = ['stale: upstream failed'];
  const src = sourceOf(() => ({ value: b, source: 'fxtwitter', cache: 'stale', warnings }));
  const policy = { mode: 'shared', payer: FREE_PAYER } as const;
  const stale = await readPost(src, b.post.id, OPTS, policy);
  assert.deepEqual(stale.read.warnings, ['stale: upstream failed']);
  warnings = [];
  const fresh = await readPost(src, b.post.id, OPTS, policy);
  assert.deepEqual(fresh.read.warnings, []);
  assert.deepEqual(stale.read.warnings, ['stale: upstream failed']);
});
