import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderProfileMarkdown } from '../../../src/render/markdown/profile.ts';
import { renderConnectionsMarkdown } from '../../../src/render/markdown/connections.ts';
import { renderSearchMarkdown } from '../../../src/render/markdown/search.ts';
import { renderRecoveryMarkdown } from '../../../src/render/markdown/recovery.ts';
import * as c from '../../fixtures/render/corpus.ts';
import { htmlOf, targets } from './helpers.ts';
import { isLineSubsequence, matchSnapshot } from './snapshot.ts';

const ctx = (full = false) => ({ baseUrl: c.BASE, full });

const renderers = {
  profile: (cursor: boolean, full = false) =>
    renderProfileMarkdown(c.profileRead(cursor ? {} : { nextCursor: undefined, continueUrl: undefined }), ctx(full)),
  connections: (cursor: boolean, full = false) =>
    renderConnectionsMarkdown(
      c.connectionsRead(cursor ? {} : { nextCursor: undefined, continueUrl: undefined }),
      ctx(full),
    ),
  search: (cursor: boolean, full = false) =>
    renderSearchMarkdown(
      c.searchRead(cursor ? { nextCursor: 'c3', continueUrl: `${c.BASE}/search?q=caching&feed=latest&cursor=c3` } : {}),
      ctx(full),
    ),
};

describe('list documents', () => {
  for (const [name, render] of Object.entries(renderers)) {
    test(`${name} snapshots (compact and full)`, () => {
      matchSnapshot(`lists/${name}.md`, render(true));
      matchSnapshot(`lists/${name}-full.md`, render(true, true));
    });

    test(`${name}: Continue link is the last line exactly when nextCursor is set`, () => {
      const withCursor = render(true);
      assert.match(withCursor, /\n\[Continue →\]\(http:\/\/threadmark\.test\/[^)\s]+cursor=[^)\s]+\)\n$/);
      const without = render(false);
      assert.ok(!without.includes('Continue'));
    });

    test(`${name}: full only adds lines`, () => {
      assert.ok(isLineSubsequence(render(true), render(true, true)));
    });

    test(`${name}: hostile names and bios stay inert in HTML`, () => {
      const html = htmlOf(render(true, true));
      assert.ok(!/<script|<img src=x|<b>/i.test(html));
      for (const t of targets(html)) assert.match(t, /^(https:\/\/|http:\/\/threadmark\.test\/)/, t);
    });
  }

  test('a missing continueUrl still lets the reader page with the cursor', () => {
    const md = renderConnectionsMarkdown(c.connectionsRead({ continueUrl: undefined }), ctx());
    assert.ok(md.trimEnd().endsWith('Continue → pass cursor=`c2.def`'));
  });

  test('page number and result count are stated', () => {
    assert.ok(renderers.search(false).includes('\nPage 2 · 4 results\n'));
    assert.ok(renderers.connections(false).includes('Page 1 · 4 accounts'));
    assert.ok(renderers.profile(false).includes('Page 1 · 3 posts'));
  });

  test('connections: one line per account, handle linked on this service, bios truncated to one line', () => {
    const md = renderers.connections(false);
    const items = md.split('\n').filter((l) => l.startsWith('- '));
    assert.equal(items.length, 4);
    assert.ok(items[0]!.startsWith('- **Bob** ([@bob](http://threadmark.test/bob)) — Reader.'));
    assert.ok(items[3]!.endsWith('word…') && items[3]!.length < 260);
    assert.ok(md.startsWith('# Followers of @alice_dev\n'));
    assert.ok(
      renderConnectionsMarkdown(c.connectionsRead({ kind: 'following' }), ctx()).startsWith(
        '# Accounts @alice_dev follows\n',
      ),
    );
  });

  test('profile: bio with links, facts, and posts without repeating the author', () => {
    const md = renderers.profile(false);
    assert.ok(
      md.startsWith(
        '# Alice Dev (@alice_dev)\n\nBuilding things in public. Caching nerd at [@acme](https://x.com/acme) <https://alice.dev/>\n',
      ),
    );
    assert.ok(
      md.includes('Location: Berlin · Website: <https://alice.dev/> · Joined 2019-03-04 · 45 followers · 12 following'),
    );
    assert.ok(md.includes('\n### 2026-01-01 00:01 UTC\n'));
    assert.ok(renderers.profile(false, true).includes('300 posts · 1200 likes · 20 media · verified'));
  });

  test('search: posts link to the thread here, accounts to their profile here', () => {
    const md = renderers.search(false);
    assert.ok(md.includes('[Thread](http://threadmark.test/alice_dev/status/1900000000000000002)'));
    assert.ok(md.includes('([@carol](http://threadmark.test/carol))'));
    assert.ok(md.startsWith('# Search: “caching \\<b>\\*\\*now\\*\\*\\</b> # x” · latest\n'));
  });

  test('empty pages say so', () => {
    assert.ok(renderConnectionsMarkdown(c.connectionsRead({ items: [] }), ctx()).includes('No accounts on this page.'));
    assert.ok(renderSearchMarkdown(c.searchRead({ items: [] }), ctx()).includes('No results on this page.'));
    assert.ok(renderProfileMarkdown(c.profileRead({ posts: [] }), ctx()).includes('No original posts on this page.'));
  });
});

describe('recovery document', () => {
  test('profile snapshot', () =>
    matchSnapshot('recovery/profile.md', renderRecoveryMarkdown('profile', '@ghost_user', c.BASE)));
  test('post snapshot', () =>
    matchSnapshot('recovery/post.md', renderRecoveryMarkdown('post', '@alice_dev/status/123', c.BASE)));

  test('says what is missing, where to look and every valid URL shape', () => {
    const md = renderRecoveryMarkdown('post', '@alice_dev/status/123', c.BASE);
    assert.ok(
      md.startsWith('# Not found: @alice\\_dev/status/123\n') || md.startsWith('# Not found: @alice_dev/status/123\n'),
    );
    assert.ok(md.includes(`[@alice_dev](${c.BASE}/alice_dev)`));
    for (const shape of [
      '/{handle}',
      '/{handle}/status/{id}',
      '/{handle}/followers',
      '/{handle}/following',
      '/search?q=',
      '/api/v1/',
    ]) {
      assert.ok(md.includes(shape), shape);
    }
  });

  test('hostile "what" is escaped', () => {
    const html = htmlOf(renderRecoveryMarkdown('profile', '<script>x</script> [a](javascript:1)', c.BASE));
    assert.ok(!html.includes('<script'));
    assert.ok(!targets(html).some((t) => t.startsWith('javascript')));
  });
});
