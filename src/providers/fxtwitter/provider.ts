// The FxTwitter provider, the one the chain registers: posts, conversations (following the reply cursor),
// profiles, timelines, follow lists and two search feeds, over FxTwitter's public API without an account.
import { encodePart } from '../../domain/links.ts';
import type { Author, ConversationBundle, Page, Post, Trend } from '../../domain/models.ts';
import { followReplyCursor, uniqueBy, upstreamPage } from '../shared/paging.ts';
import {
  ProviderError,
  type CallOptions,
  type Capability,
  type ConversationOptions,
  type PageRequest,
  type Provider,
  type SearchFeed,
  type SearchItem,
  type UpstreamTranslation,
} from '../types.ts';
import { FxTwitterClient, pageQuery, type FxTwitterOptions } from './client.ts';
import { splitThread, takeContinuations } from './conversation.ts';
import { isUsableStatus, nestReplies, parseStatus, parseUser } from './parse.ts';
import { parseTranslation } from './translation.ts';
import { parseTrends } from './trends.ts';
import { MAX_TRENDS } from '../../domain/trends.ts';
import { fxArticles, fxMedia, fxQuotes, fxReposts } from './tabs.ts';
import { fxAbout } from './about.ts';
import type { AccountFacts } from '../../domain/about.ts';
import type {
  FxProfileRelationshipList,
  FxSearchResults,
  FxSocialConversation,
  FxStatus,
  FxUserResponse,
} from './wire.ts';

export type { FxTwitterOptions };

/**
 * FxTwitter has one undivided search timeline per `feed` (latest, top, media); it cannot separate photos
 * from videos and has no account search, so only the latest and top feeds are declared. Offering
 * photos/videos from its mixed media feed would silently return the wrong kind of result.
 */
const CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>([
  'post',
  'conversation',
  'profile',
  'profileById',
  'timeline',
  'followers',
  'following',
  'search:latest',
  'search:top',
  'translate',
  'trends',
  'quotes',
  'reposts',
  'media',
  'articles',
  'about',
]);

/** Bounds on following a conversation's reply cursor: enough for a busy thread, not a crawl. */
const REPLY_BUDGET = { pages: 10, items: 200 };

export class FxTwitterProvider implements Provider {
  readonly name: string;
  private readonly client: FxTwitterClient;
  private readonly now: () => number;

  constructor(opts: FxTwitterOptions) {
    this.client = new FxTwitterClient(opts);
    this.name = this.client.name;
    this.now = opts.now ?? Date.now;
  }

  capabilities(): ReadonlySet<Capability> {
    return CAPABILITIES;
  }

  async getPost(id: string, opts: CallOptions): Promise<Post> {
    const a = await this.client.get(`/2/status/${encodePart(id)}`, opts);
    const body = a.body as Partial<FxSocialConversation> | undefined;
    this.client.failOnTombstone(body?.status);
    this.client.failOnStatus(a, 'post');
    if (!isUsableStatus(body?.status))
      throw new ProviderError(this.name, 'empty', `${this.name} returned no post for ${id}`, { status: a.status });
    return parseStatus(body.status, { now: this.now() });
  }

  async translatePost(id: string, lang: string, opts: CallOptions): Promise<UpstreamTranslation> {
    const a = await this.client.get(`/2/status/${encodePart(id)}?lang=${encodeURIComponent(lang)}`, opts);
    const body = a.body as Partial<FxSocialConversation> | undefined;
    this.client.failOnTombstone(body?.status);
    this.client.failOnStatus(a, 'post');
    const got = isUsableStatus(body?.status) ? parseTranslation(body.status.translation) : undefined;
    if (!got) throw new ProviderError(this.name, 'empty', `${this.name} gave no translation of ${id} into ${lang}`);
    return got;
  }

  async getTrends(opts: CallOptions): Promise<Trend[]> {
    const a = await this.client.get(`/2/trends?type=trending&count=${MAX_TRENDS}`, opts);
    this.client.failOnStatus(a, 'trends', 'empty');
    const trends = parseTrends(a.body);
    if (!trends) throw new ProviderError(this.name, 'error', `${this.name}: trends answer has no trends list`);
    if (trends.length === 0) throw new ProviderError(this.name, 'empty', `${this.name} listed no trends`);
    return trends;
  }

