import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownDialect as md, obsidianDialect } from '../../../src/render/markdown/dialect.ts';
import { renderSegments, renderSegmentsLine, segmentsOf } from '../../../src/render/markdown/segments.ts';
import { htmlOf } from './helpers.ts';

describe('segments', () => {
  test('mentions, hashtags and cashtags become links; shortened URLs become full autolinks', () => {
    const out = renderSegments(
      [
        { type: 'text', text: 'Hi ' },
        { type: 'mention', text: '@bob', handle: 'bob' },
        { type: 'text', text: ' ' },
        { type: 'hashtag', text: '#caching', tag: 'caching' },
        { type: 'text', text: ' ' },
        { type: 'cashtag', text: '$TSLA', symbol: 'TSLA' },
        { type: 'text', text: ' ' },
        { type: 'link', text: 'example.com/very/lo…', href: 'https://example.com/very/long/path' },
        { type: 'text', text: ' ' },
        { type: 'link', text: 'my site', href: 'https://alice.dev/' },
      ],
      md,
    );
    assert.equal(
      out,
      'Hi [@bob](https://x.com/bob) [#caching](https://x.com/hashtag/caching) [$TSLA](https://x.com/search?q=%24TSLA) <https://example.com/very/long/path> [my site](https://alice.dev/)',
    );
  });

  test('single newlines become hard breaks and blank lines paragraph breaks, even across segments', () => {
    const out = renderSegments(
      [
        { type: 'text', text: 'one\ntwo ' },
        { type: 'mention', text: '@bob', handle: 'bob' },
        { type: 'text', text: '\n\n\nthree\r\n# four' },
      ],
      md,
    );
    assert.equal(out, 'one\\\ntwo [@bob](https://x.com/bob)\n\nthree\\\n\\# four');
    assert.equal(
      htmlOf(out),
      '<p>one<br>\ntwo <a href="https://x.com/bob" rel="nofollow noopener noreferrer">@bob</a></p>\n<p>three<br>\n# four</p>\n',
    );
  });

  test('a link with a non-http target is shown as text only', () => {
    const out = renderSegments([{ type: 'link', text: 'click', href: 'javascript:alert(1)' }], md);
    assert.equal(out, 'click');
  });

  test('a mention whose handle is not a handle is escaped text', () => {
    assert.equal(
      renderSegments([{ type: 'mention', text: '@x](javascript:1)', handle: 'x](javascript:1)' }], md),
      '@x\\](javascript:1)',
    );
  });

  test('plain text is used when a provider gave no segments', () => {
    assert.deepEqual(segmentsOf({ text: 'hello', segments: [] }), [{ type: 'text', text: 'hello' }]);
  });

  test('one-line rendering joins lines with spaces', () => {
    assert.equal(renderSegmentsLine([{ type: 'text', text: 'a\n\n- b' }], md), 'a \\- b');
  });

  test('Obsidian: wiki links for people, native tags, # in text escaped', () => {
    const out = renderSegments(
      [
        { type: 'text', text: '#notatag ' },
        { type: 'mention', text: '@bob', handle: 'bob' },
        { type: 'text', text: ' ' },
        { type: 'hashtag', text: '#caching', tag: 'caching' },
        { type: 'text', text: ' ' },
        { type: 'hashtag', text: '#2026', tag: '2026' },
      ],
      obsidianDialect,
    );
    assert.equal(out, '\\#notatag [[@bob]] #caching \\#2026');
  });
});
