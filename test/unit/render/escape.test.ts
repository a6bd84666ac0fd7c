import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import {
  codeBlock,
  codeSpan,
  escapeHeading,
  escapeInline,
  safeHref,
  urlLink,
} from '../../../src/render/markdown/escape.ts';
import { truncate } from '../../../src/render/markdown/format.ts';

const md = new MarkdownIt({ html: false, linkify: false });
// Linkify is left off: GFM autolinks bare http(s)/www URLs in text by design, which is harmless and intended.
const GFM_LIKE = new MarkdownIt({ html: true, linkify: false }).enable(['table', 'strikethrough']);

/** Escaped text must come back out of a CommonMark renderer as exactly the same text, in one paragraph. */
function roundTrips(s: string, r: typeof md = md): void {
  const html = r.render(escapeInline(s, true));
  assert.equal(html, `<p>${r.utils.escapeHtml(s)}</p>\n`, `input ${JSON.stringify(s)}`);
}

const SPECIALS = [
  '\\',
  '`',
  '*',
  '_',
  '[',
  ']',
  '(',
  ')',
  '<',
  '>',
  '#',
  '!',
  '|',
  '~',
  '-',
  '+',
  '=',
  '.',
  '&',
  ';',
  ':',
  '"',
  "'",
  'a',
  'b',
  '1',
  '2',
  ' ',
  'x',
  '/',
  'amp',
  '#x27',
  'lt',
  'http://',
  'javascript:',
  '\u00e9',
];

describe('escapeInline', () => {
  test('hostile one-liners render as their literal text', () => {
    for (const s of [
      '<script>alert(1)</script>',
      '[x](javascript:alert(1))',
      '# h',
      '**',
      '**bold**',
      '`code`',
      'a | b | c',
      '---',
      '> quoted',
      '_under_',
      '![img](x)',
      '&amp; &lt;tag&gt; &#x27; &#39; &copy;',
      '1. item',
      '12) item',
      '- item',
      '+ item',
      '===',
      '~~strike~~',
      '<https://evil.example>',
      '[ref]: /url',
      'snake_case_name and a_b',
      'trailing \\',
    ]) {
      roundTrips(s);
      roundTrips(s, GFM_LIKE);
    }
  });

  test('property: any single line of text survives CommonMark (and GFM tables/strikethrough/HTML) unchanged', () => {
    const line = fc
      .array(fc.oneof(fc.constantFrom(...SPECIALS), fc.string({ maxLength: 3 })), { maxLength: 30 })
      .map((parts) =>
        parts
          .join('')
          // eslint-disable-next-line no-control-regex -- control characters are what this strips
          .replace(/[\u0000-\u001f\u007f]/g, '')
          .trim(),
      )
      .filter((s) => s.length > 0);
    fc.assert(
      fc.property(line, (s) => {
        roundTrips(s);
        roundTrips(s, GFM_LIKE);
      }),
      { numRuns: 3000 },
    );
  });

  test('keeps ordinary text readable: no escapes for intraword underscores, parentheses, mid-line # or -', () => {
    assert.equal(escapeInline('snake_case (a) #tag x-y 3.5', false), 'snake_case (a) #tag x-y 3.5');
    assert.equal(escapeInline('R&D & more', false), 'R&D & more');
  });

  test('leading blanks become no-break spaces so they cannot start a code block', () => {
    assert.equal(escapeInline('    code?', true), '\u00a0\u00a0\u00a0\u00a0code?');
  });

  test('headings keep a trailing # run', () => {
    assert.equal(md.render(`## ${escapeHeading('Title #')}`), '<h2>Title #</h2>\n');
    assert.equal(md.render(`## ${escapeHeading('C#')}`), '<h2>C#</h2>\n');
  });

  test('Obsidian extras are escaped only when asked for', () => {
    assert.equal(
      escapeInline('#tag ==hi== %%c%% $x$', false, new Set(['#', '=', '%', '$'])),
      '\\#tag \\=\\=hi\\=\\= \\%\\%c\\%\\% \\$x\\$',
    );
  });
});

describe('safeHref', () => {
  test('only absolute http(s) URLs pass', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      '/relative',
      '//evil.example/x',
      'mailto:a@b.c',
      '',
      'http://',
    ]) {
      assert.equal(safeHref(bad), undefined, bad);
    }
    assert.equal(safeHref('https://example.com/a'), 'https://example.com/a');
  });

  test('parentheses, spaces and backslashes are encoded so the destination cannot end early', () => {
    assert.equal(
      safeHref('https://en.wikipedia.org/wiki/Cache_(computing)'),
      'https://en.wikipedia.org/wiki/Cache_%28computing%29',
    );
    assert.equal(safeHref('https://a.b/x y?q=a b\\c'), 'https://a.b/x%20y?q=a%20b%5Cc');
    assert.equal(
      md.renderInline(`[t](${safeHref('https://a.b/(x)) [y](javascript:z')})`),
      '<a href="https://a.b/%28x%29%29%20%5By%5D%28javascript:z">t</a>',
    );
  });

  test('urlLink shows safe URLs as autolinks and others as text', () => {
    assert.equal(urlLink('https://alice.dev/'), '<https://alice.dev/>');
    assert.equal(md.renderInline(urlLink('javascript:alert(1)')), 'javascript:alert(1)');
  });
});

describe('code and truncation helpers', () => {
  test('code spans and blocks contain any backtick run verbatim', () => {
    assert.equal(md.renderInline(codeSpan('a ``` b')), '<code>a ``` b</code>');
    assert.equal(md.renderInline(codeSpan('`x`')), '<code>`x`</code>');
    assert.equal(
      md.render(codeBlock('```\ninside\n```', 'js; evil')),
      '<pre><code class="language-jsevil">```\ninside\n```\n</code></pre>\n',
    );
  });

  test('truncate cuts on a word boundary, never inside a surrogate pair', () => {
    assert.equal(truncate('short', 10), 'short');
    assert.equal(truncate('alpha beta gamma delta', 15), 'alpha beta…');
    const emoji = truncate('a'.repeat(8) + '😀😀😀', 10);
    assert.ok(!/[\ud800-\udbff]…$/.test(emoji), emoji);
    assert.ok(emoji.length <= 10);
  });
});

describe('escapeInline with Obsidian extras', () => {
  test('property: escaped text round-trips at line start with the extra set too', () => {
    const extra = new Set(['#', '=', '%', '$']);
    const md2 = new MarkdownIt({ html: false });
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('#', '=', '%', '$', '-', '>', ' ', 'a', '1', '.'), { minLength: 1, maxLength: 12 }),
        (parts) => {
          const s = parts.join('').trim();
          if (!s) return;
          assert.equal(
            md2.render(escapeInline(s, true, extra)),
            `<p>${md2.utils.escapeHtml(s)}</p>\n`,
            JSON.stringify(s),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
