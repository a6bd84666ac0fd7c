// Emphasis in Articles closes in every CommonMark parser: a bold or italic run whose edge is punctuation or a space
// (common in right-to-left text, `**برای Linux/macOS/WSL2:**این`) gets that edge outside its delimiters, checked by
// rendering with markdown-it's strict CommonMark preset. An Article post also links the Article on x.com.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import type { ArticleSpan } from '../../../src/domain/models.ts';
import { renderPostMarkdown } from '../../../src/render/markdown/thread.ts';
import { renderPostObsidian } from '../../../src/render/obsidian.ts';
import * as c from '../../fixtures/render/corpus.ts';

const commonmark = new MarkdownIt('commonmark');
const opts = { full: false, userinfo: 'off' as const, baseUrl: c.BASE };

function articleWith(spans: ArticleSpan[]) {
  const post = c.post({
    id: '1900000000000000777',
    article: { id: '1900000000000000778', title: 'T', blocks: [{ type: 'paragraph', spans }] },
  });
  return renderPostMarkdown(c.singleRead(post), opts);
}

/** The paragraph of the article body, rendered by a strict CommonMark parser. */
function paragraphHtml(spans: ArticleSpan[]): string {
  const md = articleWith(spans);
  const html = commonmark.render(md);
  const paragraphs = [...html.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((m) => m[1]!);
  const body = paragraphs.find((p) => p.includes('ZZ'));
  assert.ok(body, md);
  return body;
}

describe('emphasis with punctuation or spaces at its edges', () => {
  const cases: { name: string; spans: ArticleSpan[]; strong?: string; em?: string; after?: string }[] = [
    {
      name: 'bold ending in a colon right before a letter (right-to-left text)',
      spans: [{ text: 'برای Linux/macOS/WSL2:', bold: true }, { text: 'این روش ZZ' }],
      strong: 'برای Linux/macOS/WSL2',
      after: ':این روش ZZ',
    },
    {
      name: 'italic starting with a parenthesis right after a letter',
      spans: [{ text: 'see' }, { text: '(the notes)', italic: true }, { text: 'ZZ' }],
      em: 'the notes',
    },
    {
      name: 'bold with quotes and a full stop inside, a word right after',
      spans: [{ text: '"Cache it."', bold: true }, { text: 'ZZ' }],
      strong: 'Cache it',
    },
    {
      name: 'bold italic ending in an exclamation mark, then bold, then a letter',
      spans: [{ text: 'Go fast!', bold: true, italic: true }, { text: ' and far?', bold: true }, { text: 'ZZ' }],
      em: 'Go fast',
      strong: 'far',
    },
    {
      name: 'bold with a space at its end before a letter',
      spans: [{ text: 'Note: ', bold: true }, { text: 'ZZ' }],
      strong: 'Note',
    },
  ];
  for (const k of cases) {
    test(k.name, () => {
      const html = paragraphHtml(k.spans);
      assert.ok(!html.includes('*'), `no asterisk left as text: ${html}`);
      if (k.strong) assert.match(html, new RegExp(`<strong>((?!</strong>).)*${k.strong}`), html);
      if (k.em) assert.match(html, new RegExp(`<em>((?!</em>).)*${k.em}`), html);
      if (k.after) assert.ok(html.includes(`</strong>${k.after}`), html);
    });
  }

  test('a run of punctuation alone keeps its text and leaves no stray delimiters', () => {
    const html = paragraphHtml([{ text: 'a' }, { text: '!!', bold: true }, { text: 'ZZ' }]);
    assert.ok(!html.includes('*'), html);
    assert.ok(html.includes('a!!ZZ') || html.includes('!!</strong>ZZ'), html);
  });
});

describe('the Article on x.com', () => {
  test('the Markdown and the Obsidian note link the Article as the post on X does', () => {
    const md = renderPostMarkdown(c.singleRead(c.articlePost), opts);
    assert.ok(md.includes('(https://x.com/i/article/a1)'), md);
    assert.ok(commonmark.render(md).includes('href="https://x.com/i/article/a1"'));
    const note = renderPostObsidian(c.singleRead(c.articlePost), opts);
    assert.ok(note.includes('(https://x.com/i/article/a1)'), note);
  });
});
