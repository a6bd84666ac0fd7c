// The account-backed X provider: conversations, profiles, timelines, follow lists, search and X Lists through X's
// web GraphQL API with operator-configured sessions. Without a usable session it declares no capabilities,
// so the chain skips it; a call made anyway fails 'unavailable' with the seconds until a session frees up.
import type { Author, ConversationBundle, CuratedList, Page, Post, ReplyNode } from '../../domain/models.ts';
import {
  ProviderError,
  type CallOptions,
  type Capability,
  type ConversationOptions,
  type PageRequest,
  type Provider,
  type ProviderOperationHealth,
  type SearchFeed,
  type SearchItem,
  type TimelineRequest,
  type UpstreamTranslation,
} from '../types.ts';
import type { UpstreamPolicy } from '../http.ts';
import { continuesAfter } from '../../domain/paging.ts';
import { followReplyCursor, uniqueBy, upstreamPage } from '../shared/paging.ts';
import { PROVIDER, XGraphqlClient } from './client.ts';
import { RANKING_MODES, SEARCH_PRODUCTS, type OperationName } from './operations.ts';
import {
  parseConversation,
  parseProfile,
  parseReplyPage,
  parseSearchPage,
  parseTimelinePage,
  parseUserPage,
  parseUserResult,
} from './parse.ts';
import { parseList, parseListMembersPage, parseListPostsPage } from './lists.ts';
import { parseArticlesPage, parseRepliesPage, parseRetweetersPage, quotesQuery, withArticleBodies } from './tabs.ts';
import { parseAbout } from './about.ts';
import { parseTrendsTimeline, TRENDING_TIMELINE_ID } from './trends.ts';
import type { Trend } from '../../domain/models.ts';
import { MAX_TRENDS } from '../../domain/trends.ts';
import { inlineTranslator, xClientLanguage } from './translation.ts';
import { upstreamLang } from '../../domain/language.ts';
import { TranslationMemo } from './translation-memo.ts';
import type { AccountFacts } from '../../domain/about.ts';
import type { SessionPool } from './sessions.ts';
import type { OperationTable } from './operation-table.ts';
import type { XWebApp } from './web-app.ts';
import type { XEnvelope } from './wire.ts';

/** Which operation backs each capability (timeline also needs UserByScreenName once per handle). */
const CAPABILITY_OPS: ReadonlyArray<[Capability, OperationName]> = [
  // A single post is the focal post of its conversation answer: one operation, one session budget.
  ['post', 'TweetDetail'],
  ['conversation', 'TweetDetail'],
  // X's Grok translation rides on the post's conversation answer asked in the target language.
  ['translate', 'TweetDetail'],
  ['profile', 'UserByScreenName'],
  ['profileById', 'UserByRestId'],
  ['timeline', 'UserTweets'],
  ['followers', 'Followers'],
  ['following', 'Following'],
  ['search:latest', 'SearchTimeline'],
  ['search:top', 'SearchTimeline'],
  ['search:photos', 'SearchTimeline'],
  ['search:videos', 'SearchTimeline'],
  ['search:users', 'SearchTimeline'],
  ['list', 'ListByRestId'],
  ['listPosts', 'ListLatestTweetsTimeline'],
  ['listMembers', 'ListMembers'],
  ['quotes', 'SearchTimeline'],
  ['reposts', 'Retweeters'],
  ['media', 'UserMedia'],
  // Each Article on the page also costs a TweetDetail for its body.
  ['articles', 'UserArticlesTweets'],
  ['about', 'AboutAccountQuery'],
  ['trends', 'GenericTimelineById'],
];

const CAPABILITY_OP = new Map(CAPABILITY_OPS);

/** X's own page sizes: it ignores larger counts and may error on very large ones. */
const MAX_COUNT: Partial<Record<OperationName, number>> = {
  UserTweets: 40,
  UserTweetsAndReplies: 40,
  Followers: 50,
  Following: 50,
  SearchTimeline: 50,
  ListLatestTweetsTimeline: 40,
  ListMembers: 50,
  Retweeters: 50,
  UserMedia: 40,
  // Small pages: the tab lists Articles without their bodies, and each body is one more TweetDetail.
  UserArticlesTweets: 10,
};

/** TweetDetail pages read at most for one conversation: each costs a session request. */
const REPLY_BUDGET = { pages: 5 };

/** Upstream pages read at most per photos/videos search request. */
const MAX_FILTERED_READS = 4;

