// The one reader of pasted links: what each shape names, where it is read on this service, and what is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountOf, isRefusal, parseLink, parsePostLink, permalinkOf } from '../../../src/domain/pasted-link.ts';

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

test('refusals carry the code the edge answers with', () => {
  const cases: Array<[string, string]> = [
    ['https://example.com/jack', 'unsupported_host'],
    ['https://nitterx.net/jack', 'unsupported_host'],
    ['ftp://x.com/jack', 'invalid_url'],
    ['https://u:p@x.com/jack', 'invalid_url'],
    ['https://x.com/jack/likes', 'invalid_path'],
    ['https://x.com/i/bookmarks', 'invalid_path'],
    ['https://x.com/', 'invalid_path'],
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

test('the account a subject names', () => {
  assert.equal(accountOf('@bob'), 'bob');
  assert.equal(accountOf('https://x.com/bob/status/1'), 'bob');
  assert.equal(accountOf('x.com/i/lists/1'), undefined);
});
