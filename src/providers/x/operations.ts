// The one table of X web GraphQL operations we call. X rotates query ids and feature flags with its web
// deploys; when calls start failing with 400/404 or error 336 ("features cannot be null"), refresh the ids
// below and the flag set from a maintained client (twscrape `twscrape/api.py` OP_* + GQL_FEATURES is the
// source these were taken from; Nitter `src/consts.nim` and FxEmbed `graphql/queries.ts` carry the same facts).
import type { SearchFeed } from '../types.ts';

export type OperationName = 'TweetDetail' | 'UserByScreenName' | 'UserTweets' | 'Followers' | 'Following' | 'SearchTimeline';

export interface Operation {
  queryId: string;
  operationName: OperationName;
  /** Defaults merged under the per-call variables. */
  variables: Readonly<Record<string, unknown>>;
  features: Readonly<Record<string, boolean>>;
  fieldToggles?: Readonly<Record<string, boolean>>;
}

/** twscrape GQL_FEATURES: the flags the web app sends with every timeline query. */
export const GQL_FEATURES: Readonly<Record<string, boolean>> = {
  articles_preview_enabled: false,
  c9s_tweet_anatomy_moderator_badge_enabled: true,
  communities_web_enable_tweet_community_results_fetch: true,
  creator_subscriptions_quote_tweet_preview_enabled: false,
  creator_subscriptions_tweet_preview_api_enabled: true,
  freedom_of_speech_not_reach_fetch_enabled: true,
  graphql_is_translatable_rweb_tweet_is_translatable_enabled: true,
  longform_notetweets_consumption_enabled: true,
  longform_notetweets_inline_media_enabled: true,
  longform_notetweets_rich_text_read_enabled: true,
  responsive_web_edit_tweet_api_enabled: true,
  responsive_web_enhance_cards_enabled: false,
  responsive_web_graphql_exclude_directive_enabled: true,
  responsive_web_graphql_skip_user_profile_image_extensions_enabled: false,
  responsive_web_graphql_timeline_navigation_enabled: true,
  responsive_web_media_download_video_enabled: false,
  responsive_web_twitter_article_tweet_consumption_enabled: true,
  rweb_tipjar_consumption_enabled: true,
  rweb_video_timestamps_enabled: true,
  standardized_nudges_misinfo: true,
  tweet_awards_web_tipping_enabled: false,
  tweet_with_visibility_results_prefer_gql_limited_actions_policy_enabled: true,
  tweet_with_visibility_results_prefer_gql_media_interstitial_enabled: false,
  tweetypie_unmention_optimization_enabled: true,
  verified_phone_label_enabled: false,
  view_counts_everywhere_api_enabled: true,
  responsive_web_grok_analyze_button_fetch_trends_enabled: false,
  premium_content_api_read_enabled: false,
  profile_label_improvements_pcf_label_in_post_enabled: false,
  responsive_web_grok_share_attachment_enabled: false,
  responsive_web_grok_analyze_post_followups_enabled: false,
};

/** twscrape's extra flags for the user lookup. */
const USER_FEATURES: Readonly<Record<string, boolean>> = {
  ...GQL_FEATURES,
  highlights_tweets_tab_ui_enabled: true,
  hidden_profile_likes_enabled: true,
  hidden_profile_subscriptions_enabled: true,
  subscriptions_verification_info_verified_since_enabled: true,
  subscriptions_verification_info_is_identity_verified_enabled: false,
  responsive_web_twitter_article_notes_tab_enabled: false,
  subscriptions_feature_can_gift_premium: false,
};

const CONNECTION_FEATURES: Readonly<Record<string, boolean>> = {
  ...GQL_FEATURES,
  responsive_web_twitter_article_notes_tab_enabled: false,
};

/** Query ids: the twscrape column of upstreams.md §3.2 (Aug 2026). */
export const OPERATIONS: Readonly<Record<OperationName, Operation>> = {
  TweetDetail: {
    queryId: '559hs_YZNV4IgA3Z6zIIuw',
    operationName: 'TweetDetail',
    variables: {
      with_rux_injections: false,
      rankingMode: 'Relevance',
      includePromotedContent: false,
      withCommunity: true,
      withQuickPromoteEligibilityTweetFields: false,
      withBirdwatchNotes: true,
      withVoice: true,
      withV2Timeline: true,
    },
    features: GQL_FEATURES,
    fieldToggles: { withArticleRichContentState: true, withArticlePlainText: false },
  },
  UserByScreenName: {
    queryId: 'Gb-d6r0vxPOADdG62OEBpQ',
    operationName: 'UserByScreenName',
    variables: { withSafetyModeUserFields: true },
    features: USER_FEATURES,
  },
  UserTweets: {
    queryId: 'eoJ5zbv51Z_KVl81v9PmLQ',
    operationName: 'UserTweets',
    variables: {
      count: 20,
      includePromotedContent: false,
      withQuickPromoteEligibilityTweetFields: false,
      withVoice: true,
      withV2Timeline: true,
    },
    features: GQL_FEATURES,
  },
  Followers: {
    queryId: 'vJijlO_CM7dyGFNjDd7iqQ',
    operationName: 'Followers',
    variables: { count: 20, includePromotedContent: false },
    features: CONNECTION_FEATURES,
  },
  Following: {
    queryId: 'b8XpwALENnJdFSHchkK6rw',
    operationName: 'Following',
    variables: { count: 20, includePromotedContent: false },
    features: CONNECTION_FEATURES,
  },
  SearchTimeline: {
    queryId: 'BGd0T_j7oVwlW5U79tO_0A',
    operationName: 'SearchTimeline',
    variables: { count: 20, querySource: 'typed_query', product: 'Latest' },
    features: GQL_FEATURES,
    fieldToggles: { withArticleRichContentState: false },
  },
};

/**
 * Our search feeds → SearchTimeline `product`. X's web app has no Photos/Videos products any more (none of
 * twscrape, Nitter or FxEmbed sends them); its media tab is `Media`, which mixes both. So photos/videos ask
 * for `Media` and keep only posts whose media include that kind.
 */
export const SEARCH_PRODUCTS: Readonly<Record<SearchFeed, { product: string; mediaKind?: 'photo' | 'video' }>> = {
  latest: { product: 'Latest' },
  top: { product: 'Top' },
  users: { product: 'People' },
  photos: { product: 'Media', mediaKind: 'photo' },
  videos: { product: 'Media', mediaKind: 'video' },
};

/** X ranks conversation replies by Relevance (its "top"), Recency or Likes. */
export const RANKING_MODES = { top: 'Relevance', recent: 'Recency' } as const;

/** `$THREADMARK_X_API_URL/graphql/<queryId>/<Operation>?variables=..&features=..[&fieldToggles=..]`. */
export function graphqlUrl(apiRoot: string, name: OperationName, variables: Record<string, unknown>): string {
  const op = OPERATIONS[name];
  const params = new URLSearchParams();
  params.set('variables', JSON.stringify({ ...op.variables, ...dropUndefined(variables) }));
  params.set('features', JSON.stringify(op.features));
  if (op.fieldToggles) params.set('fieldToggles', JSON.stringify(op.fieldToggles));
  return `${apiRoot.replace(/\/+$/, '')}/graphql/${op.queryId}/${op.operationName}?${params.toString()}`;
}

function dropUndefined(v: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined));
}
