// The parsers behind reposts, the profile tabs and account facts on real captures: twscrape's raw_retweeters,
// raw_user_media and raw_user_about (test/fixtures/x/README.md says where each comes from), plus FxEmbed's
// AboutAccountQuery mock for an answer with only `about_profile`, and the Articles tab in the shape FxEmbed reads it
// in, built from twscrape's article capture (no public UserArticlesTweets capture exists).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConversation, parseTimelinePage } from '../../../../src/providers/x/parse.ts';
import {
  lacksArticleBody,
  parseArticlesPage,
  parseRetweetersPage,
  withArticleBodies,
  withArticleBody,
} from '../../../../src/providers/x/tabs.ts';
import { parseAbout } from '../../../../src/providers/x/about.ts';
import { unknownFacts } from '../../../../src/domain/about.ts';
import { ProviderError } from '../../../../src/providers/types.ts';
import type { XEnvelope } from '../../../../src/providers/x/wire.ts';
import { fixture } from '../fixtures.ts';

const x = (name: string) => fixture<XEnvelope>(`x/${name}`);

describe('x parse: Retweeters', () => {
  it('reads the user- entries in order and the bottom cursor', () => {
    const page = parseRetweetersPage(x('retweeters.json'), '1');
    assert.deepEqual(
      page.items.map((a) => a.handle),
      ['Four_leafc1988', 'alibdor99'],
    );
    assert.equal(page.nextCursor, 'HBamqvqz09L8szEAAA==');
  });

  it('an answer without the timeline is an error, not an empty list', () => {
    assert.throws(
      () => parseRetweetersPage({ data: {} }, '1'),
      (e: unknown) => e instanceof ProviderError && e.kind === 'error',
    );
  });
});

describe('x parse: UserMedia', () => {
  it('reads the posts of the profile-grid-0 module, each with its media', () => {
    const page = parseTimelinePage(x('user_media.json'));
    assert.deepEqual(
      page.items.map((p) => p.id),
      ['2074882755905585583', '2072126677535346779'],
    );
    assert.ok(page.items.every((p) => p.author.handle === 'XDevelopers' && p.media.length > 0));
    assert.ok(page.nextCursor);
  });
});

describe('x parse: AboutAccountQuery', () => {
  it('reads every fact of the capture: place, source, joined, verification since, renames, affiliate', () => {
    const f = parseAbout(x('user_about.json'), 'XDevelopers');
    assert.deepEqual(f, {
      id: '2244994945',
      handle: 'XDevelopers',
      name: 'Developers',
      basedIn: 'United States',
      basedInAccurate: true,
      connectedVia: 'Web',
      joined: '2013-12-14T04:35:55.000Z',
      verified: true,
      verifiedType: 'business',
      verifiedSince: '2014-03-21T18:15:00.472Z',
      identityVerified: false,
      usernameChanges: 1,
      lastUsernameChange: '2023-07-26T01:33:12.280Z',
      affiliate: {
        name: 'X',
        url: 'https://twitter.com/X',
        badgeUrl: 'https://pbs.twimg.com/profile_images/1955359038532653056/OSHY3ewP_bigger.jpg',
      },
    });
    assert.deepEqual(unknownFacts(f), []);
  });

  it('an answer with only about_profile (FxEmbed mock) leaves the rest unknown rather than guessed', () => {
    const env = {
      data: {
        user_result_by_screen_name: {
          result: {
            __typename: 'User',
            core: { screen_name: 'X' },
            about_profile: {
              account_based_in: 'United States',
              location_accurate: true,
              source: 'United States App Store',
              username_changes: { count: '3', last_changed_at_msec: '1609459200000' },
            },
          },
        },
      },
    } as XEnvelope;
    const f = parseAbout(env, 'X');
    assert.equal(f.basedIn, 'United States');
    assert.equal(f.usernameChanges, 3);
    assert.equal(f.lastUsernameChange, '2021-01-01T00:00:00.000Z');
    assert.equal(f.verified, false);
    assert.deepEqual(unknownFacts(f), ['joined', 'affiliate']);
  });

  it('a suspended, missing or protected account is not_found', () => {
    const cases: XEnvelope[] = [
      { data: { user_result_by_screen_name: { result: { __typename: 'UserUnavailable', reason: 'Suspended' } } } },
      { data: {} },
      {
        data: {
          user_result_by_screen_name: {
            result: { __typename: 'User', core: { screen_name: 'l' }, privacy: { protected: true } },
          },
        },
      },
    ];
    for (const env of cases)
      assert.throws(
        () => parseAbout(env, 'l'),
        (e: unknown) => e instanceof ProviderError && e.kind === 'not_found',
      );
  });
});

