// Wire shapes of X's web GraphQL timelines (TweetDetail, UserTweets, Followers/Following, SearchTimeline,
// UserByScreenName), as seen in real captures (twscrape tests/mocked-data, FxEmbed test/mocks). Every field
// is optional because X drops fields freely between deploys; parse.ts reads defensively.
// Also used by the simulator to emit the same nesting.
import type { ArticleMediaEntity, DraftContent } from '../shared/article.ts';

export interface XGraphqlError {
  code?: number;
  message?: string;
  kind?: string;
  name?: string;
  path?: (string | number)[];
  extensions?: { code?: number; name?: string; kind?: string; source?: string };
}

export interface XEnvelope<D = XData> {
  data?: D;
  errors?: XGraphqlError[];
}

export interface XTimeline {
  instructions?: XInstruction[];
  metadata?: unknown;
}

export interface XData {
  threaded_conversation_with_injections_v2?: XTimeline;
  search_by_raw_query?: { search_timeline?: { timeline?: XTimeline } };
  user?: { result?: XUserResult & { timeline?: { timeline?: XTimeline }; timeline_v2?: { timeline?: XTimeline } } };
  tweetResult?: { result?: XTweetResult };
  /** AboutAccountQuery: the account with its "About this account" facts. */
  user_result_by_screen_name?: { result?: XAboutUser | XUserUnavailable };
  /** GenericTimelineById: an Explore timeline (the trending one lists TimelineTrend items). */
  timeline?: { timeline?: XTimeline };
  /** Retweeters: the accounts that reposted a post, as `user-{id}` entries. */
  retweeters_timeline?: { timeline?: XTimeline };
  /** ListByRestId answers the list itself; the list timelines nest their timeline under it. */
  list?: XList & {
    tweets_timeline?: { timeline?: XTimeline };
    members_timeline?: { timeline?: XTimeline };
  };
}

/** An X List (ListByRestId). `mode` is Public or Private; `created_at` is epoch milliseconds. */
export interface XList {
  __typename?: string;
  id?: string;
  id_str?: string;
  name?: string;
  description?: string;
  member_count?: number;
  subscriber_count?: number;
  mode?: string;
  created_at?: number;
  user_results?: { result?: XUserResult };
}

export type XInstruction =
  | { type: 'TimelineAddEntries'; entries?: XEntry[] }
  | { type: 'TimelinePinEntry'; entry?: XEntry }
  | { type: 'TimelineReplaceEntry'; entry_id_to_replace?: string; entry?: XEntry }
  | { type: 'TimelineAddToModule'; moduleEntryId?: string; moduleItems?: XModuleItem[]; prepend?: boolean }
  | { type: 'TimelineClearCache' }
  | { type: 'TimelineTerminateTimeline'; direction?: 'Top' | 'Bottom' | 'TopAndBottom' }
  | { type: 'TimelineShowAlert' | 'TimelineClearEntriesUnreadState' | 'TimelineMarkEntriesUnreadGreaterThanSortIndex' };

export interface XEntry {
  entryId: string;
  sortIndex?: string;
  content: XEntryContent;
}

export type XEntryContent = XItemContentWrapper | XModuleContent | XCursorContent;

export interface XItemContentWrapper {
  entryType?: 'TimelineTimelineItem';
  __typename?: 'TimelineTimelineItem';
  itemContent?: XItemContent;
  clientEventInfo?: unknown;
}

export interface XModuleContent {
  entryType?: 'TimelineTimelineModule';
  __typename?: 'TimelineTimelineModule';
  items?: XModuleItem[];
  displayType?: string;
  clientEventInfo?: unknown;
}

/** A cursor placed directly in an entry's content (timelines, followers, search). */
export interface XCursorContent {
  entryType?: 'TimelineTimelineCursor';
  __typename?: 'TimelineTimelineCursor';
  cursorType?: XCursorType;
  value?: string;
}

export type XCursorType = 'Top' | 'Bottom' | 'ShowMore' | 'ShowMoreThreads' | 'ShowMoreThreadsPrompt' | 'Gap';

export interface XModuleItem {
  entryId: string;
  item?: { itemContent?: XItemContent; clientEventInfo?: unknown };
}

export type XItemContent =
  XTimelineTweet | XTimelineUser | XTimelineCursorItem | XTimelineTrend | { itemType?: string; __typename?: string };

