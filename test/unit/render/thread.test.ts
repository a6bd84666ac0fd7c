import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPostMarkdown } from '../../../src/render/markdown/thread.ts';
import type { UserinfoOption } from '../../../src/domain/reads.ts';
import * as c from '../../fixtures/render/corpus.ts';
import { countTag, htmlOf, targets, texts } from './helpers.ts';
import { isLineSubsequence, matchSnapshot } from './snapshot.ts';

const opts = (full = false, userinfo: UserinfoOption = 'off') => ({ full, userinfo, baseUrl: c.BASE });

describe('renderPostMarkdown snapshots', () => {
  const cases = {
    'thread-compact-author': () => renderPostMarkdown(c.threadRead(), opts(false, 'author')),
    'thread-full-all': () => renderPostMarkdown(c.threadRead(), opts(true, 'all')),
    'conversation-compact': () => renderPostMarkdown(c.conversationRead, opts(false, 'off')),
    'conversation-full-author': () => renderPostMarkdown(c.conversationRead, opts(true, 'author')),
    'note-tweet': () => renderPostMarkdown(c.singleRead(c.noteTweet), opts()),
    article: () => renderPostMarkdown(c.singleRead(c.articlePost), opts()),
    hostile: () =>
      renderPostMarkdown(c.singleRead(c.hostilePost, { replies: c.replies, repliesMode: 'top' }), opts(false, 'all')),
  };
  for (const [name, render] of Object.entries(cases)) {
    test(name, () => matchSnapshot(`post/${name}.md`, render()));
  }
});

