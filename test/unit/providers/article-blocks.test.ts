// The Draft.js reading both providers share (providers/shared/article.ts), on block shapes taken from the captured
// article (test/fixtures/x/tweet_detail_article.json): mentions and cashtags in `data` become links like URLs and
// hashtags, counted in code points after an emoji; a TWEMOJI entity adds nothing; a range past the text is ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArticle, type DraftBlock, type DraftEntity } from '../../../src/providers/shared/article.ts';

const one = (block: DraftBlock, entityMap: { key: string; value: DraftEntity }[] = []) =>
  parseArticle({ title: 't', content: { blocks: [block], entityMap } }).blocks[0];

test('mentions and cashtags in block data are links, at code-point offsets', () => {
  const text = '📈 Ask @alice_dev about $TSLA';
  const cp = (s: string) => Array.from(text.slice(0, text.indexOf(s))).length;
  const block = one(
    {
      type: 'unstyled',
      text,
      data: {
        mentions: [{ fromIndex: cp('@alice_dev'), toIndex: cp('@alice_dev') + 10, text: 'alice_dev' }],
        cashtags: [{ fromIndex: cp('$TSLA'), toIndex: cp('$TSLA') + 5, text: 'TSLA' }],
      },
      entityRanges: [{ key: 0, offset: 0, length: 1 }],
      inlineStyleRanges: [],
    },
    [{ key: '0', value: { type: 'TWEMOJI', data: { url: 'https://abs.twimg.com/emoji/v2/svg/1f4c8.svg' } } }],
  );
  assert.deepEqual(block, {
    type: 'paragraph',
    spans: [
      { text: '📈 Ask ' },
      { text: '@alice_dev', href: 'https://x.com/alice_dev' },
      { text: ' about ' },
      { text: '$TSLA', href: 'https://x.com/search?q=%24TSLA' },
    ],
  });
});

test('a link range beyond the text or a mention that is not a handle stays plain text', () => {
  const block = one({
    type: 'unstyled',
    text: 'see @not-a-handle',
    data: {
      mentions: [{ fromIndex: 4, toIndex: 17, text: 'not-a-handle' }],
      urls: [{ fromIndex: 40, toIndex: 50, text: 'example.com' }],
    },
  });
  assert.deepEqual(block, { type: 'paragraph', spans: [{ text: 'see @not-a-handle' }] });
});