/** A deep link in a trend item: `twitter://search/?query=…` for a topic, `twitter://trending/<id>` for a story. */
export interface XTrendUrl {
  url?: string;
  urlType?: string;
  urtEndpointOptions?: { requestParams?: { key?: string; value?: string }[] };
}

/**
 * One trend of an Explore timeline. A topic carries `trend_metadata.domain_context` ("Trending in Sports") and, in
 * the 2025 captures, `meta_description` ("1,699 posts"); an AI-written story (`is_ai_trend`) carries its age,
 * category and count in `social_context.text` ("1 day ago · Sports · 70K posts") and links to `twitter://trending/<id>`.
 */
export interface XTimelineTrend {
  itemType: 'TimelineTrend';
  __typename?: 'TimelineTrend';
  name?: string;
  rank?: string | number;
  is_ai_trend?: boolean;
  trend_url?: XTrendUrl;
  trend_metadata?: { domain_context?: string; meta_description?: string; url?: XTrendUrl };
  social_context?: { type?: string; contextType?: string; text?: string; contextImageUrls?: string[] };
  grouped_trends?: { name?: string; url?: XTrendUrl }[];
}

export interface XTimelineTweet {
  itemType: 'TimelineTweet';
  __typename?: 'TimelineTweet';
  // The values seen so far; `string & {}` keeps them visible to the editor while accepting others.
  tweetDisplayType?: 'Tweet' | 'SelfThread' | 'MediaGrid' | (string & {});
  tweet_results?: { result?: XTweetResult };
  /** Present on ads. */
  promotedMetadata?: unknown;
  socialContext?: unknown;
}

export interface XTimelineUser {
  itemType: 'TimelineUser';
  __typename?: 'TimelineUser';
  userDisplayType?: string;
  user_results?: { result?: XUserResult };
}

/** A cursor placed inside an item (TweetDetail bottom / show-more cursors). */
export interface XTimelineCursorItem {
  itemType: 'TimelineTimelineCursor';
  __typename?: 'TimelineTimelineCursor';
  cursorType?: XCursorType;
  value?: string;
  displayTreatment?: { actionText?: string };
}

export type XTweetResult = XTweet | XTweetWithVisibility | XTweetTombstone | XTweetUnavailable;

export interface XTweetWithVisibility {
  __typename: 'TweetWithVisibilityResults';
  tweet?: XTweet;
  limitedActionResults?: unknown;
}

export interface XTweetTombstone {
  __typename: 'TweetTombstone';
  tombstone?: { __typename?: string; text?: { text?: string; entities?: unknown[]; rtl?: boolean } };
}

export interface XTweetUnavailable {
  __typename: 'TweetUnavailable';
  reason?: string;
}

export interface XTweet {
  __typename?: 'Tweet';
  rest_id?: string;
  core?: { user_results?: { result?: XUserResult } };
  legacy?: XTweetLegacy;
  views?: { count?: string; state?: string };
  source?: string;
  note_tweet?: { is_expandable?: boolean; note_tweet_results?: { result?: XNoteTweet } };
  quoted_status_result?: { result?: XTweetResult };
  card?: { rest_id?: string; legacy?: XCardLegacy };
  birdwatch_pivot?: { subtitle?: { text?: string }; note?: { summary?: { text?: string } }; title?: string };
  has_birdwatch_notes?: boolean;
  edit_control?: unknown;
  article?: { article_results?: { result?: XArticle } };
  /** Whether X offers to translate the post for the viewer (false for posts in the client language). */
  is_translatable?: boolean;
  /** X's Grok translation into the request's `x-twitter-client-language`, when it has one (./translation.ts). */
  grok_translated_post_with_availability?: XGrokTranslation;
}

/** X's inline Grok translation of a post; `data` only when `is_available`. */
export interface XGrokTranslation {
  is_available?: boolean;
  data?: {
    translation?: string;
    source_language?: string;
    destination_language?: string;
    /** Entities of the translated text, in the shape of a post's own (`urls` with `url` and `expanded_url`). */
    entities?: XEntitySet;
    associated_data?: unknown;
  };
}

/** An X Article; `content_state` (the body) comes with the `withArticleRichContentState` field toggle. */
export interface XArticle {
  rest_id?: string;
  title?: string;
  preview_text?: string;
  cover_media?: ArticleMediaEntity;
  content_state?: DraftContent;
  media_entities?: ArticleMediaEntity[];
}

