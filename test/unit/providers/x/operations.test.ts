// The X operations table as data: the shipped file, override validation (one line naming the bad key),
// the merge, and the precedence of override and discovered ids.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DEFAULT_OPERATIONS,
  OperationsFileError,
  SEARCH_PRODUCTS,
  graphqlUrl,
  mergeOperations,
  parseOperationsOverride,
} from '../../../../src/providers/x/operations.ts';
import { OperationTable } from '../../../../src/providers/x/operation-table.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-ops-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the shipped operations table (operations.json)', () => {
  it('holds the sixteen operations with twscrape query ids (Nitter for ListByRestId, FxEmbed for UserArticlesTweets) and their flags', () => {
    assert.deepEqual(Object.keys(DEFAULT_OPERATIONS).sort(), [
      'AboutAccountQuery',
      'Followers',
      'Following',
      'GenericTimelineById',
      'ListByRestId',
      'ListLatestTweetsTimeline',
      'ListMembers',
      'Retweeters',
      'SearchTimeline',
      'TweetDetail',
      'UserArticlesTweets',
      'UserByRestId',
      'UserByScreenName',
      'UserMedia',
      'UserTweets',
      'UserTweetsAndReplies',
    ]);
    assert.equal(DEFAULT_OPERATIONS.Retweeters.queryId, '_wJOTLm5HMqNdcr1nGWlyA');
    assert.equal(DEFAULT_OPERATIONS.UserMedia.queryId, '2DC9TKrcUzwGC_QskSVl5w');
    // The profile's Replies tab: twscrape's OP_UserTweetsAndReplies, UserTweets' variables plus withCommunity.
    assert.equal(DEFAULT_OPERATIONS.UserTweetsAndReplies.queryId, 'wc5DRl4VaW5lSqJ8YbftZQ');
    assert.deepEqual(DEFAULT_OPERATIONS.UserTweetsAndReplies.variables, {
      ...DEFAULT_OPERATIONS.UserTweets.variables,
      withCommunity: true,
    });
    assert.equal(DEFAULT_OPERATIONS.AboutAccountQuery.queryId, 'TzOG2twZEfhr9KmClvVVqA');
    assert.equal(DEFAULT_OPERATIONS.GenericTimelineById.queryId, 'BrGScxnisMdTXyeLScaEhQ');
    assert.equal(DEFAULT_OPERATIONS.UserArticlesTweets.queryId, 'mgo2LHt5kJBnE73Lb0NgUA');
    assert.deepEqual(DEFAULT_OPERATIONS.UserArticlesTweets.fieldToggles, { withArticlePlainText: false });
    assert.equal(DEFAULT_OPERATIONS.ListLatestTweetsTimeline.queryId, 'jW040BLUjh8X6Tw2ODQufA');
    assert.equal(DEFAULT_OPERATIONS.ListMembers.queryId, 'wGce-45xnc5bs3HVvevC2w');
    assert.equal(DEFAULT_OPERATIONS.ListByRestId.queryId, 'niz0TtOxL2zIcbq6_NQiNw');
    assert.equal(DEFAULT_OPERATIONS.UserByRestId.queryId, 'xvmVfRLmnr1alc5f2dib0Q');
    assert.equal(DEFAULT_OPERATIONS.TweetDetail.queryId, '559hs_YZNV4IgA3Z6zIIuw');
    assert.equal(DEFAULT_OPERATIONS.SearchTimeline.queryId, 'BGd0T_j7oVwlW5U79tO_0A');
    for (const [name, op] of Object.entries(DEFAULT_OPERATIONS)) {
      assert.equal(op.operationName, name);
      assert.match(op.queryId, /^[A-Za-z0-9_-]{22}$/);
      assert.equal(op.features.longform_notetweets_consumption_enabled, true);
    }
    assert.equal(DEFAULT_OPERATIONS.UserByScreenName.features.hidden_profile_subscriptions_enabled, true);
    assert.equal(DEFAULT_OPERATIONS.SearchTimeline.transactionId, true, 'search needs x-client-transaction-id');
    assert.equal(DEFAULT_OPERATIONS.TweetDetail.transactionId, false);
  });

  it('builds the GraphQL URL with JSON-encoded variables, features and field toggles', () => {
    const url = new URL(
      graphqlUrl('http://sim.local/x/i/api/', DEFAULT_OPERATIONS.SearchTimeline, {
        rawQuery: 'a b',
        product: 'Top',
        cursor: undefined,
      }),
    );
    assert.equal(url.pathname, '/x/i/api/graphql/BGd0T_j7oVwlW5U79tO_0A/SearchTimeline');
    assert.deepEqual(JSON.parse(url.searchParams.get('variables')!), {
      count: 20,
      querySource: 'typed_query',
      product: 'Top',
      rawQuery: 'a b',
    });
    assert.deepEqual(JSON.parse(url.searchParams.get('features')!), DEFAULT_OPERATIONS.SearchTimeline.features);
    assert.deepEqual(JSON.parse(url.searchParams.get('fieldToggles')!), { withArticleRichContentState: false });
    assert.equal(
      new URL(graphqlUrl('http://h/api', DEFAULT_OPERATIONS.UserTweets, {})).searchParams.get('fieldToggles'),
      null,
    );
  });

  it('maps photos and videos to the Media product with a media-kind filter', () => {
    assert.deepEqual(SEARCH_PRODUCTS.photos, { product: 'Media', mediaKind: 'photo' });
    assert.deepEqual(SEARCH_PRODUCTS.videos, { product: 'Media', mediaKind: 'video' });
    assert.equal(SEARCH_PRODUCTS.users.product, 'People');
  });
});

