// cdn.syndication.twimg.com/tweet-result JSON, as read by X's embed widget (react-tweet's types;
// summarised in shared/design/upstreams.md §2). Only the fields we map are declared.

export interface SynIndices {
  indices: [number, number];
}

export interface SynEntities {
  hashtags?: Array<SynIndices & { text: string }>;
  urls?: Array<SynIndices & { url: string; expanded_url?: string; display_url?: string }>;
  user_mentions?: Array<SynIndices & { screen_name: string; id_str?: string; name?: string }>;
  symbols?: Array<SynIndices & { text: string }>;
  media?: Array<SynIndices & { url: string; expanded_url?: string; display_url?: string }>;
}

export interface SynUser {
  id_str: string;
  name: string;
  screen_name: string;
  profile_image_url_https?: string;
  verified?: boolean;
  is_blue_verified?: boolean;
  verified_type?: string;
}

export interface SynMediaDetail {
  type: 'photo' | 'video' | 'animated_gif';
  media_url_https: string;
  url?: string;
  expanded_url?: string;
  indices?: [number, number];
  ext_alt_text?: string;
  original_info?: { width: number; height: number };
  video_info?: {
    aspect_ratio?: [number, number];
    duration_millis?: number;
    variants: Array<{ bitrate?: number; content_type: string; url: string }>;
  };
}

export interface SynCardValue {
  type?: string;
  string_value?: string;
  boolean_value?: boolean;
  image_value?: { url: string; width?: number; height?: number; alt?: string };
}

export interface SynCard {
  name: string;
  url?: string;
  binding_values?: Record<string, SynCardValue>;
}

export interface SynTweetBase {
  __typename?: 'Tweet';
  id_str: string;
  text: string;
  display_text_range?: [number, number];
  created_at: string;
  lang?: string;
  user?: SynUser;
  entities?: SynEntities;
  mediaDetails?: SynMediaDetail[];
  possibly_sensitive?: boolean;
  favorite_count?: number;
  conversation_count?: number;
  reply_count?: number;
  retweet_count?: number;
  in_reply_to_screen_name?: string;
  in_reply_to_status_id_str?: string;
  card?: SynCard;
  note_tweet?: { id: string };
  /** Same shapes as GraphQL's (see providers/shared/edits.ts); `isEdited`/`isStaleEdit` carry no ids. */
  edit_control?: unknown;
  /** X Article preview only (obs.: title, preview text, cover); the body is never included. */
  article?: {
    rest_id?: string;
    title?: string;
    preview_text?: string;
    cover_media?: { media_info?: { original_img_url?: string } };
  };
}

export interface SynTweet extends SynTweetBase {
  quoted_tweet?: SynTweetBase | SynTombstone;
  parent?: SynTweetBase;
}

export interface SynTombstone {
  __typename: 'TweetTombstone';
  tombstone?: { text?: { text?: string } };
}
