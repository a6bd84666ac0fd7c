import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isUnavailable, type Post } from '../../../src/domain/models.ts';
import { nestReplies, parseStatus, parseUser } from '../../../src/providers/fxtwitter/parse.ts';
import { fixture } from './fixtures.ts';

test('real v1 capture: photo post, media t.co removed, counts and times mapped', () => {
  const p = parseStatus(fixture('fxtwitter/v1-status-1972284213232861204.json').tweet);
  assert.equal(p.id, '1972284213232861204');
  assert.equal(p.url, 'https://x.com/amXFreeze/status/1972284213232861204');
  assert.equal(p.createdAt, '2025-09-28T12:56:14.000Z');
  assert.equal(
    p.text,
    'Grok Code leads with 57.6% of coding traffic on OpenRouter, more than every other AI code generator combined\n\nGrok Code Fast 1 ranks #1\nGrok 4 Fast is at #4',
  );
  assert.deepEqual(p.media, [
    { kind: 'photo', url: 'https://pbs.twimg.com/media/G170UHFWIAAVoHO.jpg?name=orig', width: 1285, height: 834 },
  ]);
  assert.deepEqual(p.metrics, { likes: 1194, reposts: 229, replies: 253, views: 20406530, bookmarks: 247 });
  assert.equal(p.author.posts, 20902);
  assert.equal(p.author.joined, '2024-07-30T15:42:27.000Z');
  assert.equal(p.author.website, 'http://buymeacoffee.com/xfreeze');
  assert.equal(p.source, 'Twitter Web App');
  assert.equal(p.replyTo, undefined);
});

test('real v1 capture: three photos once each (mosaic skipped) and a quoted note tweet with hashtags and a link', () => {
  const p = parseStatus(fixture('fxtwitter/v1-status-1972518817797669282.json').tweet);
  assert.equal(p.media.length, 3);
  assert.ok(p.media.every((m) => m.kind === 'photo' && m.url.startsWith('https://pbs.twimg.com/media/')));
  assert.equal(p.text, 'this is by far one of the most beautiful character demos hoyoverse has ever made.');
  const q = p.quote as Post;
  assert.ok(q && !isUnavailable(q));
  assert.equal(q.author.handle, 'GenshinImpact');
  assert.ok(q.text.includes('https://youtu.be/bxya0iOjQMk'));
  assert.ok(q.text.endsWith('the source of this fortune.'));
  assert.deepEqual(
    q.segments.filter((s) => s.type !== 'text'),
    [
      { type: 'hashtag', text: '#GenshinImpact', tag: 'GenshinImpact' },
      { type: 'hashtag', text: '#Flins', tag: 'Flins' },
      { type: 'link', text: 'https://youtu.be/bxya0iOjQMk', href: 'https://youtu.be/bxya0iOjQMk' },
    ],
  );
  // The YouTube player embed has no card of its own; it is kept as a link preview.
  assert.deepEqual(q.card, {
    url: 'https://www.youtube.com/embed/bxya0iOjQMk',
    imageUrl: 'https://img.youtube.com/vi/bxya0iOjQMk/maxresdefault.jpg',
  });
});

test('real v1 profile: avatar upsized, verification and counts', () => {
  const a = parseUser(fixture('fxtwitter/v1-profile-elonmusk.json').user);
  assert.equal(a.handle, 'elonmusk');
  assert.equal(a.avatarUrl, 'https://pbs.twimg.com/profile_images/1936002956333080576/kqqe2iWO_200x200.jpg');
  assert.equal(a.verified, true);
  assert.equal(a.followers, 226854873);
  assert.equal(a.posts, 86573);
  assert.equal(a.bio, undefined);
  assert.equal(a.website, undefined);
});

test('v2 focal post: display range, code points after emoji, escapes, quote permalink dropped, tombstone quote, poll, media, note', () => {
  const c = fixture('fxtwitter/v2-conversation-1900000000000000003.json');
  const p = parseStatus(c.status, { now: Date.parse('2026-01-01T00:05:00Z') });
  assert.equal(p.text, 'Part 3 🚀🚀 Q&A with @bob, $TSLA and <https://example.com/page> #caching');
  assert.deepEqual(
    p.segments.filter((s) => s.type !== 'text').map((s) => s.type),
    ['mention', 'cashtag', 'link', 'hashtag'],
  );
  assert.deepEqual(p.replyTo, { id: '1900000000000000002', handle: 'alice_dev' });
  assert.deepEqual(p.quote, {
    unavailable: true,
    id: '1899999999999999999',
    reason: 'deleted',
    message: 'This post was deleted by the post author.',
  });
  assert.deepEqual(p.poll, {
    choices: [
      { label: 'LRU', votes: 30, percent: 60 },
      { label: 'LFU', votes: 20, percent: 40 },
    ],
    totalVotes: 50,
    endsAt: '2026-01-02T00:03:00.000Z',
    final: true,
  });
  assert.deepEqual(
    p.media.map((m) => [m.kind, m.altText ?? m.durationSeconds]),
    [
      ['photo', 'A diagram of the cache layers'],
      ['video', 12.5],
    ],
  );
  assert.equal(p.media[1]?.thumbnailUrl, 'https://pbs.twimg.com/ext_tw_video_thumb/78/pu/img/clip.jpg');
  assert.equal(p.communityNote, 'Context: LFU & LRU are both valid.');
  assert.equal(p.author.bio, 'Building things in public. Blog: https://alice.example/blog and @bob');
  assert.deepEqual(
    p.author.bioSegments?.map((s) => s.type),
    ['text', 'link', 'text', 'mention'],
  );
});