describe('override files', () => {
  const bad: Array<[unknown, RegExp]> = [
    ['[]', /must be a JSON object keyed by operation name/],
    ['{"TweetDetail":', /is not valid JSON/],
    [{ Tweets: {} }, /^Tweets is not a known operation \(known: TweetDetail/],
    [{ TweetDetail: { queryID: 'abcdefgh12' } }, /^TweetDetail\.queryID is not a field of an operation/],
    [{ TweetDetail: { queryId: 'no spaces here' } }, /^TweetDetail\.queryId must be 8-64 letters/],
    [
      { SearchTimeline: { features: { a_flag: 'yes' } } },
      /^SearchTimeline\.features\.a_flag must be true, false or null$/,
    ],
    [
      { SearchTimeline: { fieldToggles: { withX: 1 } } },
      /^SearchTimeline\.fieldToggles\.withX must be true, false or null$/,
    ],
    [{ Followers: { variables: [] } }, /^Followers\.variables must be an object$/],
    [{ Followers: { transactionId: 'yes' } }, /^Followers\.transactionId must be boolean$/],
  ];
  for (const [input, want] of bad) {
    it(`rejects ${typeof input === 'string' ? input : JSON.stringify(input)} with one line naming the key`, () => {
      const text = typeof input === 'string' ? input : JSON.stringify(input);
      assert.throws(
        () => parseOperationsOverride(text),
        (e: Error) => e instanceof OperationsFileError && want.test(e.message) && !e.message.includes('\n'),
      );
    });
  }

  it('merges any subset over the defaults, flag by flag; null removes a flag', () => {
    const merged = mergeOperations(
      DEFAULT_OPERATIONS,
      parseOperationsOverride(
        JSON.stringify({
          TweetDetail: {
            queryId: 'newTweetDetail_id1',
            features: { brand_new_flag: true, rweb_video_timestamps_enabled: null },
          },
          SearchTimeline: { fieldToggles: { withArticleRichContentState: null }, variables: { count: 10 } },
        }),
      ),
    );
    assert.equal(merged.TweetDetail.queryId, 'newTweetDetail_id1');
    assert.equal(merged.TweetDetail.features.brand_new_flag, true);
    assert.ok(!('rweb_video_timestamps_enabled' in merged.TweetDetail.features));
    assert.equal(merged.TweetDetail.features.longform_notetweets_consumption_enabled, true, 'other flags kept');
    assert.deepEqual(merged.TweetDetail.fieldToggles, DEFAULT_OPERATIONS.TweetDetail.fieldToggles);
    assert.equal(merged.SearchTimeline.fieldToggles, undefined, 'no toggles left: none sent');
    assert.equal(merged.SearchTimeline.variables.count, 10);
    assert.equal(merged.SearchTimeline.variables.querySource, 'typed_query');
    assert.equal(merged.UserTweets, DEFAULT_OPERATIONS.UserTweets);
  });

  it('the table in force: shipped, then override, then discovered; an override written later wins again', () => {
    const file = join(dir, 'ops.json');
    writeFileSync(file, JSON.stringify({ Followers: { queryId: 'pinnedFollowers1' } }));
    const t = new OperationTable({ overridePath: file });
    const source = () => Object.fromEntries(t.rows().map((r) => [r.name, `${r.source}:${r.operation.queryId}`]));
    assert.equal(source().Followers, 'override:pinnedFollowers1');
    assert.equal(source().Following, `shipped:${DEFAULT_OPERATIONS.Following.queryId}`);
    const changed = t.applyDiscovered(
      new Map([
        ['Followers', 'discoveredFoll1'],
        ['Following', DEFAULT_OPERATIONS.Following.queryId],
        ['CreateTweet', 'xxxxxxxxxx'],
      ]),
    );
    assert.deepEqual(changed, ['Followers'], 'only changed ids of operations we call');
    assert.equal(source().Followers, 'discovered:discoveredFoll1');
    writeFileSync(file, JSON.stringify({ Followers: { queryId: 'pinnedAgain0001' } }));
    assert.equal(t.reload(), true);
    assert.equal(source().Followers, 'override:pinnedAgain0001');
    writeFileSync(file, '{"Followers": {"queryId": 5}}');
    assert.equal(t.reload(), false);
    assert.match(t.lastError ?? '', /Followers\.queryId/);
    assert.equal(source().Followers, 'override:pinnedAgain0001', 'a bad file leaves the table in force');
  });

  it("the Replies tab's id is discovered like every other", () => {
    const t = new OperationTable();
    assert.deepEqual(t.applyDiscovered(new Map([['UserTweetsAndReplies', 'newRepliesTab01']])), [
      'UserTweetsAndReplies',
    ]);
    const row = t.rows().find((r) => r.name === 'UserTweetsAndReplies')!;
    assert.deepEqual([row.source, row.operation.queryId], ['discovered', 'newRepliesTab01']);
  });
});
