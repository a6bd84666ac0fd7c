// Provider-neutral models. Providers translate their wire shapes into these; renderers read only these.
// Times are ISO 8601 UTC strings, counts are numbers, ids are strings; absent data is left undefined.

export interface Author {
  id: string;
  handle: string;
  name: string;
  avatarUrl?: string;
  bannerUrl?: string;
  bio?: string;
  /** The bio split into text, links, mentions and hashtags, when the upstream gave facets. */
  bioSegments?: Segment[];
  location?: string;
  website?: string;
  joined?: string;
  followers?: number;
  following?: number;
  posts?: number;
  likes?: number;
  mediaCount?: number;
  verified?: boolean;
  protected?: boolean;
}

/**
 * Post text as a sequence of typed pieces so renderers can escape plain text and still emit real links.
 * Concatenating every segment's `text` reproduces the visible text of the post.
 */
export type Segment =
  | { type: 'text'; text: string }
  | { type: 'link'; text: string; href: string }
  | { type: 'mention'; text: string; handle: string }
  | { type: 'hashtag'; text: string; tag: string }
  | { type: 'cashtag'; text: string; symbol: string };

export interface Media {
  kind: 'photo' | 'video' | 'gif';
  /** Full-size image, or the best mp4 for videos and gifs. */
  url: string;
  /** Still image for videos and gifs. */
  thumbnailUrl?: string;
  altText?: string;
  width?: number;
  height?: number;
  durationSeconds?: number;
}

export interface PollChoice {
  label: string;
  votes: number;
  /** 0-100, as the upstream computed it or derived from votes. */
  percent: number;
}

export interface Poll {
  choices: PollChoice[];
  totalVotes: number;
  endsAt?: string;
  final: boolean;
}

export interface Metrics {
  likes?: number;
  reposts?: number;
  quotes?: number;
  replies?: number;
  views?: number;
  bookmarks?: number;
}

export interface Card {
  url: string;
  title?: string;
  domain?: string;
  description?: string;
  imageUrl?: string;
}

/** Inline run of article text; styles combine. */
export interface ArticleSpan {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  href?: string;
}

export type ArticleBlock =
  | { type: 'heading'; level: 1 | 2 | 3; spans: ArticleSpan[] }
  | { type: 'paragraph'; spans: ArticleSpan[] }
  | { type: 'list'; ordered: boolean; items: ArticleSpan[][] }
  | { type: 'quote'; spans: ArticleSpan[] }
  | { type: 'code'; text: string; language?: string }
  | { type: 'image'; url: string; caption?: string; altText?: string }
  | { type: 'divider' };

/** An X Article (long-form post). */
export interface Article {
  id?: string;
  title: string;
  previewText?: string;
  coverUrl?: string;
  blocks: ArticleBlock[];
}

/** A quoted post that could not be read (deleted, protected, suspended...). */
export interface UnavailablePost {
  unavailable: true;
  id?: string;
  reason: 'deleted' | 'suspended' | 'private' | 'blocked' | 'unavailable';
  message?: string;
}

export interface Post {
  id: string;
  /** Canonical platform permalink, https://x.com/{handle}/status/{id}. */
  url: string;
  author: Author;
  createdAt: string;
  /**
   * Full visible text (note tweets in full), with links expanded. An Article post's own text is only the link to
   * its article: `text` is then the article's title and preview, and `segments` leave the link out.
   */
  text: string;
  segments: Segment[];
  media: Media[];
  quote?: Post | UnavailablePost;
  poll?: Poll;
  article?: Article;
  card?: Card;
  metrics: Metrics;
  lang?: string;
  /** Client the post was sent from, e.g. "Twitter Web App". */
  source?: string;
  replyTo?: { id?: string; handle: string };
  conversationId?: string;
  communityNote?: string;
  sensitive?: boolean;
  /** Set when this entry is a repost of `repostOf` by `author`. */
  repostOf?: Post;
  /** True when the upstream only gave the start of a long post (e.g. syndication for note tweets). */
  truncated?: boolean;
  /** Set when the post was edited (two versions or more) and the upstream says so; absent when never edited or unknown. */
  edits?: EditHistory;
  /** The text in the language a read asked for (`lang`), beside the original `text`, never instead of it. */
  translation?: Translation;
}

/** A post's text translated by an upstream's translating service. */
export interface Translation {
  text: string;
  /** Language the service translated from (the post's, as it detected it), a BCP 47 code. */
  from: string;
  /** Language translated into: the read's `lang`, canonical. */
  to: string;
  /** The translating service as the upstream names it, e.g. Grok or Google. */
  service: string;
  /** Provider of this service that passed the translation on, e.g. fxtwitter. */
  provider: string;
}

/** The versions of an edited post. Every version has its own id; X keeps them all readable. */
export interface EditHistory {
  /** Ids of every version, the original first and the latest last; the post's own id is one of them. */
  versions: string[];
}

/** Id of the newest version of an edited post (the post's own id when it was never edited). */
export function latestVersionId(p: Post): string {
  return p.edits?.versions.at(-1) ?? p.id;
}

/** True when a newer version of this post exists. */
export function isEarlierVersion(p: Post): boolean {
  return latestVersionId(p) !== p.id;
}

export function isUnavailable(p: Post | UnavailablePost | undefined): p is UnavailablePost {
  return !!p && (p as UnavailablePost).unavailable === true;
}

/** A reply with the replies below it. */
export interface ReplyNode {
  post: Post;
  children: ReplyNode[];
}

/**
 * What a provider knows about one post and its surroundings.
 * `ancestors` run from the conversation root down to the direct parent of `post`.
 * `continuations` are the author's own follow-up posts after `post`, in order.
 */
export interface ConversationBundle {
  post: Post;
  ancestors: Post[];
  continuations: Post[];
  replies: ReplyNode[];
  /** False when the provider could not look at replies at all (not merely found none). */
  repliesAvailable: boolean;
  /** False when the provider could not walk the thread (e.g. single-post source). */
  threadAvailable: boolean;
  /** What the provider had to leave out (a reply page it could not read, a reply cap reached). */
  notes?: string[];
  /**
   * Answered by something other than the first provider able to read conversations (it failed, or its circuit
   * was open): what is missing is upstream trouble that may pass, not what this deployment can read.
   */
  fallback?: true;
}

/** An X List: a timeline curated by its owner from its members' posts. */
export interface CuratedList {
  id: string;
  name: string;
  description?: string;
  owner: Author;
  members?: number;
  subscribers?: number;
  createdAt?: string;
}

/** A trending topic on X, as an upstream lists it. */
export interface Trend {
  /** What trends: a hashtag (`#caching`), a cashtag (`$TSLA`) or words. */
  name: string;
  /** Position in the upstream's list, 1 first, when it gives one. */
  rank?: number;
  /** What the upstream says about it, e.g. "Technology · Trending". */
  context?: string;
  /** Posts about it, when the upstream counts them (X rounds large counts: "37.6K posts" is 37600). */
  posts?: number;
  /** Topics grouped under it. */
  related?: string[];
  /** X's own page of an AI-written story trend (https://x.com/i/trending/<id>): a headline, not words to search. */
  url?: string;
}

/** One page of a list, with the provider's (still raw) cursor for the next page. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}