test('poll percentages are derived from votes when the upstream omits them, and an open poll is not final', () => {
  const c = fixture('fxtwitter/v2-conversation-1900000000000000003.json');
  c.status.poll = {
    choices: [
      { label: 'a', count: 1 },
      { label: 'b', count: 2 },
    ],
    total_votes: 3,
    ends_at: '2030-01-01T00:00:00Z',
    time_left_en: '3 years left',
  };
  const p = parseStatus(c.status, { now: Date.parse('2026-01-01T00:00:00Z') });
  assert.deepEqual(
    p.poll?.choices.map((x) => x.percent),
    [33.3, 66.7],
  );
  assert.equal(p.poll?.final, false);
});

test('article: Draft.js blocks with code-point offsets, styles, links from block data, lists, media, code, divider, embedded post', () => {
  const p = parseStatus(fixture('fxtwitter/v2-status-article-1900000000000000020.json').status);
  assert.equal(p.text, 'Caching, properly\n\n𝕏 marks the spot', 'the readable text, not the bare article link');
  const a = p.article!;
  assert.equal(a.title, 'Caching, properly');
  assert.equal(a.coverUrl, 'https://pbs.twimg.com/media/cover.jpg');
  assert.deepEqual(a.blocks[0], {
    type: 'paragraph',
    spans: [
      { text: '𝕏 marks the spot: ' },
      { text: 'caching', bold: true },
      { text: ' is hard, says ' },
      { text: 'x.com', href: 'https://x.com' },
    ],
  });
  assert.deepEqual(
    a.blocks.map((b) => b.type),
    ['paragraph', 'heading', 'list', 'list', 'quote', 'image', 'code', 'divider', 'paragraph'],
  );
  assert.deepEqual(a.blocks[2], {
    type: 'list',
    ordered: false,
    items: [[{ text: 'LRU', italic: true }], [{ text: 'LFU' }]],
  });
  assert.deepEqual(a.blocks[5], {
    type: 'image',
    url: 'https://pbs.twimg.com/media/layers.jpg',
  });
  assert.deepEqual(a.blocks[6], { type: 'code', text: 'cache.get(key)', language: 'ts' });
});

test('a repost becomes a wrapper by the reposter around the original', () => {
  const list = fixture('fxtwitter/v2-statuses-alice_dev.json');
  const p = parseStatus(list.results[1]);
  assert.equal(p.author.handle, 'bob');
  assert.equal(p.author.avatarUrl, 'https://pbs.twimg.com/profile_images/2222/b_200x200.jpg');
  assert.equal(p.repostOf?.author.handle, 'alice_dev');
  assert.equal(p.repostOf?.text, 'Why caching matters 🧵 #caching');
});

test('nestReplies builds trees from replying_to and keeps unknown parents at the top level', () => {
  const c = fixture('fxtwitter/v2-conversation-1900000000000000003.json');
  const replies = c.replies
    .filter((r: { id: string }) => r.id !== '1900000000000000004')
    .map((r: never) => parseStatus(r));
  const tree = nestReplies(replies);
  const shape = (nodes: ReturnType<typeof nestReplies>): unknown =>
    nodes.map((n) => [n.post.author.handle, shape(n.children)]);
  assert.deepEqual(shape(tree), [
    ['bob', [['carol', [['bob', []]]]]],
    ['dave', []],
  ]);
  assert.equal(tree[0]?.children[0]?.post.text, 'agreed > all');
});

test('nestReplies survives a reply cycle in bad data', () => {
  const c = fixture('fxtwitter/v2-conversation-1900000000000000003.json');
  const a = parseStatus(c.replies[0]);
  const b = parseStatus(c.replies[2]);
  a.replyTo = { id: b.id, handle: 'carol' };
  b.replyTo = { id: a.id, handle: 'bob' };
  const tree = nestReplies([a, b]);
  const count = (nodes: ReturnType<typeof nestReplies>): number => nodes.reduce((n, x) => n + 1 + count(x.children), 0);
  assert.equal(count(tree), 2);
  assert.ok(tree.length >= 1);
});

test('a reply whose parent handle X left out keeps the parent id FxTwitter v1 still gives; v2 gives neither', () => {
  // FxEmbed's legacy (v1) shape sets replying_to and replying_to_status independently; v2 needs both for its object.
  const v1 = { ...fixture('fxtwitter/v1-status-1972284213232861204.json').tweet, replying_to: null };
  assert.deepEqual(parseStatus({ ...v1, replying_to_status: '1972284000000000000' }).replyTo, {
    id: '1972284000000000000',
    handle: '',
  });
  assert.equal(parseStatus(v1).replyTo, undefined);
});
