// Upstream-supplied values (tombstone reasons, ids, tags, handles) are checked before they become
// Markdown or link targets, at the parser and at the renderer. The HTTP side is test/http/security/upstream-values.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Author, Post, UnavailablePost } from '../../../src/domain/models.ts';
import { encodePart, profilePath, statusPath } from '../../../src/domain/links.ts';
import { parseStatus, parseTombstone } from '../../../src/providers/fxtwitter/parse.ts';
import type { FxStatus, FxTombstone } from '../../../src/providers/fxtwitter/wire.ts';
import { permalink } from '../../../src/providers/shared/permalinks.ts';
import { segmentsFromRaw } from '../../../src/providers/shared/segments.ts';
import { feedPerson, servicePermalink } from '../../../src/render/feed/entries.ts';
import { accountItem } from '../../../src/render/markdown/list.ts';
import { renderProfileMarkdown } from '../../../src/render/markdown/profile.ts';
import { renderPostMarkdown } from '../../../src/render/markdown/thread.ts';
import { renderPostObsidian } from '../../../src/render/obsidian.ts';
import * as c from '../../fixtures/render/corpus.ts';
import { fixture } from '../providers/fixtures.ts';
import { htmlOf, targets } from '../render/helpers.ts';

const opts = { full: true, userinfo: 'all' as const, baseUrl: c.BASE };
const BAD_HANDLE = 'eve)](javascript:alert(1))';
const badAuthor: Author = { ...c.bob, id: '4242', handle: BAD_HANDLE };

function assertInert(md: string): void {
  assert.ok(!/(?<!\\)\]\(javascript:/.test(md), 'no javascript: link in the Markdown');
  for (const t of targets(htmlOf(md))) assert.ok(!/javascript|eve\)/i.test(decodeURIComponent(t)), t);
}

function fxFixture(): FxStatus {
  return fixture<{ tweet: FxStatus }>('fxtwitter/v1-status-1972518817797669282.json').tweet;
}

describe('tombstone reasons', () => {
  test('the FxTwitter parser keeps the five known reasons and maps anything else to unavailable', () => {
    const t = (reason: string) => ({ type: 'tombstone', id: '1', reason }) as unknown as FxTombstone;
    for (const r of ['deleted', 'suspended', 'private', 'blocked', 'unavailable'])
      assert.equal(parseTombstone(t(r)).reason, r);
    assert.equal(parseTombstone(t('deleted](javascript:alert(1)) **x**')).reason, 'unavailable');
  });

  test('the renderer escapes a reason it is handed, whatever it holds', () => {
    const quote = { unavailable: true, reason: 'x](javascript:alert(1)) **y**' } as unknown as UnavailablePost;
    const md = renderPostMarkdown(c.singleRead(c.post({ id: '7', text: 'look', quote })), opts);
    assertInert(md);
    assert.ok(md.includes('\\*\\*y\\*\\*'), md);
  });
});

describe('ids are matched literally, never as a pattern', () => {
  for (const id of ['(', '1972511906687590482|.*', '[']) {
    test(`a quoted post whose id is ${JSON.stringify(id)} neither throws nor changes which links are dropped`, () => {
      const s = fxFixture();
      const normal = parseStatus(s).segments;
      const odd = parseStatus({ ...s, quote: { type: 'tombstone', reason: 'deleted', id } as unknown as FxTombstone });
      assert.equal((odd.quote as UnavailablePost).id, id);
      assert.deepEqual(
        odd.segments.filter((x) => x.type === 'link'),
        normal.filter((x) => x.type === 'link'),
      );
    });
  }
});

