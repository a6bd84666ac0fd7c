// Neutral, upstream-agnostic description of the simulated platform. The wire modules under sim/wire/
// turn these records into FxTwitter, syndication (and later GraphQL) shapes; nothing here knows a wire format.

export interface SimUser {
  id: string;
  handle: string;
  name: string;
  bio: string;
  location: string;
  /** Expanded website URL, if the profile has one. */
  website?: string;
  createdAt: number;
  followers: number;
  following: number;
  statuses: number;
  likes: number;
  mediaCount: number;
  protected: boolean;
  suspended: boolean;
  verified: 'individual' | 'organization' | 'government' | null;
  avatarUrl: string;
  bannerUrl: string | null;
  /** What X's "About this account" shows; absent = X shows nothing beyond the join date. */
  about?: SimAbout;
}

export interface SimAbout {
  basedIn: string;
  locationAccurate: boolean;
  source: string;
  usernameChanges: number;
  lastUsernameChange?: number;
  verifiedSince?: number;
  /** The affiliate badge: the organisation's handle and name. */
  affiliate?: { handle: string; name: string };
}

export interface SimMedia {
  kind: 'photo' | 'video' | 'gif';
  /** Numeric media id (id_str). */
  id: string;
  /** File stem used to build pbs/video URLs. */
  key: string;
  width: number;
  height: number;
  alt?: string;
  durationMs?: number;
}

export interface SimPollChoice {
  label: string;
  votes: number;
}

export interface SimPoll {
  choices: SimPollChoice[];
  endsAt: number;
  final: boolean;
  durationMinutes: number;
}

export interface SimCard {
  /** 'website': an app/website "unified card" (X puts the destination in its JSON, the card URL is a placeholder). */
  kind?: 'summary_large_image' | 'website';
  url: string;
  title: string;
  description: string;
  domain: string;
  imageUrl: string;
  imageWidth: number;
  imageHeight: number;
  imageAlt?: string;
}

export interface SimInlineStyle {
  offset: number;
  length: number;
  style: 'Bold' | 'Italic';
}

export interface SimBlockLink {
  kind: 'urls' | 'mentions' | 'hashtags';
  fromIndex: number;
  toIndex: number;
  text: string;
}

/** Draft.js-like block as X stores Article bodies. `entity` points into SimArticle.entities. */
export interface SimArticleBlock {
  key: string;
  type:
    | 'unstyled'
    | 'header-one'
    | 'header-two'
    | 'header-three'
    | 'unordered-list-item'
    | 'ordered-list-item'
    | 'blockquote'
    | 'atomic';
  text: string;
  styles: SimInlineStyle[];
  links: SimBlockLink[];
  entity?: number;
}

export type SimArticleEntity =
  { type: 'MARKDOWN'; markdown: string } | { type: 'MEDIA'; mediaId: string } | { type: 'TWEET'; tweetId: string };

export interface SimArticleImage {
  mediaId: string;
  url: string;
  width: number;
  height: number;
}

export interface SimArticle {
  id: string;
  title: string;
  previewText: string;
  createdAt: number;
  modifiedAt: number;
  cover: SimArticleImage;
  images: SimArticleImage[];
  blocks: SimArticleBlock[];
  entities: SimArticleEntity[];
}

export interface SimCommunityNote {
  text: string;
  links: { from: number; to: number; url: string }[];
}

export interface SimPost {
  id: string;
  authorId: string;
  createdAt: number;
  /** Visible text as a person wrote it: unescaped, URLs in their expanded form, no automatic reply prefix. */
  text: string;
  /** Handles X prepends as "@a @b " to replies (hidden by display_text_range). */
  replyPrefix: string[];
  replyToId?: string;
  /** X left out the parent's handle (in_reply_to_screen_name) and kept only its id. */
  replyHandleHidden?: boolean;
  conversationId: string;
  quoteId?: string;
  media: SimMedia[];
  poll?: SimPoll;
  card?: SimCard;
  article?: SimArticle;
  communityNote?: SimCommunityNote;
  /** Character ranges of rich-text bold in long posts. */
  boldRanges?: [number, number][];
  likes: number;
  reposts: number;
  quotes: number;
  views: number;
  bookmarks: number;
  lang: string;
  source: string;
  sensitive: boolean;
  deleted: boolean;
  /** An edited post: ids of every version, oldest first, the same list on each version (each is its own post). */
  editVersions?: string[];
  /** Values a careless upstream sends for this post on the FxTwitter wire (upstream values are input). */
  wireQuirks?: SimWireQuirks;
}

export interface SimWireQuirks {
  /** The author's screen_name as the upstream spells it (not a valid handle). */
  authorHandle?: string;
  /** Fields laid over the quoted post's tombstone. */
  quoteTombstone?: { reason?: string; id?: string };
  /** Extra facets: each covers the first occurrence of `covers` in the text; `original` is what the upstream names. */
  facets?: { type: 'mention' | 'hashtag'; covers: string; original: string }[];
}

/** One row of a profile timeline: an own post, or someone else's post reposted by the profile owner. */
export interface SimTimelineEntry {
  postId: string;
  repostedBy?: string;
  at: number;
}

/** An X List: its owner curates members; its timeline is their posts and reposts, newest first. */
export interface SimList {
  id: string;
  name: string;
  description: string;
  ownerId: string;
  /** Member ids in the order X lists them (most recently added first). */
  memberIds: string[];
  private: boolean;
  subscribers: number;
  createdAt: number;
}

export interface SimCorpus {
  users: Map<string, SimUser>;
  usersByHandle: Map<string, SimUser>;
  posts: Map<string, SimPost>;
  /** Direct replies per post id, oldest first. */
  children: Map<string, string[]>;
  followers: Map<string, string[]>;
  following: Map<string, string[]>;
  timelines: Map<string, SimTimelineEntry[]>;
  lists: Map<string, SimList>;
}
