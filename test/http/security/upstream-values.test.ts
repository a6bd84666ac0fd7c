// Issue 21, Low 9: values an upstream hands us are input like any other. The simulator's FxTwitter wire serves
// mallory_md's post IDS.hostileWire with an author screen_name that is not a handle, a hashtag holding a lone
// surrogate (encodeURIComponent throws on it), a mention of a non-handle, and a quoted-post tombstone whose
// reason is Markdown and whose id is not a number (it used to go into a RegExp). One such post must neither fail
// the page it is on nor become a link target or Markdown syntax in any representation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLES, IDS } from '../../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../../helpers/stack.ts';
import { htmlOf, targets } from '../../unit/render/helpers.ts';

const POST = `/${HANDLES.hostile}/status/${IDS.hostileWire}`;

/** Every link and image target of a Markdown document, as a CommonMark renderer reads them. */
function markdownTargets(md: string): string[] {
  return targets(htmlOf(md));
}

function assertNoInjectedTargets(md: string, where: string): void {
  for (const t of markdownTargets(md)) {
    assert.ok(!/javascript|alert|mallory\)/i.test(decodeURIComponent(t)), `${where}: link target ${t}`);
  }
  assert.ok(!/(?<!\\)\]\(javascript:/.test(md), `${where}: a javascript: link in the Markdown`);
  assert.ok(!md.includes('**loud**'), `${where}: the tombstone reason became emphasis`);
}

describe('malformed upstream values through the real server', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());

  test('the post reads in Markdown: no injected links, the permalink is handle-less, the tags are text', async () => {
    const res = await s.get(POST);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'fxtwitter', 'read from the upstream that sent the odd values');
    const md = await res.text();
    assertNoInjectedTargets(md, 'markdown');
    assert.ok(md.includes(`https://x.com/i/status/${IDS.hostileWire}`), 'permalink falls back to /i/status');
    assert.ok(md.includes('**Quoted post unavailable** (unavailable)'), 'the reason is one of the known ones');
    assert.ok(md.includes('https://x.com/hashtag/%EF%BF%BDtag'), 'the lone surrogate is encoded as U+FFFD');
    assert.ok(md.includes('@a)\\](javascript:alert(1))'), 'the non-handle mention stays escaped text');
    // The author handle in the URL is not the one the upstream named: the canonical link is handle-less too.
    assert.equal(res.headers.get('link'), `<${TEST_BASE}/i/status/${IDS.hostileWire}>; rel="canonical"`);
  });

  test('JSON keeps the data but not the danger: reason normalised, url handle-less, mention is text', async () => {
    const res = await s.get(`${POST}?format=json`);
    assert.equal(res.status, 200);
    const { post } = (await res.json()) as {
      post: {
        url: string;
        author: { handle: string };
        quote: { unavailable: boolean; reason: string };
        segments: { type: string }[];
      };
    };
    assert.equal(post.url, `https://x.com/i/status/${IDS.hostileWire}`);
    assert.equal(post.author.handle, 'mallory)](javascript:alert(1))', 'the handle is kept as data');
    assert.equal(post.quote.unavailable, true);
    assert.equal(post.quote.reason, 'unavailable');
    assert.deepEqual(
      post.segments.map((x) => x.type),
      ['text', 'hashtag', 'text'],
    );
  });

  test('Obsidian and HTML render it too, with no link outside http(s)', async () => {
    const obs = await s.get(`${POST}?format=obsidian`);
    assert.equal(obs.status, 200);
    const note = await obs.text();
    // The front matter holds the handle as a quoted YAML string (data); the note's Markdown links nothing from it.
    assertNoInjectedTargets(note.slice(note.indexOf('\n---\n') + 5), 'obsidian');
    const html = await s.get(POST, { headers: { accept: 'text/html' } });
    assert.equal(html.status, 200);
    const page = await html.text();
    for (const t of targets(page)) assert.ok(/^(https?:\/\/|\/)/.test(t) && !/javascript/i.test(t), t);
  });

  test("a link-preview crawler's card names no author handle the upstream made up", async () => {
    const res = await s.get(POST, { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    const page = await res.text();
    assert.match(page, /<meta property="og:url" content="[^"]*\/i\/status\//);
    assert.doesNotMatch(page, /twitter:creator/, 'twitter:creator only carries a real handle');
    assert.doesNotMatch(page, /profile:username/);
  });

  test("the author's profile page and feed, which hold the post, still answer", async () => {
    const profile = await s.get(`/${HANDLES.hostile}`);
    assert.equal(profile.status, 200);
    assertNoInjectedTargets(await profile.text(), 'profile');
    const feed = await s.get(`/${HANDLES.hostile}/rss`);
    assert.equal(feed.status, 200);
    const xml = await feed.text();
    assert.ok(xml.includes(`${TEST_BASE}/i/status/${IDS.hostileWire}`), 'the entry links the handle-less permalink');
    for (const m of xml.matchAll(/<(link|uri|guid|id)\b[^>]*>([^<]*)<|href="([^"]*)"/g))
      assert.ok(!(m[2] ?? m[3] ?? '').includes('mallory)'), `no link is built from the bogus handle: ${m[0]}`);
  });
});
