// The shapes of X's data export ("Download an archive of your data"): every data file is
// `window.YTD.<name>.part<N> = [ … ]`; posts are in X's legacy REST shape with counts and indices written as
// strings. Only what the import reads is typed; every field may be missing or of another type (input is input).

/** Counts, indices and sizes: strings in the archive, numbers elsewhere. */
export type Num = string | number;

export interface ArchiveUrlEntity {
  url?: string;
  expanded_url?: string;
  display_url?: string;
  indices?: Num[];
}

export interface ArchiveMentionEntity {
  screen_name?: string;
  name?: string;
  id_str?: string;
  indices?: Num[];
}

export interface ArchiveTagEntity {
  text?: string;
  indices?: Num[];
}

export interface ArchiveVideoVariant {
  bitrate?: Num;
  content_type?: string;
  url?: string;
}

export interface ArchiveMedia {
  id_str?: string;
  type?: string;
  /** The t.co link in the text. */
  url?: string;
  media_url_https?: string;
  expanded_url?: string;
  indices?: Num[];
  ext_alt_text?: string;
  sizes?: { large?: { w?: Num; h?: Num } };
  original_info?: { width?: Num; height?: Num };
  video_info?: { duration_millis?: Num; variants?: ArchiveVideoVariant[] };
}

export interface ArchiveEntities {
  urls?: ArchiveUrlEntity[];
  user_mentions?: ArchiveMentionEntity[];
  hashtags?: ArchiveTagEntity[];
  symbols?: ArchiveTagEntity[];
  media?: ArchiveMedia[];
}

/** One element of tweets.js: `{ "tweet": { … } }` (the oldest exports put the post itself there). */
export interface ArchiveTweet {
  id_str?: string;
  id?: Num;
  full_text?: string;
  created_at?: string;
  display_text_range?: Num[];
  entities?: ArchiveEntities;
  extended_entities?: { media?: ArchiveMedia[] };
  in_reply_to_status_id_str?: string;
  in_reply_to_screen_name?: string;
  in_reply_to_user_id_str?: string;
  favorite_count?: Num;
  retweet_count?: Num;
  lang?: string;
  /** An HTML anchor naming the client. */
  source?: string;
  possibly_sensitive?: boolean;
}

export interface ArchiveNoteRange {
  fromIndex?: Num;
  toIndex?: Num;
}

/** One element of note-tweet.js: a long post's whole text. Its id is not the post's: time and text match them. */
export interface ArchiveNoteTweet {
  noteTweetId?: string;
  createdAt?: string;
  core?: {
    text?: string;
    urls?: Array<ArchiveNoteRange & { shortUrl?: string; expandedUrl?: string; displayUrl?: string }>;
    mentions?: Array<ArchiveNoteRange & { screenName?: string }>;
    hashtags?: Array<ArchiveNoteRange & { text?: string }>;
    cashtags?: Array<ArchiveNoteRange & { text?: string }>;
  };
}

/** account.js: `{ "account": { … } }`. */
export interface ArchiveAccount {
  accountId?: string;
  username?: string;
  accountDisplayName?: string;
  createdAt?: string;
}

/** profile.js: `{ "profile": { … } }`. */
export interface ArchiveProfile {
  description?: { bio?: string; website?: string; location?: string };
  avatarMediaUrl?: string;
  headerMediaUrl?: string;
}
