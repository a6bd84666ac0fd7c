import { test } from 'node:test';
import assert from 'node:assert/strict';
import { segmentsFromRaw, textOf, unescapeHtml } from '../../../src/providers/shared/segments.ts';

test('indices count code points, so an emoji before a facet does not shift it', () => {
  const text = '🚀🚀 hi @bob #tag';
  // Code points: each rocket is one; @bob starts at 6.
  const segs = segmentsFromRaw({
    text,
    facets: [
      { type: 'mention', start: 6, end: 10, original: 'bob' },
      { type: 'hashtag', start: 11, end: 15, original: 'tag' },
    ],
  });
  assert.deepEqual(segs, [
    { type: 'text', text: '🚀🚀 hi ' },
    { type: 'mention', text: '@bob', handle: 'bob' },
    { type: 'text', text: ' ' },
    { type: 'hashtag', text: '#tag', tag: 'tag' },
  ]);
});

test('UTF-16 offsets from a relay are recognised too', () => {
  const text = '🚀 see @bob';
  // UTF-16: the rocket is two units, so @bob sits at 7..11 (code points 6..10).
  const segs = segmentsFromRaw({ text, facets: [{ type: 'mention', start: 7, end: 11, original: 'bob' }] });
  assert.deepEqual(segs[1], { type: 'mention', text: '@bob', handle: 'bob' });
  assert.equal(textOf(segs), text);
});

test('a facet whose indices are off is found by its text, and one that matches nothing is dropped', () => {
  const segs = segmentsFromRaw({
    text: 'go to https://t.co/abc now',
    facets: [
      { type: 'url', start: 2, end: 21, original: 'https://t.co/abc', href: 'https://example.com/' },
      { type: 'hashtag', start: 0, end: 3, original: 'missing' },
    ],
  });
  assert.deepEqual(segs, [
    { type: 'text', text: 'go to ' },
    { type: 'link', text: 'https://example.com/', href: 'https://example.com/' },
    { type: 'text', text: ' now' },
  ]);
});

test('escaped text is unescaped after slicing, the display range hides reply mentions and media links go', () => {
  const raw = '@alice Q&amp;A &lt;3 https://t.co/med';
  const segs = segmentsFromRaw({
    text: raw,
    range: [7, 20],
    facets: [
      { type: 'mention', start: 0, end: 6, original: 'alice' },
      { type: 'media', start: 21, end: 37, original: 'https://t.co/med' },
    ],
  });
  assert.deepEqual(segs, [{ type: 'text', text: 'Q&A <3' }]);
});

test('a display range that overshoots (UTF-16 end on emoji text) is clamped', () => {
  const segs = segmentsFromRaw({ text: 'done 🧵', range: [0, 7], facets: [] });
  assert.equal(textOf(segs), 'done 🧵');
});

test('fullwidth sigils still match their facet', () => {
  const segs = segmentsFromRaw({ text: 'hi ＠bob', facets: [{ type: 'mention', start: 3, end: 7, original: 'bob' }] });
  assert.deepEqual(segs[1], { type: 'mention', text: '＠bob', handle: 'bob' });
});

test('unescapeHtml handles the entities X escapes', () => {
  assert.equal(
    unescapeHtml('a &amp; b &lt; c &gt; d &quot;e&quot; &#39;f&#39; &amp;amp;'),
    'a & b < c > d "e" \'f\' &amp;',
  );
});

test('a display range counted over the unescaped text does not cut the end of escaped text', () => {
  const raw = 'Q&amp;A &lt;3 done https://t.co/med';
  // Unescaped "Q&A <3 done" is 11 characters; escaped it is 19.
  const segs = segmentsFromRaw({
    text: raw,
    range: [0, 11],
    facets: [{ type: 'media', start: 20, end: 36, original: 'https://t.co/med' }],
  });
  assert.equal(textOf(segs), 'Q&A <3 done');
});

test('an end that falls inside a link leaves the partial link out', () => {
  const raw = 'a &amp; b https://t.co/quote';
  const segs = segmentsFromRaw({
    text: raw,
    range: [0, 9],
    facets: [{ type: 'url', start: 10, end: 28, original: 'https://t.co/quote', href: 'https://x.com/c/status/1' }],
  });
  assert.equal(textOf(segs), 'a & b');
});
