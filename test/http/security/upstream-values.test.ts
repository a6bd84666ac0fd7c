// Values an upstream hands us are input like any other. The simulator's FxTwitter wire serves
// mallory_md's post IDS.hostileWire with an author screen_name that is not a handle, a hashtag holding a lone
// surrogate (encodeURIComponent throws on it), a mention of a non-handle, and a quoted-post tombstone whose
// reason is Markdown and whose id is not a number (so it must never reach a RegExp unescaped). One such post must neither fail
// the page it is on nor become a link target or Markdown syntax in any representation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCorpus, HANDLES, IDS } from '../../../sim/corpus.ts';
import { startStack, TEST_BASE, type Stack } from '../../helpers/stack.ts';
import { writeSessions } from '../../helpers/x-sessions.ts';
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

describe('an X List whose owner the upstream names with something that is not a handle', () => {
  const OWNER_ID = '1461009990';
  const LIST_ID = '1900000000000098001';
  let s: Stack;
  let dir: string;
  before(async () => {
    // The simulator runs in this process: one more account and list in its corpus, as a hostile upstream would
    // describe them.
    const c = getCorpus();
    const alice = c.usersByHandle.get(HANDLES.alice)!;
    c.users.set(OWNER_ID, { ...alice, id: OWNER_ID, handle: 'owner)](javascript:alert(1))', name: 'Owner' });
    c.lists.set(LIST_ID, {
      id: LIST_ID,
      name: 'Odd [list](javascript:alert(2))',
      description: '',
      ownerId: OWNER_ID,
      memberIds: [alice.id],
      private: false,
      subscribers: 0,
      createdAt: Date.parse('2026-01-01T00:00:00Z'),
    });
    dir = mkdtempSync(join(tmpdir(), 'threadmark-odd-list-'));
    s = await startStack({
      THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
      THREADMARK_X_SESSIONS: writeSessions(dir, 'oddlist', 1),
    });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the list and its members read; the owner links to the account id, never to a made-up target', async () => {
    for (const path of [`/i/lists/${LIST_ID}`, `/i/lists/${LIST_ID}/members`]) {
      const res = await s.get(path);
      assert.equal(res.status, 200, path);
      const md = await res.text();
      assertNoInjectedTargets(md, path);
      assert.ok(!markdownTargets(md).includes('undefined'), `${path}: a link to "undefined"`);
      assert.ok(md.includes(`](${TEST_BASE}/i/user/${OWNER_ID})`), `${path}: the owner links by account id`);
    }
  });
});