  async getConversation(id: string, opts: ConversationOptions): Promise<ConversationBundle> {
    const path = opts.withReplies
      ? `/2/conversation/${encodePart(id)}?ranking_mode=${opts.ranking === 'recent' ? 'recency' : 'likes'}`
      : `/2/thread/${encodePart(id)}`;
    const a = await this.client.get(path, opts);
    const body = a.body as Partial<FxSocialConversation> | undefined;
    this.client.failOnTombstone(body?.status);
    this.client.failOnStatus(a, 'conversation');
    if (!isUsableStatus(body?.status))
      throw new ProviderError(this.name, 'empty', `${this.name} returned no post for ${id}`, { status: a.status });
    const ctx = { now: this.now() };
    const post = parseStatus(body.status, ctx);
    const thread = (body.thread ?? []).filter(isUsableStatus).map((s) => parseStatus(s, ctx));
    const { ancestors, continuations } = splitThread(post, thread);
    const inThread = new Set([post.id, ...thread.map((p) => p.id)]);
    const { items: raw, notes } = opts.withReplies
      ? await this.allReplies(path, body, opts)
      : { items: [], notes: [] as string[] };
    const flat = uniqueBy(
      raw.filter(isUsableStatus).map((s) => parseStatus(s, ctx)),
      (p) => p.id,
    ).filter((p) => !inThread.has(p.id));
    // /2/conversation leaves the author's follow-ups out of `thread` and lists them first among replies.
    const rest = takeContinuations(post, continuations, flat);
    if (opts.withReplies) await this.finishSelfThread(id, post, continuations, rest, opts, notes);
    return {
      post,
      ancestors,
      continuations,
      replies: nestReplies(rest),
      repliesAvailable: opts.withReplies && body.replies !== undefined,
      threadAvailable: Array.isArray(body.thread),
      ...(notes.length ? { notes } : {}),
    };
  }

  /** A conversation's replies come a few modules per page; "everything available" means following the cursor. */
  private allReplies(
    path: string,
    first: Partial<FxSocialConversation>,
    opts: ConversationOptions,
  ): Promise<{ items: FxStatus[]; notes: string[] }> {
    const firstPage = { items: first.replies ?? [], nextCursor: first.cursor?.bottom ?? undefined };
    return followReplyCursor(this.name, firstPage, REPLY_BUDGET, opts.signal, async (cursor) => {
      const next = await this.client.get(`${path}&cursor=${encodePart(cursor)}`, opts);
      const body = next.body as Partial<FxSocialConversation> | undefined;
      if (next.status !== 200 || !Array.isArray(body?.replies)) throw new Error(`HTTP ${next.status}`);
      return upstreamPage(body.replies, body.cursor?.bottom, cursor);
    });
  }

  /**
   * The conversation nests a few levels only, so a long self-thread stops early among its replies.
   * When the last follow-up found has replies of its own that were not served, /2/thread gives the rest.
   */
  private async finishSelfThread(
    id: string,
    post: Post,
    continuations: Post[],
    rest: Post[],
    opts: ConversationOptions,
    notes: string[],
  ): Promise<void> {
    const last = continuations[continuations.length - 1];
    if (!last || (last.metrics?.replies ?? 0) === 0 || rest.some((r) => r.replyTo?.id === last.id)) return;
    try {
      const a = await this.client.get(`/2/thread/${encodePart(id)}`, opts);
      const body = a.body as Partial<FxSocialConversation> | undefined;
      if (a.status !== 200 || !Array.isArray(body?.thread)) throw new Error(`HTTP ${a.status}`);
      const ctx = { now: this.now() };
      const full = splitThread(
        post,
        body.thread.filter(isUsableStatus).map((s) => parseStatus(s, ctx)),
      ).continuations;
      if (full.length <= continuations.length) return;
      const known = new Set(full.map((p) => p.id));
      continuations.splice(0, continuations.length, ...full);
      for (let i = rest.length - 1; i >= 0; i--) if (known.has(rest[i]!.id)) rest.splice(i, 1);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      notes.push(`thread may continue beyond ${last.id}: ${this.name} could not read the rest`);
    }
  }

