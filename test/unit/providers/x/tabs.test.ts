// The parsers behind reposts, the media tab and account facts on real captures: twscrape's raw_retweeters,
// raw_user_media and raw_user_about (test/fixtures/x/README.md says where each comes from), plus FxEmbed's
// AboutAccountQuery mock for an answer with only `about_profile`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTimelinePage } from '../../../../src/providers/x/parse.ts';
import { parseRetweetersPage } from '../../../../src/providers/x/tabs.ts';
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
