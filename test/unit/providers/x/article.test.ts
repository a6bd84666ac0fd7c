// X Articles read through the X provider, on a real captured TweetDetail (twscrape article.json, trimmed; see
// test/fixtures/x/README.md): the body renders whole, with X's code-point offsets and the links it carries in
// each block's `data`, and the post's plain text is the article's title and preview, not its bare link.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArticleBlock, ArticleSpan } from '../../../../src/domain/models.ts';
import { parseConversation } from '../../../../src/providers/x/parse.ts';
import type { XEnvelope } from '../../../../src/providers/x/wire.ts';
import { fixture } from '../fixtures.ts';

const ID = '2075503860689281453';
const { bundle } = parseConversation(fixture<XEnvelope>('x/tweet_detail_article.json'), ID);
const post = bundle.post;
const article = post.article!;

const spansOf = (b: ArticleBlock | undefined): ArticleSpan[] =>
  b && 'spans' in b ? b.spans : b?.type === 'list' ? b.items.flat() : [];
const linked = (blocks: ArticleBlock[]) => blocks.flatMap(spansOf).filter((s) => s.href);

describe('x parse: Article (twscrape article.json)', () => {
  it('renders the body from content_state, not only the title and preview', () => {
    assert.equal(article.title, '🚀 نقشه راه کامل Hermes Agent: از نصب تا Production');
    assert.equal(article.id, '2075490569867161600');
    assert.equal(article.coverUrl, 'https://pbs.twimg.com/media/HM2spuXbUAAZTCZ.jpg');
    assert.deepEqual(
      article.blocks.map((b) => b.type),
      [
        'paragraph',
        'divider',
        'heading',
        'code',
        'divider',
        'paragraph',
        'list',
        'paragraph',
        'paragraph',
        'paragraph',
      ],
    );
    assert.deepEqual(article.blocks[3], {
      type: 'code',
      text: 'curl -fsSL https://hermes-agent.nousresearch.com/install.sh | bash',
      language: 'bash',
    });
  });

  it('reads style offsets in code points (an emoji before a bold word)', () => {
    // "🌐 Web:" with Bold at offset 2, length 3: UTF-16 offsets would bold " We".
    assert.deepEqual(spansOf(article.blocks[5]), [{ text: '🌐 ' }, { text: 'Web', bold: true }, { text: ':' }]);
  });

  it("links the URLs and hashtags X lists in each block's data", () => {
    const links = linked(article.blocks).map((s) => [s.text, s.href]);
    assert.deepEqual(links.slice(0, 3), [
      ['agentskills.io', 'https://agentskills.io'],
      ['https://hermes-agent.nousresearch.com/docs/', 'https://hermes-agent.nousresearch.com/docs/'],
      ['#HermesAgent', 'https://x.com/hashtag/HermesAgent'],
    ]);
    assert.ok(links.length > 5, 'every hashtag of the last block is a link');
  });

  it('gives the post the article title and preview as its text, without the bare article link', () => {
    assert.ok(post.text.startsWith(`${article.title}\n\n${article.previewText!.slice(0, 20)}`), post.text);
    assert.ok(!post.text.includes('t.co') && !post.text.includes('/i/article/'), post.text);
    assert.deepEqual(post.segments, []);
  });
});