  getProfile(handle: string, opts: CallOptions): Promise<Author> {
    return this.profileAt(encodePart(handle), `@${handle}`, opts);
  }

  /** FxTwitter takes `id:<rest_id>` wherever it takes a handle. */
  getProfileById(id: string, opts: CallOptions): Promise<Author> {
    return this.profileAt(`id:${encodePart(id)}`, `account id ${id}`, opts);
  }

  private async profileAt(segment: string, what: string, opts: CallOptions): Promise<Author> {
    const a = await this.client.get(`/2/profile/${segment}`, opts);
    this.client.failOnSuspended(a);
    this.client.failOnStatus(a, 'profile');
    const body = a.body as Partial<FxUserResponse> | undefined;
    if (!body?.user?.screen_name)
      throw new ProviderError(this.name, 'empty', `${this.name} returned no profile for ${what}`, { status: a.status });
    return parseUser(body.user);
  }

  async getTimeline(handle: string, req: PageRequest): Promise<Page<Post>> {
    const a = await this.client.get(
      `/2/profile/${encodePart(handle)}/statuses?${pageQuery(req, { with_replies: 'true' })}`,
      req,
    );
    if (a.status === 204) return { items: [] };
    this.client.failOnStatus(a, 'timeline');
    const body = this.client.listBody<FxSearchResults>(a, 'timeline');
    const ctx = { now: this.now() };
    const statuses = body.results.flatMap((r) => ('statuses' in r && r.type === 'thread' ? r.statuses : [r]));
    return upstreamPage(
      statuses.filter(isUsableStatus).map((s) => parseStatus(s, ctx)),
      body.cursor?.bottom,
      req.cursor,
    );
  }

  getFollowers(handle: string, req: PageRequest): Promise<Page<Author>> {
    return this.connections(handle, 'followers', req);
  }

  getFollowing(handle: string, req: PageRequest): Promise<Page<Author>> {
    return this.connections(handle, 'following', req);
  }

  async search(q: string, feed: SearchFeed, req: PageRequest): Promise<Page<SearchItem>> {
    if (feed !== 'latest' && feed !== 'top') {
      throw new ProviderError(this.name, 'unavailable', `${this.name} has no ${feed} search feed`);
    }
    const a = await this.client.get(`/2/search?${pageQuery(req, { q, feed })}`, req);
    // FxTwitter answers 404 both for "no results" and for "search timeline unavailable".
    this.client.failOnStatus(a, 'search', 'empty');
    const body = this.client.listBody<FxSearchResults>(a, 'search');
    const ctx = { now: this.now() };
    const items = body.results
      .filter(isUsableStatus)
      .map((s): SearchItem => ({ kind: 'post', post: parseStatus(s, ctx) }));
    return upstreamPage(items, body.cursor?.bottom, req.cursor);
  }

  getQuotes(id: string, req: PageRequest): Promise<Page<Post>> {
    return fxQuotes(this.client, id, req, this.now());
  }

  getReposts(id: string, req: PageRequest): Promise<Page<Author>> {
    return fxReposts(this.client, id, req);
  }

  getMedia(handle: string, req: PageRequest): Promise<Page<Post>> {
    return fxMedia(this.client, handle, req, this.now());
  }

  getArticles(handle: string, req: PageRequest): Promise<Page<Post>> {
    return fxArticles(this.client, handle, req, this.now());
  }

  getAbout(handle: string, opts: CallOptions): Promise<AccountFacts> {
    return fxAbout(this.client, handle, opts);
  }

  private async connections(handle: string, which: 'followers' | 'following', req: PageRequest): Promise<Page<Author>> {
    const a = await this.client.get(`/2/profile/${encodePart(handle)}/${which}?${pageQuery(req, {})}`, req);
    this.client.failOnStatus(a, which);
    const body = this.client.listBody<FxProfileRelationshipList>(a, which);
    const users = body.results
      .filter((u) => typeof u?.screen_name === 'string' && typeof u.id === 'string')
      .map(parseUser);
    return upstreamPage(users, body.cursor?.bottom, req.cursor);
  }
}
