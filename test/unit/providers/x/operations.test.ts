import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GQL_FEATURES, OPERATIONS, SEARCH_PRODUCTS, graphqlUrl } from '../../../../src/providers/x/operations.ts';

describe('x operations table', () => {
  it('holds the six operations with twscrape query ids', () => {
    assert.deepEqual(Object.keys(OPERATIONS).sort(), ['Followers', 'Following', 'SearchTimeline', 'TweetDetail', 'UserByScreenName', 'UserTweets']);
    assert.equal(OPERATIONS.TweetDetail.queryId, '559hs_YZNV4IgA3Z6zIIuw');
    assert.equal(OPERATIONS.SearchTimeline.queryId, 'BGd0T_j7oVwlW5U79tO_0A');
    for (const op of Object.values(OPERATIONS)) {
      assert.match(op.queryId, /^[A-Za-z0-9_-]{22}$/);
      assert.equal(op.features.longform_notetweets_consumption_enabled, true);
    }
  });

  it('builds the GraphQL URL with JSON-encoded variables, features and field toggles', () => {
    const url = new URL(graphqlUrl('http://sim.local/x/i/api/', 'SearchTimeline', { rawQuery: 'a b', product: 'Top', cursor: undefined }));
    assert.equal(url.pathname, '/x/i/api/graphql/BGd0T_j7oVwlW5U79tO_0A/SearchTimeline');
    const variables = JSON.parse(url.searchParams.get('variables')!);
    assert.deepEqual(variables, { count: 20, querySource: 'typed_query', product: 'Top', rawQuery: 'a b' });
    assert.deepEqual(JSON.parse(url.searchParams.get('features')!), GQL_FEATURES);
    assert.deepEqual(JSON.parse(url.searchParams.get('fieldToggles')!), { withArticleRichContentState: false });
    assert.equal(new URL(graphqlUrl('http://h/api', 'UserTweets', {})).searchParams.get('fieldToggles'), null);
  });

  it('maps photos and videos to the Media product with a media-kind filter', () => {
    assert.deepEqual(SEARCH_PRODUCTS.photos, { product: 'Media', mediaKind: 'photo' });
    assert.deepEqual(SEARCH_PRODUCTS.videos, { product: 'Media', mediaKind: 'video' });
    assert.equal(SEARCH_PRODUCTS.users.product, 'People');
  });
});
