// The feed filter rules on their own: term parsing, whole-word matching on text, link targets and alt texts,
// reposts judged by what they show, and inputs that must be refused or stay cheap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FilterSyntaxError, keeps, NO_FILTER, parseTerms, type FeedFilter } from '../../../src/domain/feed-filters.ts';
import { post, repost } from './posts.ts';

const f = (extra: Partial<FeedFilter>): FeedFilter => ({ ...NO_FILTER, ...extra });

test('terms: words and quoted phrases, lower-cased, separated by spaces or commas, repeats once', () => {
  assert.deepEqual(parseTerms('Cache, "Stale  IF error"  ttl cache'), ['cache', 'stale if error', 'ttl']);
  assert.deepEqual(parseTerms('a"b c"'), ['a', 'b c']);
  for (const bad of [
    '',
    '  , ',
    '"open',
    '""',
    `${'x'.repeat(101)}`,
    Array.from({ length: 21 }, (_, i) => `w${i}`).join(' '),
  ])
    assert.throws(() => parseTerms(bad), FilterSyntaxError, JSON.stringify(bad.slice(0, 20)));
  assert.equal(parseTerms('x'.repeat(100))[0]!.length, 100);
});

test('whole words, case-insensitive; punctuation at a term edge needs no boundary', () => {
  const p = post('1', 'ann', 0, { text: 'Caching at #scale with C++ and @bob, naïve café.' });
  assert.ok(keeps(f({ include: ['caching'] }), p));
  assert.ok(!keeps(f({ include: ['cach'] }), p), 'not a word of the text');
  assert.ok(!keeps(f({ include: ['cache'] }), p));
  assert.ok(keeps(f({ include: ['scale'] }), p), 'a hashtag is a word');
  assert.ok(keeps(f({ include: ['#scale'] }), p));
  assert.ok(keeps(f({ include: ['c++'] }), p));
  assert.ok(keeps(f({ include: ['café'] }), p), 'letters beyond ASCII');
  assert.ok(!keeps(f({ include: ['caf'] }), p), 'é is a letter, not a boundary');
  assert.ok(keeps(f({ include: ['with c++ and'] }), p), 'a phrase');
  assert.ok(!keeps(f({ exclude: ['@bob'] }), p));
});

test('link targets and alt texts are matched; text only what the post shows', () => {
  const p = post('1', 'ann', 0, {
    text: 'see this',
    segments: [{ type: 'link', text: 'example.com/…', href: 'https://example.com/notes/ttl-jitter' }],
    media: [{ kind: 'photo', url: 'https://a/b.jpg', altText: 'Diagram of cache layers' }],
  });
  assert.ok(keeps(f({ include: ['ttl-jitter'] }), p));
  assert.ok(keeps(f({ include: ['example.com'] }), p));
  assert.ok(keeps(f({ include: ['diagram'] }), p));
  assert.ok(!keeps(f({ include: ['notes/ttl'] }), post('2', 'ann', 0, { text: 'notes' })));
});

test('media, counts and languages; a repost is judged by the post it shows', () => {
  const liked = post('1', 'ann', 0, {
    metrics: { likes: 50, reposts: 3 },
    lang: 'pt-BR',
    media: [{ kind: 'video', url: 'https://a/v.mp4' }],
  });
  const plain = post('2', 'ann', 1, { metrics: {} });
  assert.ok(keeps(f({ media: 'only' }), liked) && !keeps(f({ media: 'only' }), plain));
  assert.ok(!keeps(f({ media: 'none' }), liked) && keeps(f({ media: 'none' }), plain));
  assert.ok(keeps(f({ minLikes: 50 }), liked) && !keeps(f({ minLikes: 51 }), liked));
  assert.ok(!keeps(f({ minLikes: 1 }), plain), 'unknown counts are zero');
  assert.ok(keeps(f({ minReposts: 3 }), liked) && !keeps(f({ minReposts: 4 }), liked));
  assert.ok(keeps(f({ lang: ['pt'] }), liked) && !keeps(f({ lang: ['en'] }), liked));
  assert.ok(!keeps(f({ lang: ['en'] }), plain), 'unknown language is left out');
  const shared = repost('bob', liked);
  assert.ok(keeps(f({ minLikes: 50, media: 'only', lang: ['pt'] }), shared));
});

test('matching stays linear on hostile input', () => {
  const p = post('1', 'ann', 0, { text: 'a'.repeat(100_000) });
  const terms = Array.from({ length: 20 }, (_, i) => 'a'.repeat(99) + String(i));
  const t0 = performance.now();
  assert.ok(!keeps(f({ include: terms }), p));
  // Generous: a backtracking matcher would take minutes, indexOf scans take milliseconds.
  assert.ok(performance.now() - t0 < 5000);
});
