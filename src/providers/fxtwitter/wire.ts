// FxTwitter API v2 JSON as served by api.fxtwitter.com (FxEmbed `api-schemas.ts`, summarised in
// shared/design/upstreams.md §1). Fields are optional wherever the live service is known to omit them;
// v1 spellings (`retweets`, `tweets`, string `replying_to` + `replying_to_status`) are declared too so
// the same parser reads both.
import type { ArticleMediaEntity, DraftContent } from '../shared/article.ts';

export interface FxFacet {
  type: string;
  indices: [number, number];
  original?: string;
  replacement?: string;
  display?: string;
  id?: string;
}

export interface FxRawText {
  text: string;
  display_text_range?: [number, number];
  facets?: FxFacet[];
}

export interface FxUser {
  type?: 'profile';
  id: string;
  name: string;
  screen_name: string;
  url?: string;
  avatar_url?: string | null;
  banner_url?: string | null;
  description?: string;
  raw_description?: { text: string; facets?: FxFacet[] };
  location?: string;
  protected?: boolean;
  followers?: number;
  following?: number;
  statuses?: number;
  /** v1 name of `statuses`. */
  tweets?: number;
  media_count?: number;
  likes?: number;
  joined?: string;
  website?: { url: string; display_url?: string } | null;
  verification?: { verified: boolean; type?: string | null; verified_at?: string | null; identity_verified?: boolean };
}

/**
 * `/2/profile/{h}/about` (FxEmbed's ProfileAboutAPIResponse): X's "About this account" facts, the whole object
 * omitted when X has none; `username_changes.last_changed_at` is ISO 8601 or null.
 */
export interface FxAboutResponse {
  code: number;
  message?: string;
  about_account?: {
    based_in?: string | null;
    location_accurate?: boolean;
    created_country_accurate?: boolean | null;
    source?: string | null;
    username_changes?: { count: number; last_changed_at: string | null };
  };
}

export interface FxPhoto {
  type: 'photo' | 'gif';
  url: string;
  width?: number;
  height?: number;
  altText?: string;
  id?: string;
}

export interface FxVideoFormat {
  container?: 'mp4' | 'webm' | 'm3u8';
  bitrate?: number;
  url: string;
}

export interface FxVideo {
  type: 'video' | 'gif';
  url: string;
  thumbnail_url?: string | null;
  width?: number;
  height?: number;
  duration?: number;
  formats?: FxVideoFormat[];
  id?: string;
}

export interface FxMosaic {
  type: 'mosaic_photo';
  formats: { webp: string; jpeg: string };
}

export interface FxExternalMedia {
  type: 'video';
  url: string;
  thumbnail_url?: string;
  width?: number;
  height?: number;
}

export interface FxMedia {
  all?: Array<FxPhoto | FxVideo | FxMosaic>;
  photos?: FxPhoto[];
  videos?: FxVideo[];
  mosaic?: FxMosaic;
  external?: FxExternalMedia;
}

export interface FxPoll {
  choices: Array<{ label: string; count: number; percentage: number }>;
  total_votes: number;
  ends_at?: string;
  time_left_en?: string;
}

export interface FxCard {
  url: string;
  title?: string;
  description?: string;
  domain?: string;
  card_name?: string;
  image?: { url?: string; width?: number; height?: number; alt?: string };
}

/** X's Article as FxTwitter passes it on: X's `content_state` under the name `content`. */
export interface FxArticle {
  id?: string;
  title: string;
  preview_text?: string;
  created_at?: string;
  cover_media?: ArticleMediaEntity;
  content?: DraftContent;
  media_entities?: ArticleMediaEntity[];
}

export type FxTombstoneReason = 'deleted' | 'suspended' | 'private' | 'blocked' | 'unavailable';

export interface FxTombstone {
  type: 'tombstone';
  provider?: string;
  reason: FxTombstoneReason;
  message?: string;
  id?: string;
  url?: string;
  author?: Partial<FxUser>;
}

export interface FxReplyingTo {
  screen_name: string;
  status: string;
  url?: string;
  display_name?: string;
}

export interface FxStatus {
  type?: 'status';
  id: string;
  url?: string;
  text?: string;
  raw_text?: FxRawText;
  created_at?: string;
  created_timestamp?: number;
  likes?: number;
  reposts?: number;
  /** v1 name of `reposts`. */
  retweets?: number;
  quotes?: number;
  replies?: number;
  views?: number | null;
  bookmarks?: number | null;
  author: FxUser;
  media?: FxMedia;
  quote?: FxStatus | FxTombstone;
  poll?: FxPoll;
  lang?: string | null;
  possibly_sensitive?: boolean;
  replying_to?: FxReplyingTo | string | null;
  /** v1 only: parent id next to a string `replying_to`. */
  replying_to_status?: string | null;
  source?: string | null;
  is_note_tweet?: boolean;
  community_note?: { text: string; facets?: FxFacet[] } | null;
  article?: FxArticle;
  card?: FxCard;
  reposted_by?: { id: string; name: string; screen_name: string; avatar_url?: string | null } | null;
  /** Present when the request named a `lang` the post is not in and a translator answered (FxEmbed APITranslate). */
  translation?: FxTranslation | null;
}

/**
 * FxEmbed's APITranslate: the translated text, the detected source language (code and English name), the target
 * as asked, and which translator answered (`grok` for X's own, a Polyglot backend such as `google`, or `llm`).
 */
export interface FxTranslation {
  text?: string | null;
  source_lang?: string | null;
  source_lang_en?: string | null;
  target_lang?: string | null;
  provider?: string | null;
}

export interface FxCursor {
  top?: string | null;
  bottom?: string | null;
}

/** `/2/status/{id}` and `/2/thread/{id}`. */
export interface FxSocialThread {
  code: number;
  message?: string;
  status: FxStatus | FxTombstone | null;
  thread?: Array<FxStatus | FxTombstone> | null;
  author?: FxUser | null;
}

/** `/2/conversation/{id}`. */
export interface FxSocialConversation extends FxSocialThread {
  replies?: FxStatus[] | null;
  cursor?: { bottom?: string | null } | null;
}

/** v1 `/status/{id}` envelope. */
export interface FxLegacyStatusResponse {
  code: number;
  message: string;
  tweet?: FxStatus;
}

export interface FxThreadGroup {
  type: 'thread';
  conversation_id: string;
  statuses: FxStatus[];
  truncated?: boolean;
}

/** `/2/profile/{h}/statuses` and `/2/search`. */
export interface FxSearchResults {
  code: number;
  results: Array<FxStatus | FxThreadGroup>;
  cursor?: FxCursor | null;
}

/** `/2/profile/{h}/followers|following`. */
export interface FxProfileRelationshipList {
  code: number;
  results: FxUser[];
  cursor?: FxCursor | null;
}

/** `/2/profile/{h}`. */
export interface FxUserResponse {
  code: number;
  message?: string;
  user?: FxUser;
  reason?: 'suspended';
}