describe('x parse: UserArticlesTweets', () => {
  it('reads the tweet- entries as Article posts, compact (title, preview, cover, no body yet), and the bottom cursor', () => {
    const page = parseArticlesPage(x('user_articles.json'));
    assert.deepEqual(
      page.items.map((p) => p.id),
      ['2075503860689281453'],
    );
    const [post] = page.items;
    assert.equal(post!.article!.title, '🚀 نقشه راه کامل Hermes Agent: از نصب تا Production');
    assert.match(post!.article!.previewText!, /^اگه می/);
    assert.equal(post!.article!.coverUrl, 'https://pbs.twimg.com/media/HM2spuXbUAAZTCZ.jpg');
    assert.deepEqual(post!.article!.blocks, []);
    assert.ok(lacksArticleBody(post!));
    assert.equal(page.nextCursor, 'DAABCgABGgN1BW8__-oKAAIZgp02XhdRkwgAAwAAAAIAAA');
  });

  it("the post's own read gives the Article whole; another post's read or one without an Article does not", () => {
    const [listed] = parseArticlesPage(x('user_articles.json')).items;
    const read = parseConversation(x('tweet_detail_article.json'), listed!.id).bundle.post;
    assert.ok(read.article!.blocks.length > 0);
    const whole = withArticleBody(listed!, read);
    assert.ok(!lacksArticleBody(whole));
    assert.equal(whole.article!.title, listed!.article!.title);
    assert.equal(withArticleBody(listed!, { ...read, id: '1' }), listed);
    assert.equal(withArticleBody(listed!, { ...read, article: undefined }), listed);
  });

  it('bodies are read one at a time, only for Articles without one; a post gone since the listing is left out', async () => {
    const [listed] = parseArticlesPage(x('user_articles.json')).items;
    const read = parseConversation(x('tweet_detail_article.json'), listed!.id).bundle.post;
    const gone = { ...listed!, id: '2' };
    const asked: string[] = [];
    let reading = 0;
    const items = await withArticleBodies([listed!, read, gone], async (id) => {
      asked.push(id);
      assert.equal(reading++, 0, 'one read at a time');
      await new Promise((r) => setTimeout(r, 1));
      reading--;
      if (id === '2') throw new ProviderError('x', 'not_found', 'No status found with that ID.');
      return read;
    });
    assert.deepEqual(asked, [listed!.id, '2'], 'the whole Article is not read again');
    assert.deepEqual(
      items.map((p) => [p.id, p.article!.blocks.length > 0]),
      [
        [listed!.id, true],
        [read.id, true],
      ],
    );
  });

  it('any other failure of a body read fails the page rather than serving the Article cut to its preview', async () => {
    const [listed] = parseArticlesPage(x('user_articles.json')).items;
    await assert.rejects(
      withArticleBodies([listed!], () => Promise.reject(new ProviderError('x', 'unavailable', 'every session parked'))),
      (e: unknown) => e instanceof ProviderError && e.kind === 'unavailable',
    );
  });

  it('posts without an Article are not on the tab; an answer without the timeline is an error', () => {
    assert.deepEqual(parseArticlesPage(x('user_media.json')).items, []);
    assert.throws(
      () => parseArticlesPage({ data: {} }),
      (e: unknown) => e instanceof ProviderError && e.kind === 'error',
    );
  });
});
