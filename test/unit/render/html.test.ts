import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderHtmlPage } from '../../../src/render/html.ts';
import { renderPostMarkdown } from '../../../src/render/markdown/thread.ts';
import * as c from '../../fixtures/render/corpus.ts';
import { targets } from './helpers.ts';
import { matchSnapshot } from './snapshot.ts';

const hostileMd = renderPostMarkdown(c.singleRead(c.hostilePost, { replies: c.replies, repliesMode: 'top' }), {
  full: true,
  userinfo: 'all',
  baseUrl: c.BASE,
});
const page = (md: string, title = 'Mal <script>alert(1)</script> "x" on X') =>
  renderHtmlPage(md, {
    title,
    baseUrl: c.BASE,
    canonicalUrl: `${c.BASE}/mallory_x/status/1900000000000000666`,
    oembedUrl: `${c.BASE}/oembed?url=${encodeURIComponent(`${c.BASE}/mallory_x/status/1900000000000000666`)}`,
  });

describe('renderHtmlPage', () => {
  test('snapshot of the thread page', () => {
    const md = renderPostMarkdown(c.threadRead(), { full: false, userinfo: 'author', baseUrl: c.BASE });
    matchSnapshot(
      'html/thread.html',
      renderHtmlPage(md, {
        title: 'Alice Dev (@alice_dev) on X',
        baseUrl: c.BASE,
        canonicalUrl: `${c.BASE}/alice_dev/status/1900000000000000001`,
        oembedUrl: `${c.BASE}/oembed?url=x`,
      }),
    );
  });

  test('a minimal valid HTML5 document with viewport, charset, title and oEmbed discovery', () => {
    const html = page(hostileMd);
    assert.ok(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'));
    assert.ok(html.includes('<meta name="viewport" content="width=device-width, initial-scale=1">'));
    assert.ok(html.includes('<title>Mal &lt;script&gt;alert(1)&lt;/script&gt; &quot;x&quot; on X</title>'));
    assert.ok(
      html.includes(
        `<link rel="alternate" type="application/json+oembed" href="${c.BASE}/oembed?url=http%3A%2F%2Fthreadmark.test%2Fmallory_x%2Fstatus%2F1900000000000000666">`,
      ),
    );
    assert.ok(html.includes(`<link rel="canonical" href="${c.BASE}/mallory_x/status/1900000000000000666">`));
    assert.ok(html.trimEnd().endsWith('</html>'));
    assert.equal((html.match(/<body>/g) ?? []).length, 1);
  });

  test('no scripts, no event handlers, no non-http link targets anywhere', () => {
    const html = page(hostileMd);
    assert.ok(!/<script/i.test(html));
    assert.ok(!/<[a-z][^>]*\son[a-z]+=/i.test(html), 'no element carries an event handler');
    for (const t of targets(html)) assert.match(t, /^https?:\/\//, t);
    assert.ok(html.includes("default-src 'none'"), 'CSP forbids scripts too');
  });

  test('raw HTML and unsafe links written directly in Markdown are neutralised', () => {
    const html = page(
      '<script>alert(1)</script>\n\n[a](javascript:alert(1)) [b](data:text/html,x) ![c](javascript:x) <img src=x onerror=alert(1)> [ok](https://ok.example)',
    );
    assert.ok(!/<script|<img src=x/i.test(html));
    assert.deepEqual(
      targets(html).filter((t) => !t.startsWith(c.BASE)),
      ['https://ok.example'],
    );
  });

  test('oEmbed and canonical links are left out when not given or not http(s)', () => {
    const html = renderHtmlPage('# x', { title: 't', baseUrl: c.BASE, oembedUrl: 'javascript:alert(1)' });
    assert.ok(!html.includes('json+oembed'));
    assert.ok(!html.includes('rel="canonical"'));
  });
});
