import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectionsJson, postJson, profileJson, searchJson } from '../../../src/render/json.ts';
import * as c from '../../fixtures/render/corpus.ts';

function roundTrip(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v));
}

function hasNull(v: unknown): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.some(hasNull);
  if (typeof v === 'object') return Object.values(v).some(hasNull);
  return false;
}

describe('JSON envelopes', () => {
  test('post envelope: markdown, post, thread, conversation, source, warnings; round-trips', () => {
    const read = c.conversationRead;
    const env = postJson(read, '# md');
    assert.deepEqual(Object.keys(env), ['markdown', 'post', 'thread', 'conversation', 'source', 'warnings']);
    const back = roundTrip(env) as typeof env;
    assert.deepEqual(
      back,
      roundTrip({
        markdown: '# md',
        post: read.requested,
        thread: read.thread,
        conversation: { parents: read.parents, replies: read.replies },
        source: 'syndication',
        warnings: read.warnings,
      }),
    );
    assert.equal(back.post.id, '1900000000000000001');
    assert.equal(typeof back.post.metrics.likes, 'number');
    assert.equal(back.conversation.replies[0]!.children[0]!.post.author.handle, 'carol');
    assert.ok(!hasNull(back));
  });

  test('list envelopes carry nextCursor only when there is one', () => {
    const withCursor = profileJson(c.profileRead(), 'md');
    assert.deepEqual(Object.keys(withCursor), [
      'markdown',
      'profile',
      'posts',
      'nextCursor',
      'page',
      'limit',
      'source',
      'warnings',
    ]);
    assert.equal(withCursor.nextCursor, 'c1.abc');
    const without = roundTrip(
      profileJson(c.profileRead({ nextCursor: undefined, continueUrl: undefined }), 'md'),
    ) as Record<string, unknown>;
    assert.ok(!('nextCursor' in without));
    assert.ok(!hasNull(without));

    const conn = roundTrip(connectionsJson(c.connectionsRead(), 'md')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(conn), [
      'markdown',
      'kind',
      'handle',
      'items',
      'nextCursor',
      'page',
      'limit',
      'source',
      'warnings',
    ]);
    const search = roundTrip(searchJson(c.searchRead(), 'md')) as {
      q: string;
      feed: string;
      items: { kind: string }[];
      page: number;
    };
    assert.equal(search.q, c.searchRead().q);
    assert.equal(search.feed, 'latest');
    assert.deepEqual(
      search.items.map((i) => i.kind),
      ['post', 'user', 'user', 'post'],
    );
    assert.equal(search.page, 2);
    assert.ok(!('nextCursor' in search));
  });
});