export interface XProviderOptions {
  apiUrl: string;
  pool: SessionPool;
  operations?: OperationTable;
  web?: XWebApp;
  timeoutMs: number;
  policy?: UpstreamPolicy;
  /** Stops what the setup started (file watchers). */
  onClose?: () => void;
}

export interface ConversationPageRequest extends CallOptions {
  ranking: 'top' | 'recent';
}

export class XProvider implements Provider {
  readonly name = PROVIDER;
  private readonly client: XGraphqlClient;
  /** handle (lower case) → numeric user id; ids never change, handles rarely. */
  private readonly userIds = new Map<string, string>();
  private readonly translations = new TranslationMemo();

  constructor(private readonly opts: XProviderOptions) {
    this.client = new XGraphqlClient(opts);
  }

  get pool(): SessionPool {
    return this.opts.pool;
  }

  get operations(): OperationTable {
    return this.client.operations;
  }

  /** Stops watching the operations and sessions files. */
  close(): void {
    this.client.operations.close();
    this.opts.onClose?.();
  }

  /** Per operation: the id in force, answers counted by kind, and how many sessions can serve it now. */
  operationHealth(): Record<OperationName, ProviderOperationHealth> {
    const out = {} as Record<OperationName, ProviderOperationHealth>;
    for (const row of this.client.operations.rows()) {
      const wait = this.opts.pool.nextAvailableInS(row.name);
      const usable = this.opts.pool.usableCount(row.name);
      const { last, ...counts } = this.client.stats.get(row.name);
      out[row.name] = {
        state: this.opts.pool.size === 0 ? 'no_sessions' : usable === 0 ? 'parked' : last === 'stale' ? 'stale' : 'ok',
        queryId: row.operation.queryId,
        source: row.source,
        transactionId: row.operation.transactionId,
        ...counts,
        sessions: this.opts.pool.size,
        usableSessions: usable,
        ...(wait ? { retryAfterS: wait } : {}),
      };
    }
    return out;
  }

  /** The web app reader's state (discovery, signing inputs), for GET /api. */
  webStatus() {
    return this.opts.web?.status();
  }

  capabilities(): ReadonlySet<Capability> {
    const out = new Set<Capability>();
    for (const [cap, op] of CAPABILITY_OPS) if (this.opts.pool.isAvailable(op)) out.add(cap);
    return out;
  }

  /** Seconds until some session can serve `capability` again (0 = now); undefined without sessions. */
  retryAfterS(capability: Capability): number | undefined {
    const op = CAPABILITY_OP.get(capability);
    return op ? this.opts.pool.nextAvailableInS(op) : undefined;
  }

  async getPost(id: string, opts: CallOptions): Promise<Post> {
    const req = { ...callOf(opts), ranking: 'top' as const };
    return (await this.getConversationPage(id, req)).bundle.post;
  }

  async getConversation(id: string, opts: ConversationOptions): Promise<ConversationBundle> {
    const req = { ...callOf(opts), ranking: opts.ranking };
    const first = await this.getConversationPage(id, req);
    const { bundle } = first;
    if (!opts.withReplies) return bundle;
    // "Everything available" follows the replies cursor, within a budget of session requests.
    // The post is there: more pages of its replies are reads, not confirmations.
    const more = { ...req, confirming: false };
    const { items, notes } = await followReplyCursor(
      this.name,
      { items: bundle.replies, nextCursor: first.nextCursor },
      REPLY_BUDGET,
      opts.signal,
      (cursor) => this.getMoreReplies(id, { ...more, cursor }),
    );
    bundle.replies = uniqueBy(items, (n) => n.post.id);
    if (notes.length) bundle.notes = [...(bundle.notes ?? []), ...notes];
    return bundle;
  }

  /** The conversation plus X's raw cursor for more replies (the bundle contract has no cursor field). */
  async getConversationPage(
    id: string,
    req: ConversationPageRequest,
  ): Promise<{ bundle: ConversationBundle; nextCursor?: string }> {
    const env = await this.client.call(
      'TweetDetail',
      { focalTweetId: id, rankingMode: RANKING_MODES[req.ranking] },
      req,
    );
    return parseConversation(env, id);
  }

  async getMoreReplies(id: string, req: ConversationPageRequest & { cursor: string }): Promise<Page<ReplyNode>> {
    const env = await this.client.call(
      'TweetDetail',
      { focalTweetId: id, rankingMode: RANKING_MODES[req.ranking], cursor: req.cursor, referrer: 'tweet' },
      req,
    );
    return endAware(parseReplyPage(env, id), req.cursor);
  }

