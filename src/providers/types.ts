import type { Author, ConversationBundle, CuratedList, Page, Post, Translation, Trend } from '../domain/models.ts';
import type { AccountFacts } from '../domain/about.ts';
import type { Capability, SearchFeed, SearchItem } from '../domain/capabilities.ts';
import type { Deadline } from './deadline.ts';
import type { FailureKind } from '../domain/failures.ts';

export type { FailureKind };

export type { Capability, SearchFeed, SearchItem };

/** What an upstream says of a translation: the request's target and the provider are the chain's to add. */
export type UpstreamTranslation = Pick<Translation, 'text' | 'from' | 'service'>;

export interface CallOptions {
  /** The caller's abort. */
  signal?: AbortSignal;
  /** The whole read's time budget, shared by every provider and retry the chain tries. */
  deadline?: Deadline;
  /**
   * Session-backed providers call this before each upstream operation that spends a logged-in session: it charges
   * the requesting client (account-ip or account-key) and throws the 429 problem when that allowance is used up.
   */
  chargeSession?: () => Promise<void>;
  /**
   * Set by the chain: the transport calls it before each upstream request it sends (retries within one request
   * aside). It charges the run's payer for that call and counts it, synchronously when nothing is charged (a read
   * its request paid for), else as a promise that rejects with the 429 problem when the allowance is used up.
   */
  beforeRequest?: () => void | Promise<void>;
  /**
   * Set by the chain when every provider asked before this one answered a "not found" it could not vouch for: the
   * call would only confirm it, so a session-backed provider may decline (kind `unconfirmed`) instead of spending
   * a session.
   */
  confirming?: boolean;
}

export interface ConversationOptions extends CallOptions {
  /** top = ranked by engagement, recent = newest first. */
  ranking: 'top' | 'recent';
  /** Whether replies are wanted at all (lets a provider pick a cheaper upstream route). */
  withReplies: boolean;
}

export interface PageRequest extends CallOptions {
  /** The provider's own raw cursor (already unwrapped from our signed cursor). */
  cursor?: string;
  count: number;
  /**
   * The language (canonical BCP 47 tag) the read wants its posts in: a provider whose upstream attaches translations
   * to the posts of a page asks in it and sets each post's `translation`; the others ignore it.
   */
  translate?: string;
}

export interface TimelineRequest extends PageRequest {
  /**
   * Whether the account's replies to other people are wanted: X serves them only on the profile's Replies tab, a
   * different operation from its posts; an upstream whose timeline always holds them may ignore it.
   */
  withReplies?: boolean;
}

/**
 * One upstream. Methods exist only for the capabilities the provider declares; `capabilities()` may
 * change at run time (e.g. the X provider has none while every session is parked).
 */
export interface Provider {
  readonly name: string;
  capabilities(): ReadonlySet<Capability>;
  getPost?(id: string, opts: CallOptions): Promise<Post>;
  getConversation?(id: string, opts: ConversationOptions): Promise<ConversationBundle>;
  getProfile?(handle: string, opts: CallOptions): Promise<Author>;
  getProfileById?(id: string, opts: CallOptions): Promise<Author>;
  /** Recent posts of a profile, newest first, reposts and replies included (the domain filters). */
  getTimeline?(handle: string, req: TimelineRequest): Promise<Page<Post>>;
  getFollowers?(handle: string, req: PageRequest): Promise<Page<Author>>;
  getFollowing?(handle: string, req: PageRequest): Promise<Page<Author>>;
  search?(q: string, feed: SearchFeed, req: PageRequest): Promise<Page<SearchItem>>;
  getList?(id: string, opts: CallOptions): Promise<CuratedList>;
  /** An X List's latest posts, newest first. */
  getListPosts?(id: string, req: PageRequest): Promise<Page<Post>>;
  getListMembers?(id: string, req: PageRequest): Promise<Page<Author>>;
  /** The posts quoting post `id`, newest first. */
  getQuotes?(id: string, req: PageRequest): Promise<Page<Post>>;
  /** The accounts that reposted post `id`. */
  getReposts?(id: string, req: PageRequest): Promise<Page<Author>>;
  /** A profile's posts with photos or videos, newest first. */
  getMedia?(handle: string, req: PageRequest): Promise<Page<Post>>;
  /** A profile's X Articles, newest first. */
  getArticles?(handle: string, req: PageRequest): Promise<Page<Post>>;
  /** What X shows about an account beyond its bio; a fact the upstream does not give is left undefined. */
  getAbout?(handle: string, opts: CallOptions): Promise<AccountFacts>;
  /**
   * A post's text in `lang` (an upstream code such as `ja` or `zh-tw`). Fails `empty` when the upstream gives no
   * translation of it (already in that language, too short, or its translator failed).
   */
  translatePost?(id: string, lang: string, opts: CallOptions): Promise<UpstreamTranslation>;
  /** The current trending topics, in the upstream's order. */
  getTrends?(opts: CallOptions): Promise<Trend[]>;
  /**
   * For a provider that lacks `capability` only for now (every session parked): seconds until it has it
   * again. Undefined when it cannot say (e.g. no sessions configured at all).
   */
  retryAfterS?(capability: Capability): number | undefined;
  /** Releases what the provider holds open (file watchers, timers). */
  close?(): void;
  /** Per upstream operation (account-backed providers): answers by kind and sessions able to serve it. */
  operationHealth?(): Record<string, ProviderOperationHealth>;
}

/** One upstream operation of a provider, in GET /api provider health and /metrics. */
export interface ProviderOperationHealth {
  /** ok, stale (the last answer showed an out-of-date query id), parked (no session can serve it now), no_sessions. */
  state: 'ok' | 'stale' | 'parked' | 'no_sessions';
  queryId?: string;
  /** Where the query id in force came from: shipped, override or discovered. */
  source?: string;
  transactionId?: boolean;
  success: number;
  failure: number;
  stale: number;
  lastStaleAt?: string;
  sessions: number;
  usableSessions: number;
  /** Seconds until a session can serve it again, when none can now. */
  retryAfterS?: number;
}

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: FailureKind,
    message: string,
    readonly opts: {
      status?: number;
      retryAfterS?: number;
      cause?: unknown;
      timedOut?: boolean;
      /** The transport asked nobody: the read's deadline had already passed. Not a failure of the provider. */
      notAsked?: boolean;
    } = {},
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