describe('renderPostMarkdown behaviour', () => {
  test('title names the thread author and post count; posts are numbered', () => {
    const out = renderPostMarkdown(c.threadRead(), opts());
    assert.ok(out.startsWith('# Thread by Alice Dev (@alice_dev) · 6 posts\n'));
    for (let i = 1; i <= 6; i++) assert.ok(out.includes(`\n## ${i}/6 · 2026-01-01 00:0${i} UTC\n`), `post ${i}`);
    assert.ok(renderPostMarkdown(c.singleRead(c.noteTweet), opts()).startsWith('# Post by Alice Dev (@alice_dev)\n'));
  });

  test('full only adds lines: compact is a line subsequence of full, for every corpus read', () => {
    const reads = [
      c.threadRead(),
      c.conversationRead,
      c.singleRead(c.articlePost),
      c.singleRead(c.hostilePost, { replies: c.replies, repliesMode: 'top' }),
    ];
    for (const read of reads) {
      for (const userinfo of ['off', 'author', 'all'] as const) {
        const compact = renderPostMarkdown(read, opts(false, userinfo));
        const full = renderPostMarkdown(read, opts(true, userinfo));
        assert.ok(full.length > compact.length);
        assert.ok(isLineSubsequence(compact, full), `${read.requested.id} userinfo=${userinfo}`);
      }
    }
  });

  test('full adds metrics, ISO timestamps, language and source client', () => {
    const full = renderPostMarkdown(c.threadRead(), opts(true));
    assert.ok(
      full.includes(
        'Posted 2026-01-01T00:01:00.000Z · 10 likes · [2 reposts](http://threadmark.test/alice_dev/status/1900000000000000001/reposts) · [1 quote](http://threadmark.test/alice_dev/status/1900000000000000001/quotes) · 3 replies · 1234 views · 4 bookmarks · lang: en · via Twitter Web App',
      ),
    );
    // No quotes or reposts to list, no link to an empty page.
    const root = c.threadRead().requested;
    const none = renderPostMarkdown(
      c.singleRead({ ...root, metrics: { ...root.metrics, reposts: 0, quotes: 0 } }),
      opts(true),
    );
    assert.ok(none.includes(' · 0 reposts · 0 quotes · '), none);
    assert.ok(full.trimEnd().endsWith('Source: fxtwitter'));
  });

  test('a note tweet is rendered in full', () => {
    const out = renderPostMarkdown(c.singleRead(c.noteTweet), opts());
    assert.ok(c.noteTweet.text.length > 1000);
    assert.ok(out.includes(c.NOTE_TAIL));
    const words = (s: string) =>
      s
        .replace(/\\\n|\n/g, ' ')
        .split(/\s+/)
        .filter(Boolean).length;
    assert.ok(words(out) >= words(c.noteTweet.text), 'no words lost');
  });

  test('article: title, cover and every block in order, with inline styles and links', () => {
    const out = renderPostMarkdown(c.singleRead(c.articlePost), opts());
    const order = [
      '### Caching at scale: a field guide \\#',
      '![Cover image](https://pbs.twimg.com/media/cover.jpg)',
      '#### Why cache at all',
      'Caches are **hard** and *subtle*; see [the paper](https://example.com/paper) or [**bold link**](https://example.com/b) and this. Use `cache.get()` and ***both* styles**.',
      '##### Policies',
      '- **LFU** — frequency',
      '1. Measure',
      '2. Cache\\\n   multi-line item',
      '> There are only two hard things.\\\n> *Phil Karlton*',
      '````ts\nconst x = cache.get(key);\n// ``` inside code\n````',
      '![Chart](https://pbs.twimg.com/media/chart.png)\\\n*Hit rate over time*',
      '\n---\n',
      '###### The end',
    ];
    let at = 0;
    for (const piece of order) {
      const i = out.indexOf(piece, at);
      assert.ok(i >= 0, `missing or out of order: ${piece}`);
      at = i + piece.length;
    }
    const html = htmlOf(out);
    assert.deepEqual(texts(html, 'h4'), ['Why cache at all']);
    assert.ok(html.includes('<strong><em>both</em> styles</strong>'));
    assert.ok(!targets(html).some((t) => t.startsWith('javascript')));
  });

  test('hostile text never becomes a live link, HTML element, heading, list, table or code', () => {
    const read = c.singleRead(c.hostilePost, { replies: c.replies, repliesMode: 'top' });
    for (const userinfo of ['off', 'author', 'all'] as const) {
      for (const full of [false, true]) {
        const html = htmlOf(renderPostMarkdown(read, opts(full, userinfo)));
        assert.ok(!/<script/i.test(html), 'no script element');
        assert.ok(!/<(img|b|a)\s[^>]*(onerror|javascript)/i.test(html));
        // Besides X's and the media hosts, only the service's own reads built from the checked handle and id.
        const own = /^http:\/\/threadmark\.test\/[A-Za-z0-9_]{1,15}\/status\/[0-9]+\/(quotes|reposts)$/;
        for (const t of targets(html))
          assert.match(t, own.test(t) ? own : /^https:\/\/(x\.com|pbs\.twimg\.com|alice\.dev)\//, t);
        assert.deepEqual(texts(html, 'h1').length, 1);
        assert.deepEqual(texts(html, 'h2'), [
          ...(userinfo === 'all' ? ['Participants'] : []),
          '2026-01-01 00:10 UTC',
          'Replies (top)',
        ]);
        for (const tag of ['h3', 'h4', 'table', 'pre', 'code', 'em', 's', 'del', 'ol'])
          assert.equal(countTag(html, tag), 0, tag);
        assert.equal(countTag(html, 'hr'), 1, 'only the rule before the replies');
        assert.equal(countTag(html, 'blockquote'), userinfo === 'author' ? 1 : 0);
        assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'hostile text is still shown');
        assert.ok(html.includes('&amp;amp; &amp;lt;tag&amp;gt;'), 'typed entities stay literal');
      }
    }
  });

  test('parents become a context section and the chain does not repeat "Replying to"', () => {
    const out = renderPostMarkdown(c.conversationRead, opts());
    assert.ok(out.includes('## Context · 1 earlier post\n\n### Carol (@carol) · '));
    assert.ok(!out.includes('Replying to'));
    assert.ok(out.includes('*Note: replies limited to 1 · thread truncated \\<to> 1 post*'));
    assert.ok(out.includes('## Replies (recent)'));
  });

  test('no replies section when replies are off or empty', () => {
    const out = renderPostMarkdown(c.threadRead({ repliesMode: 'off' }), opts());
    assert.ok(!out.includes('## Replies'));
    assert.ok(!renderPostMarkdown(c.threadRead({ replies: [] }), opts()).includes('## Replies'));
  });

  test('nested replies are nested bullets, multi-line replies stay inside their item', () => {
    const html = htmlOf(renderPostMarkdown(c.threadRead(), opts()));
    const replies = html.slice(html.indexOf('<h2>Replies (top)</h2>'));
    assert.equal(countTag(replies, 'ul'), 3, 'three levels');
    assert.ok(replies.includes('great thread<br>\nsecond line<br>\n# third para'));
  });
});