  /**
   * X's Grok translation of post `id` into `lang`: its conversation answer asked with that client language, which
   * translates the thread's other posts too (TranslationMemo).
   */
  translatePost(id: string, lang: string, opts: CallOptions): Promise<UpstreamTranslation> {
    return this.translations.translation(id, lang, () =>
      this.client.call(
        'TweetDetail',
        { focalTweetId: id, rankingMode: RANKING_MODES.top },
        { ...callOf(opts), clientLanguage: xClientLanguage(lang) },
      ),
    );
  }

  async getProfile(handle: string, opts: CallOptions): Promise<Author> {
    const env = await this.client.call('UserByScreenName', { screen_name: handle }, opts);
    const author = parseProfile(env, handle);
    this.userIds.set(handle.toLowerCase(), author.id);
    return author;
  }

  async getProfileById(id: string, opts: CallOptions): Promise<Author> {
    const env = await this.client.call('UserByRestId', { userId: id }, opts);
    const author = parseUserResult(env, `account ${id}`);
    this.userIds.set(author.handle.toLowerCase(), author.id);
    return author;
  }

  async getList(id: string, opts: CallOptions): Promise<CuratedList> {
    return parseList(await this.client.call('ListByRestId', { listId: id }, opts), id);
  }

  async getListPosts(id: string, req: PageRequest): Promise<Page<Post>> {
    const vars = { listId: id, count: clampCount('ListLatestTweetsTimeline', req.count), cursor: req.cursor };
    const env = await this.client.call('ListLatestTweetsTimeline', vars, inLanguage(req));
    return translated(endAware(parseListPostsPage(env, id), req.cursor), env, req);
  }

  async getListMembers(id: string, req: PageRequest): Promise<Page<Author>> {
    const vars = { listId: id, count: clampCount('ListMembers', req.count), cursor: req.cursor };
    return endAware(parseListMembersPage(await this.client.call('ListMembers', vars, req), id), req.cursor);
  }

  /** The profile's Posts tab, or its Replies tab when replies are wanted (UserTweets leaves them out). */
  async getTimeline(handle: string, req: TimelineRequest): Promise<Page<Post>> {
    const userId = await this.userId(handle, req);
    const op = req.withReplies ? 'UserTweetsAndReplies' : 'UserTweets';
    // The account exists: its timeline is a read, not a confirmation.
    const env = await this.client.call(
      op,
      { userId, count: clampCount(op, req.count), cursor: req.cursor },
      inLanguage({ ...req, confirming: false }),
    );
    const page = endAware(req.withReplies ? parseRepliesPage(env, userId) : parseTimelinePage(env), req.cursor);
    return translated(page, env, req);
  }

  getFollowers(handle: string, req: PageRequest): Promise<Page<Author>> {
    return this.connections('Followers', handle, req);
  }

  getFollowing(handle: string, req: PageRequest): Promise<Page<Author>> {
    return this.connections('Following', handle, req);
  }

  /**
   * photos/videos filter X's mixed Media product, so one upstream page can shrink to nothing; a few more
   * pages are read to fill the request before handing back X's cursor.
   */
  async search(q: string, feed: SearchFeed, req: PageRequest): Promise<Page<SearchItem>> {
    const { product, mediaKind } = SEARCH_PRODUCTS[feed];
    const count = clampCount('SearchTimeline', req.count);
    const items: SearchItem[] = [];
    let cursor = req.cursor;
    for (let reads = 0; reads < (mediaKind ? MAX_FILTERED_READS : 1); reads++) {
      const env = await this.client.call('SearchTimeline', { rawQuery: q, product, count, cursor }, inLanguage(req));
      const page = parseSearchPage(env, feed === 'users' ? 'users' : 'posts', mediaKind);
      const put = req.translate ? inlineTranslator(env, req.translate) : undefined;
      items.push(...(put ? page.items.map((i) => (i.kind === 'post' ? { ...i, post: put(i.post) } : i)) : page.items));
      // A page that scanned no entries ends the list even with a cursor (photos/videos may filter a page to nothing).
      const next = page.scanned > 0 && continuesAfter(page.nextCursor, cursor) ? page.nextCursor : undefined;
      cursor = next;
      if (!next || items.length >= count) break;
    }
    return cursor ? { items, nextCursor: cursor } : { items };
  }

  /** The posts quoting `id`: X's Latest search for the quoted post. */
  async getQuotes(id: string, req: PageRequest): Promise<Page<Post>> {
    const page = await this.search(quotesQuery(id), 'latest', req);
    const items = page.items.flatMap((i) => (i.kind === 'post' ? [i.post] : []));
    return page.nextCursor ? { items, nextCursor: page.nextCursor } : { items };
  }