export interface XEntitySet {
  hashtags?: { text: string; indices: [number, number] }[];
  symbols?: { text: string; indices: [number, number] }[];
  urls?: { url: string; expanded_url?: string; display_url?: string; indices: [number, number] }[];
  user_mentions?: { screen_name: string; id_str?: string; name?: string; indices: [number, number] }[];
  media?: XMedia[];
}

export interface XNoteTweet {
  id?: string;
  text?: string;
  entity_set?: XEntitySet;
  richtext?: { richtext_tags?: { from_index: number; to_index: number; richtext_types: string[] }[] };
}

export interface XMedia {
  id_str?: string;
  media_key?: string;
  type: 'photo' | 'video' | 'animated_gif';
  url?: string;
  display_url?: string;
  expanded_url?: string;
  media_url_https?: string;
  ext_alt_text?: string;
  indices?: [number, number];
  original_info?: { width?: number; height?: number };
  video_info?: {
    aspect_ratio?: [number, number];
    duration_millis?: number;
    variants?: { bitrate?: number; content_type?: string; url: string }[];
  };
}

export interface XTweetLegacy {
  id_str?: string;
  full_text?: string;
  created_at?: string;
  conversation_id_str?: string;
  display_text_range?: [number, number];
  entities?: XEntitySet;
  extended_entities?: { media?: XMedia[] };
  favorite_count?: number;
  retweet_count?: number;
  reply_count?: number;
  quote_count?: number;
  bookmark_count?: number;
  lang?: string;
  possibly_sensitive?: boolean;
  in_reply_to_status_id_str?: string;
  in_reply_to_screen_name?: string;
  in_reply_to_user_id_str?: string;
  is_quote_status?: boolean;
  quoted_status_id_str?: string;
  quoted_status_permalink?: { url?: string; expanded?: string; display?: string };
  retweeted_status_result?: { result?: XTweetResult };
  user_id_str?: string;
}

export interface XCardBinding {
  key: string;
  value?: {
    type?: string;
    string_value?: string;
    boolean_value?: boolean;
    image_value?: { url?: string; width?: number; height?: number; alt?: string };
    scribe_key?: string;
  };
}

export interface XCardLegacy {
  name?: string;
  url?: string;
  binding_values?: XCardBinding[];
}

export type XUserResult = XUser | XUserUnavailable;

export interface XUserUnavailable {
  __typename: 'UserUnavailable';
  reason?: string;
  message?: string;
}

/** Both the 2025+ split shape (core/avatar/...) and the older `legacy` block; read new first. */
export interface XUser {
  __typename?: 'User';
  id?: string;
  rest_id?: string;
  is_blue_verified?: boolean;
  core?: { name?: string; screen_name?: string; created_at?: string };
  avatar?: { image_url?: string };
  banner?: { image_url?: string };
  location?: { location?: string };
  privacy?: { protected?: boolean };
  relationship_counts?: { followers?: number; following?: number };
  tweet_counts?: { tweets?: number; media_tweets?: number };
  action_counts?: { favorites_count?: number };
  /** The current shape keeps the website's expansion here (`entities.url`); `website.url` is only the t.co link. */
  profile_bio?: {
    description?: string;
    entities?: { description?: { urls?: XEntitySet['urls'] }; url?: { urls?: XEntitySet['urls'] } };
  };
  verification?: { verified?: boolean; verified_type?: string };
  website?: { url?: string };
  legacy?: XUserLegacy;
}

/** AboutAccountQuery's user: the core fields plus what X's "About this account" view shows. */
export interface XAboutUser extends XUser {
  about_profile?: {
    account_based_in?: string;
    location_accurate?: boolean;
    created_country_accurate?: boolean;
    source?: string;
    affiliate_username?: string;
    username_changes?: { count?: string; last_changed_at_msec?: string };
  };
  affiliates_highlighted_label?: {
    label?: { description?: string; url?: { url?: string }; badge?: { url?: string }; userLabelType?: string };
  };
  verification_info?: { is_identity_verified?: boolean; reason?: { verified_since_msec?: string } };
}

export interface XUserLegacy {
  screen_name?: string;
  name?: string;
  description?: string;
  entities?: { description?: { urls?: XEntitySet['urls'] }; url?: { urls?: XEntitySet['urls'] } };
  location?: string;
  url?: string;
  created_at?: string;
  followers_count?: number;
  friends_count?: number;
  statuses_count?: number;
  media_count?: number;
  favourites_count?: number;
  profile_image_url_https?: string;
  profile_banner_url?: string;
  protected?: boolean;
  verified?: boolean;
  verified_type?: string;
}