describe('lone surrogates', () => {
  test('encodePart never throws and encodes a lone surrogate as U+FFFD', () => {
    assert.throws(() => encodeURIComponent('\uD800'), URIError);
    assert.equal(encodePart('a b/\uD800'), 'a%20b%2F%EF%BF%BD');
    assert.equal(encodePart('\uDC00x\uD83D\uDE00'), '%EF%BF%BDx%F0%9F%98%80');
    assert.equal(encodePart('#tag'), encodeURIComponent('#tag'));
  });

  test('a hashtag or cashtag holding one renders in Markdown and Obsidian instead of failing the page', () => {
    const p = c.post({
      id: '8',
      segments: [
        { type: 'text', text: 'odd ' },
        { type: 'hashtag', text: '#\uD800tag', tag: '\uD800tag' },
        { type: 'text', text: ' ' },
        { type: 'cashtag', text: '$\uDC00', symbol: '\uDC00' },
      ],
    });
    const md = renderPostMarkdown(c.singleRead(p), opts);
    assert.ok(md.includes('https://x.com/hashtag/%EF%BF%BDtag'), md);
    assert.ok(md.includes('https://x.com/search?q=%24%EF%BF%BD'), md);
    assert.ok(renderPostObsidian(c.singleRead(p), opts).includes('odd'));
  });
});

describe('handles', () => {
  test('a mention of something that is not a handle is parsed as text', () => {
    const segs = segmentsFromRaw({
      text: 'hi @a)](javascript:x) and @bob',
      facets: [
        { type: 'mention', start: 3, end: 21, original: 'a)](javascript:x)' },
        { type: 'mention', start: 26, end: 30, original: 'bob' },
      ],
    });
    assert.deepEqual(segs, [
      { type: 'text', text: 'hi @a)](javascript:x) and ' },
      { type: 'mention', text: '@bob', handle: 'bob' },
    ]);
  });

  test("parsers build a handle-less permalink when the author's handle is not a handle", () => {
    assert.equal(permalink('alice_dev', '5'), 'https://x.com/alice_dev/status/5');
    assert.equal(permalink(BAD_HANDLE, '5'), 'https://x.com/i/status/5');
    const s = fxFixture();
    const p = parseStatus({ ...s, author: { ...s.author, screen_name: BAD_HANDLE } });
    assert.equal(p.url, `https://x.com/i/status/${s.id}`);
    assert.equal(p.author.handle, BAD_HANDLE, 'the handle is still data, shown as text');
  });

  test('statusPath and profilePath only put handles into paths', () => {
    assert.equal(statusPath('bob', '1'), '/bob/status/1');
    assert.equal(statusPath(BAD_HANDLE, '1'), '/i/status/1');
    assert.equal(statusPath('bob', '1/../x'), '/bob/status/1%2F..%2Fx');
    assert.equal(profilePath('bob'), '/bob');
    assert.equal(profilePath(BAD_HANDLE, '4242'), '/i/user/4242');
    assert.equal(profilePath(BAD_HANDLE, 'x)'), undefined);
    assert.equal(profilePath(BAD_HANDLE), undefined);
  });

  test('a post by a non-handle renders with text in place of links to it', () => {
    const p: Post = { ...c.post({ id: '9', author: badAuthor, text: 'hello' }), url: 'not a url' };
    const md = renderPostMarkdown(c.singleRead(p), opts);
    assertInert(md);
    assert.ok(md.includes('https://x.com/i/status/9'), md);
    // The front matter keeps the handle as a quoted YAML string (data); the note's Markdown body links nothing.
    const note = renderPostObsidian(c.singleRead(p), opts);
    assert.ok(note.includes(`author: ${JSON.stringify(BAD_HANDLE)}`), note);
    assertInert(note.slice(note.indexOf('\n---\n') + 5));
  });

  test('lists, profiles and feeds link a non-handle by account id or not at all', () => {
    const ctx = { baseUrl: c.BASE, full: true };
    const item = accountItem(badAuthor, ctx);
    assertInert(item);
    assert.ok(item.includes(`(${c.BASE}/i/user/4242)`), item);
    assertInert(accountItem({ ...badAuthor, id: '' }, ctx));
    const profile = renderProfileMarkdown(c.profileRead({ profile: badAuthor }), ctx);
    assertInert(profile);
    assert.ok(!profile.includes('[Followers]'), 'no followers link for an account without a handle');
    const p = c.post({ id: '10', author: badAuthor, text: 'x' });
    assert.equal(servicePermalink(c.BASE, p), `${c.BASE}/i/status/10`);
    assert.equal(feedPerson(badAuthor, c.BASE).url, `${c.BASE}/i/user/4242`);
  });
});