  async getReposts(id: string, req: PageRequest): Promise<Page<Author>> {
    const vars = { tweetId: id, count: clampCount('Retweeters', req.count), cursor: req.cursor };
    return endAware(parseRetweetersPage(await this.client.call('Retweeters', vars, req), id), req.cursor);
  }

  async getMedia(handle: string, req: PageRequest): Promise<Page<Post>> {
    const userId = await this.userId(handle, req);
    const vars = { userId, count: clampCount('UserMedia', req.count), cursor: req.cursor };
    const env = await this.client.call('UserMedia', vars, inLanguage({ ...req, confirming: false }));
    return translated(endAware(parseTimelinePage(env), req.cursor), env, req);
  }

  /** The Articles tab, each Article whole: the tab lists them compact, so each body is read through TweetDetail. */
  async getArticles(handle: string, req: PageRequest): Promise<Page<Post>> {
    const userId = await this.userId(handle, req);
    const vars = { userId, count: clampCount('UserArticlesTweets', req.count), cursor: req.cursor };
    const env = await this.client.call('UserArticlesTweets', vars, { ...req, confirming: false });
    const page = endAware(parseArticlesPage(env), req.cursor);
    // The account and its posts exist: reading them is a read, not a confirmation.
    const read = { ...callOf(req), confirming: false, ranking: 'top' as const };
    const items = await withArticleBodies(
      page.items,
      async (id) => (await this.getConversationPage(id, read)).bundle.post,
    );
    return page.nextCursor ? { items, nextCursor: page.nextCursor } : { items };
  }

  async getAbout(handle: string, opts: CallOptions): Promise<AccountFacts> {
    return parseAbout(await this.client.call('AboutAccountQuery', { screenName: handle }, opts), handle);
  }

  /** X's trending Explore timeline; an answer without a single trend is `empty`, so the chain may ask on. */
  async getTrends(opts: CallOptions): Promise<Trend[]> {
    const env = await this.client.call('GenericTimelineById', { timelineId: TRENDING_TIMELINE_ID }, callOf(opts));
    const trends = parseTrendsTimeline(env);
    if (trends.length === 0) throw new ProviderError(this.name, 'empty', `${this.name} listed no trends`);
    return trends.slice(0, MAX_TRENDS);
  }

  private async connections(op: 'Followers' | 'Following', handle: string, req: PageRequest): Promise<Page<Author>> {
    const userId = await this.userId(handle, req);
    const vars = { userId, count: clampCount(op, req.count), cursor: req.cursor };
    const env = await this.client.call(op, vars, { ...req, confirming: false });
    return endAware(parseUserPage(env), req.cursor);
  }

  private async userId(handle: string, opts: CallOptions): Promise<string> {
    const known = this.userIds.get(handle.toLowerCase());
    if (known) return known;
    return (await this.getProfile(handle, opts)).id;
  }
}

/**
 * A page read asked in the read's language, when it wants one: X then attaches its translations to the page's posts
 * (`responsive_web_grok_show_grok_translated_post` is among the timeline operations' features).
 */
function inLanguage<T extends PageRequest>(req: T): T & { clientLanguage?: string } {
  return req.translate ? { ...req, clientLanguage: xClientLanguage(upstreamLang(req.translate)) } : req;
}

/** The page with the translations X attached to it, when the read asked for them. */
function translated(page: Page<Post>, env: XEnvelope, req: PageRequest): Page<Post> {
  if (!req.translate) return page;
  const put = inlineTranslator(env, req.translate);
  return { ...page, items: page.items.map(put) };
}

/** The parts of a call's options the transport needs (abort, deadline, charges, confirming). */
function callOf(opts: CallOptions): CallOptions {
  const { signal, deadline, chargeSession, beforeRequest, confirming } = opts;
  return { signal, deadline, chargeSession, beforeRequest, confirming };
}

function clampCount(op: OperationName, count: number): number {
  return Math.max(1, Math.min(MAX_COUNT[op] ?? 20, Math.floor(count) || 20));
}

/**
 * X keeps handing out a bottom cursor on the last page: besides an empty page or the same cursor again, a
 * follow-list cursor starting with "0|" means the end.
 */
function endAware<T>(page: Page<T>, requested: string | undefined): Page<T> {
  return upstreamPage(page.items, page.nextCursor, requested, (c) => c.startsWith('0|'));
}
