// The one reader of pasted links: what each shape names, where it is read on this service, and what is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accountOf,
  isRefusal,
  parseLink,
  parsePostLink,
  permalinkOf,
  platformPostLink,
} from '../../../src/domain/pasted-link.ts';

function permalink(link: string): string {
  const t = parseLink(link, 'mirrors');
  assert.ok(!isRefusal(t), `${link}: ${JSON.stringify(t)}`);
  const url = new URL(/^https?:\//i.test(link) ? link : `https://${link}`);
  return permalinkOf(t, url.searchParams);
}

test('every readable shape maps to its permalink, trackers dropped and service parameters kept', () => {
  const cases: Array<[string, string]> = [
    ['https://x.com/jack/status/20?s=20&t=abc', '/jack/status/20'],
    ['x.com/jack/status/20/photo/1', '/jack/status/20'],
    ['https://x.com/i/web/status/20', '/i/status/20'],
    ['https://twitter.com/jack?format=json', '/jack?format=json'],
    ['https://x.com/@jack/following', '/jack/following'],
    ['https://x.com/jack/with_replies', '/jack?with_replies=true'],
    ['https://nitter.net/jack/with_replies/rss', '/jack/with_replies/rss'],
    ['https://x.com/i/lists/5/members', '/i/lists/5/members'],
    ['https://x.com/i/user/12', '/i/user/12'],
    ['https://x.com/search?q=a%20b&src=typed_query&f=live', '/search?q=a+b&feed=latest'],
    ['https://d.fxtwitter.com/jack/status/20', '/jack/status/20'],
  ];
  for (const [link, expected] of cases) assert.equal(permalink(link), expected, link);
});

test('the newer reads: profile tabs, quotes and reposts, hashtags, cashtags and trends', () => {
  const cases: Array<[string, string]> = [
    ['https://x.com/jack/media', '/jack/media'],
    ['https://twitter.com/jack/articles', '/jack/articles'],
    ['mobile.twitter.com/@jack/about', '/jack/about'],
    ['https://nitter.net/jack/media', '/jack/media'],
    ['https://x.com/jack/status/20/quotes', '/jack/status/20/quotes'],
    ['https://x.com/jack/status/20/retweets?s=20', '/jack/status/20/reposts'],
    ['https://xcancel.com/jack/status/20/retweets', '/jack/status/20/reposts'],
    ['https://twitter.com/jack/status/20/retweets/with_comments', '/jack/status/20/quotes'],
    // Handle-less, X's quotes page still names the post: the lists here are addressed by handle.
    ['https://x.com/i/status/20/quotes', '/i/status/20'],
    // A media viewer's index after the trailer is the post's photo, not a list.
    ['https://x.com/jack/status/20/photo/1', '/jack/status/20'],
    ['https://x.com/hashtag/caching?src=hashtag_click', '/hashtag/caching'],
    ['https://twitter.com/hashtag/caching?src=hashtag_click&f=live', '/hashtag/caching?feed=latest'],
    ['https://x.com/hashtag/caf%C3%A9', `/hashtag/${encodeURIComponent('café')}`],
    ['https://x.com/search?q=%23caching&src=hashtag_click', '/hashtag/caching'],
    ['https://x.com/search?q=%23caching&f=top', '/hashtag/caching?feed=top'],
    ['https://x.com/search?q=%24tsla&src=cashtag_click', '/cashtag/TSLA'],
    ['https://x.com/search?q=%24BRK.A', '/cashtag/BRK.A'],
    ['https://nitter.net/search?q=%23caching&f=tweets', '/hashtag/caching?feed=latest'],
    ['https://nitter.net/search/rss?q=%23caching', '/hashtag/caching/rss'],
    // More than one tag, words beside it, a tag X could not have made, or the accounts tab: still a search.
    ['https://x.com/search?q=%23a%20%23b', '/search?q=%23a+%23b'],
    ['https://x.com/search?q=%23caching%20redis', '/search?q=%23caching+redis'],
    ['https://x.com/search?q=%24TOOLONGX', '/search?q=%24TOOLONGX'],
    ['https://x.com/search?q=%23caching&f=user', '/search?q=%23caching&feed=users'],
    // A hashtag path the platform could not have made is left for the tag page to refuse (invalid_hashtag).
    ['https://x.com/hashtag/foo-bar', '/hashtag/foo-bar'],
    ['https://x.com/explore/tabs/trending', '/trends'],
    ['https://x.com/i/trends?format=json', '/trends?format=json'],
  ];
  for (const [link, expected] of cases) assert.equal(permalink(link), expected, link);
});

test('refusals carry the code the edge answers with', () => {
  const cases: Array<[string, string]> = [
    ['https://example.com/jack', 'unsupported_host'],
    ['https://nitterx.net/jack', 'unsupported_host'],
    ['ftp://x.com/jack', 'invalid_url'],
    ['https://u:p@x.com/jack', 'invalid_url'],
    ['https://x.com/jack/likes', 'invalid_path'],
    ['https://x.com/i/bookmarks', 'invalid_path'],
    ['https://x.com/', 'invalid_path'],
    ['https://x.com/jack/status/20/quotes/extra', 'invalid_path'],
    ['https://x.com/hashtag', 'invalid_path'],
    ['https://x.com/hashtag/caching/extra', 'invalid_path'],
    ['https://x.com/explore', 'invalid_path'],
    ['https://x.com/explore/tabs/for-you', 'invalid_path'],
    ['https://x.com/jack/about/more', 'invalid_path'],
  ];
  for (const [link, code] of cases) {
    const t = parseLink(link, 'mirrors');
    assert.ok(isRefusal(t) && t.code === code, `${link}: ${JSON.stringify(t)}`);
  }
});

test('the url parameter keeps to the platform hosts', () => {
  const fx = parsePostLink('https://fxtwitter.com/jack/status/20', 'platform');
  assert.ok(isRefusal(fx) && fx.code === 'unsupported_host');
  assert.match((fx as { detail: string }).detail, /x\.com, twitter\.com/);
  assert.deepEqual(parsePostLink('https://mobile.twitter.com/jack/status/20', 'platform'), {
    handle: 'jack',
    id: '20',
  });
});

test('refusals say what was wrong in the words of what was pasted', () => {
  const detail = (link: string) => {
    const t = parseLink(link, 'mirrors');
    assert.ok(isRefusal(t), link);
    return t.detail;
  };
  assert.match(detail('https://x.com/alice_dev/status/abc'), /^`abc` is not a status id/);
  assert.match(detail('https://nitter.net/alice_dev/likes'), /^`likes` is a tab of @alice_dev's profile/);
  assert.match(detail('not a link at all'), /^This is not a link\. Paste a link to a post/);
  const mirror = parsePostLink('https://nitter.net/jack/status/20', 'platform');
  assert.ok(isRefusal(mirror));
  assert.match(mirror.detail, /the same post is https:\/\/x\.com\/jack\/status\/20/);
});

test('a mirror link to a post becomes its x.com link; anything else is left for the url parameter to judge', () => {
  assert.equal(platformPostLink('https://fxtwitter.com/jack/status/20/photo/1'), 'https://x.com/jack/status/20');
  assert.equal(platformPostLink('nitter.net/i/status/20'), 'https://x.com/i/status/20');
  for (const kept of ['https://twitter.com/jack/status/20', 'https://example.com/jack/status/20', 'nitter.net/jack'])
    assert.equal(platformPostLink(kept), kept);
});

test('the account a subject names', () => {
  assert.equal(accountOf('@bob'), 'bob');
  assert.equal(accountOf('https://x.com/bob/status/1'), 'bob');
  assert.equal(accountOf('x.com/i/lists/1'), undefined);
  assert.equal(accountOf('x.com/hashtag/caching'), undefined);
  assert.equal(accountOf('https://x.com/bob/media'), 'bob');
});
