// The three serializers on hostile input: every document parses (feedsmith), XML stays well-formed whatever
// the text holds, and text comes back exactly (less the characters XML cannot carry).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAtomFeed, parseJsonFeed, parseRssFeed } from 'feedsmith';
import { XMLValidator } from 'fast-xml-parser';
import type { FeedDoc } from '../../../src/domain/feeds.ts';
import { buildEntry, entryTitle } from '../../../src/render/feed/entries.ts';
import { renderAtom } from '../../../src/render/feed/atom.ts';
import { renderJsonFeed } from '../../../src/render/feed/json-feed.ts';
import { renderRss } from '../../../src/render/feed/rss.ts';
import { xml } from '../../../src/render/feed/xml.ts';
import { post } from './posts.ts';

const BASE = 'https://tm.example';
const NASTY = 'a]]>b <x> & "q" \'s\' \u0001\u000b\ufffe\ud800 end 🧵';
const CLEAN = 'a]]>b <x> & "q" \'s\'  end 🧵';

function doc(
  title: string,
  entries = [buildEntry([post('1', 'ann', 0, { text: `${NASTY}\nsecond line #tag` })], { baseUrl: BASE })],
): FeedDoc {
  return {
    title,
    description: NASTY,
    homeUrl: `${BASE}/ann`,
    selfUrl: `${BASE}/ann/rss?x=1&y=<2>`,
    authors: [],
    ttlS: 300,
    entries,
    updated: entries[0]?.updated,
  };
}

test('xml(): markup escaped, characters outside XML 1.0 dropped, astral characters kept', () => {
  assert.equal(xml(NASTY), 'a]]&gt;b &lt;x&gt; &amp; &quot;q&quot; &apos;s&apos;  end 🧵');
});

test('RSS: well-formed and exact text round trip', () => {
  const out = renderRss(doc(NASTY));
  assert.equal(XMLValidator.validate(out), true);
  const f = parseRssFeed(out);
  assert.equal(f.title, CLEAN);
  assert.equal(f.description, CLEAN);
  assert.equal(f.atom?.links?.[0]?.href, `${BASE}/ann/rss?x=1&y=<2>`);
  assert.equal(f.items?.[0]?.title, CLEAN);
  assert.match(f.items?.[0]?.description ?? '', /&lt;x&gt;/, 'the post text is escaped inside the HTML');
  assert.deepEqual(
    f.items?.[0]?.categories?.map((c) => c.name),
    ['tag'],
  );
});

test('Atom: well-formed and exact text round trip', () => {
  const out = renderAtom(doc(NASTY));
  assert.equal(XMLValidator.validate(out), true);
  const f = parseAtomFeed(out);
  assert.equal(f.title?.value, CLEAN);
  assert.equal(f.entries?.[0]?.title?.value, CLEAN);
  assert.match(f.entries?.[0]?.content?.value ?? '', /a\]\]&gt;b &lt;x&gt;/);
});

test('JSON Feed: valid JSON even with a lone surrogate', () => {
  const out = renderJsonFeed(doc(NASTY));
  const raw = JSON.parse(out) as { title: string };
  assert.ok(
    out.includes('\\ud800') && Buffer.from(out).toString('utf8') === out,
    'a lone surrogate is escaped, so the body is valid UTF-8',
  );
  assert.equal(raw.title, NASTY, 'JSON carries every character');
  const f = parseJsonFeed(raw);
  assert.match(f.items?.[0]?.title ?? '', /^a\]\]>b <x> & "q" 's' /);
});

test('an empty feed is still valid and stable', () => {
  const empty = doc('Nothing yet', []);
  assert.equal(renderRss(empty), renderRss(empty));
  assert.equal(XMLValidator.validate(renderRss(empty)), true);
  assert.equal(parseAtomFeed(renderAtom(empty)).updated, '1970-01-01T00:00:00Z');
  const json = JSON.parse(renderJsonFeed(empty)) as { items: unknown[] };
  assert.deepEqual(json.items, []);
  assert.equal(parseJsonFeed(json).title, 'Nothing yet');
});

test('titles: first meaningful line, clipped at a word, with fallbacks', () => {
  const long = 'word '.repeat(40).trim();
  const t = entryTitle([post('1', 'ann', 0, { text: long })]);
  assert.ok(t.length <= 100 && t.endsWith('…') && !t.endsWith(' …'), t);
  assert.equal(entryTitle([post('1', 'ann', 0, { text: 'https://t.co/abc\n\n  Real  title  \nmore' })]), 'Real title');
  assert.equal(
    entryTitle([post('1', 'ann', 0, { text: '', media: [{ kind: 'photo', url: 'https://a/b.jpg' }] })]),
    'Photo',
  );
  assert.equal(
    entryTitle([post('1', 'ann', 0, { text: '', media: [{ kind: 'video', url: 'https://a/b.mp4' }] })]),
    'Video',
  );
  assert.equal(
    entryTitle([
      post('1', 'ann', 0, { text: 'https://x.com/i/article/1', article: { title: 'My article', blocks: [] } }),
    ]),
    'My article',
  );
});

test('enclosures: types from extension or format parameter; unsafe URLs dropped', () => {
  const e = buildEntry(
    [
      post('1', 'ann', 0, {
        media: [
          { kind: 'photo', url: 'https://pbs.twimg.com/media/a?format=png&name=large' },
          { kind: 'photo', url: 'https://pbs.twimg.com/media/b.webp' },
          { kind: 'gif', url: 'https://video.twimg.com/g.mp4' },
          { kind: 'photo', url: 'javascript:alert(1)' },
        ],
      }),
    ],
    { baseUrl: BASE },
  );
  assert.deepEqual(
    e.enclosures.map((m) => m.mimeType),
    ['image/png', 'image/webp', 'video/mp4'],
  );
  assert.ok(!e.contentHtml.includes('javascript:'));
});
