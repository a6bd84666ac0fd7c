import { encodePart } from '../../domain/links.ts';
import type { Author, ConversationBundle, Page, Post } from '../../domain/models.ts';
import { fetchUpstream, parseJson, retryAfterSeconds, type UpstreamPolicy } from '../http.ts';
import {
  ProviderError,
  type CallOptions,
  type Capability,
  type ConversationOptions,
  type PageRequest,
  type Provider,
  type SearchFeed,
  type SearchItem,
} from '../types.ts';
import { isTombstone, isUsableStatus, nestReplies, parseStatus, parseUser } from './parse.ts';
import type {
  FxProfileRelationshipList,
  FxSearchResults,
  FxSocialConversation,
  FxStatus,
  FxUserResponse,
} from './wire.ts';

export interface FxTwitterOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Retries and body limit; without one each read is tried once. */
  policy?: UpstreamPolicy;
  name?: string;
  /** Clock used to decide whether polls have ended. */
  now?: () => number;
}

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
]);

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Bounds on following a conversation's reply cursor: enough for a busy thread, not a crawl. */
const MAX_REPLY_PAGES = 10;
const MAX_REPLIES = 200;

export class FxTwitterProvider implements Provider {
  readonly name: string;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly policy: UpstreamPolicy | undefined;
  private readonly now: () => number;

  constructor(opts: FxTwitterOptions) {
    this.name = opts.name ?? 'fxtwitter';
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs;
    this.policy = opts.policy;
    this.now = opts.now ?? Date.now;
  }

  capabilities(): ReadonlySet<Capability> {
    return CAPABILITIES;
  }

  async getPost(id: string, opts: CallOptions): Promise<Post> {
    const a = await this.get(`/2/status/${encodePart(id)}`, opts);
    const body = a.body as Partial<FxSocialConversation> | undefined;
    this.failOnTombstone(body?.status);
    this.failOnStatus(a, 'post');
    if (!isUsableStatus(body?.status))
      throw new ProviderError(this.name, 'empty', `${this.name} returned no post for ${id}`, { status: a.status });
    return parseStatus(body.status, { now: this.now() });
  }

  async getConversation(id: string, opts: ConversationOptions): Promise<ConversationBundle> {
    const path = opts.withReplies
      ? `/2/conversation/${encodePart(id)}?ranking_mode=${opts.ranking === 'recent' ? 'recency' : 'likes'}`
      : `/2/thread/${encodePart(id)}`;
    const a = await this.get(path, opts);
    const body = a.body as Partial<FxSocialConversation> | undefined;
    this.failOnTombstone(body?.status);
    this.failOnStatus(a, 'conversation');
    if (!isUsableStatus(body?.status))
      throw new ProviderError(this.name, 'empty', `${this.name} returned no post for ${id}`, { status: a.status });
    const ctx = { now: this.now() };
    const post = parseStatus(body.status, ctx);
    const thread = (body.thread ?? []).filter(isUsableStatus).map((s) => parseStatus(s, ctx));
    const { ancestors, continuations } = splitThread(post, thread);
    const inThread = new Set([post.id, ...thread.map((p) => p.id)]);
    const notes: string[] = [];
    const raw = opts.withReplies ? await this.morePages(path, body, opts, notes) : [];
    const flat = dedupe(raw.filter(isUsableStatus).map((s) => parseStatus(s, ctx))).filter((p) => !inThread.has(p.id));
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
  private async morePages(
    path: string,
    first: Partial<FxSocialConversation>,
    opts: ConversationOptions,
    notes: string[],
  ): Promise<FxStatus[]> {
    const out = [...(first.replies ?? [])];
    let cursor = first.cursor?.bottom ?? undefined;
    for (let pages = 1; cursor; pages++) {
      if (pages >= MAX_REPLY_PAGES || out.length >= MAX_REPLIES) {
        notes.push(`replies cut at ${out.length} (more exist upstream)`);
        break;
      }
      try {
        const next = await this.get(`${path}&cursor=${encodePart(cursor)}`, opts);
        const body = next.body as Partial<FxSocialConversation> | undefined;
        if (next.status !== 200 || !Array.isArray(body?.replies)) throw new Error(`HTTP ${next.status}`);
        out.push(...body.replies);
        const following = body.cursor?.bottom ?? undefined;
        cursor = following && following !== cursor && body.replies.length > 0 ? following : undefined;
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        // The replies read so far are still worth serving; say what is missing instead of failing the read.
        notes.push(`replies incomplete: page ${pages + 1} from ${this.name} failed`);
        break;
      }
    }
    return out;
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
      const a = await this.get(`/2/thread/${encodePart(id)}`, opts);
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
    const a = await this.get(`/2/profile/${segment}`, opts);
    this.failOnSuspended(a);
    this.failOnStatus(a, 'profile');
    const body = a.body as Partial<FxUserResponse> | undefined;
    if (!body?.user?.screen_name)
      throw new ProviderError(this.name, 'empty', `${this.name} returned no profile for ${what}`, { status: a.status });
    return parseUser(body.user);
  }

  async getTimeline(handle: string, req: PageRequest): Promise<Page<Post>> {
    const a = await this.get(
      `/2/profile/${encodePart(handle)}/statuses?${pageQuery(req, { with_replies: 'true' })}`,
      req,
    );
    if (a.status === 204) return { items: [] };
    this.failOnStatus(a, 'timeline');
    const body = this.listBody<FxSearchResults>(a, 'timeline');
    const ctx = { now: this.now() };
    const statuses = body.results.flatMap((r) => ('statuses' in r && r.type === 'thread' ? r.statuses : [r]));
    return withCursor(
      statuses.filter(isUsableStatus).map((s) => parseStatus(s, ctx)),
      body.cursor?.bottom,
      req,
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
    const a = await this.get(`/2/search?${pageQuery(req, { q, feed })}`, req);
    // FxTwitter answers 404 both for "no results" and for "search timeline unavailable".
    this.failOnStatus(a, 'search', 'empty');
    const body = this.listBody<FxSearchResults>(a, 'search');
    const ctx = { now: this.now() };
    const items = body.results
      .filter(isUsableStatus)
      .map((s): SearchItem => ({ kind: 'post', post: parseStatus(s, ctx) }));
    return withCursor(items, body.cursor?.bottom, req);
  }

  private async connections(handle: string, which: 'followers' | 'following', req: PageRequest): Promise<Page<Author>> {
    const a = await this.get(`/2/profile/${encodePart(handle)}/${which}?${pageQuery(req, {})}`, req);
    this.failOnStatus(a, which);
    const body = this.listBody<FxProfileRelationshipList>(a, which);
    const users = body.results
      .filter((u) => typeof u?.screen_name === 'string' && typeof u.id === 'string')
      .map(parseUser);
    return withCursor(users, body.cursor?.bottom, req);
  }

  private async get(path: string, call: CallOptions): Promise<Answer> {
    const res = await fetchUpstream(this.name, this.base + path, {
      signal: call.signal,
      deadline: call.deadline,
      timeoutMs: this.timeoutMs,
      policy: this.policy,
    });
    const ok = res.status >= 200 && res.status < 300;
    if (res.text.trim() === '') return { status: res.status, body: undefined, headers: res.headers };
    if (!ok) {
      // Error pages are often HTML; their status code is what matters.
      try {
        return { status: res.status, body: JSON.parse(res.text), headers: res.headers };
      } catch {
        return { status: res.status, body: undefined, headers: res.headers };
      }
    }
    return { status: res.status, body: parseJson(this.name, res.text), headers: res.headers };
  }

  private failOnTombstone(t: unknown): void {
    if (!isTombstone(t)) return;
    const gone = t.reason === 'deleted' || t.reason === 'suspended' || t.reason === 'private';
    throw new ProviderError(
      this.name,
      gone ? 'not_found' : 'empty',
      `${this.name}: post ${t.reason}${t.message ? ` (${t.message})` : ''}`,
    );
  }

  /** A suspended account's profile is a definitive answer: FxTwitter names the reason. */
  private failOnSuspended(a: Answer): void {
    const reason = (a.body as { reason?: unknown } | undefined)?.reason;
    if (a.status === 404 && reason === 'suspended') {
      throw new ProviderError(this.name, 'not_found', `${this.name}: account suspended`, { status: 404 });
    }
  }

  /**
   * HTTP status (or the body `code` that mirrors it) to failure kind. 401 is FxTwitter's "private post"
   * answer and definitive. A bare 404 (no tombstone) is not: FxTwitter gives it as well when its own upstream
   * call failed or X limited it, so it is `unconfirmed` (another provider may confirm it); on search, where it
   * also means "no results", it is `empty`.
   */
  private failOnStatus(a: Answer, what: string, on404: 'unconfirmed' | 'empty' = 'unconfirmed'): void {
    const code =
      typeof (a.body as { code?: unknown })?.code === 'number' ? (a.body as { code: number }).code : a.status;
    const status = a.status >= 200 && a.status < 300 ? code : a.status;
    if (status >= 200 && status < 300) return;
    if (status === 401) {
      throw new ProviderError(this.name, 'not_found', `${this.name}: ${what} not public (HTTP 401)`, { status });
    }
    if (status === 404) {
      const said =
        on404 === 'unconfirmed'
          ? 'reports it missing (HTTP 404), which it also answers when its own upstream fails'
          : 'not available (HTTP 404)';
      throw new ProviderError(this.name, on404, `${this.name}: ${what} ${said}`, { status });
    }
    throw new ProviderError(this.name, 'error', `${this.name}: ${what} request failed with HTTP ${status}`, {
      status,
      retryAfterS: retryAfterSeconds(a.headers),
    });
  }

  private listBody<T extends { results: unknown[] }>(a: Answer, what: string): T {
    const body = a.body as Partial<T> | undefined;
    if (!body || !Array.isArray(body.results)) {
      throw new ProviderError(this.name, 'error', `${this.name}: ${what} answer has no results list`, {
        status: a.status,
      });
    }
    return body as T;
  }
}

function pageQuery(req: PageRequest, extra: Record<string, string>): string {
  const p = new URLSearchParams(extra);
  p.set('count', String(Math.min(100, Math.max(1, Math.floor(req.count) || 20))));
  if (req.cursor) p.set('cursor', req.cursor);
  return p.toString();
}

/** A bottom cursor equal to the one just sent means the list is exhausted (it would loop forever). */
function withCursor<T>(items: T[], bottom: string | null | undefined, req: PageRequest): Page<T> {
  return bottom && bottom !== req.cursor && items.length > 0 ? { items, nextCursor: bottom } : { items };
}

/**
 * FxTwitter's `thread` is the reply chain down to the focal post plus the author's own follow-ups.
 * Posts before the focal one are its ancestors; posts after it count as continuations only when written
 * by the same author. When the focal post is missing from the list, snowflake order decides.
 */
export function splitThread(post: Post, thread: Post[]): { ancestors: Post[]; continuations: Post[] } {
  const at = thread.findIndex((p) => p.id === post.id);
  const before = at >= 0 ? thread.slice(0, at) : thread.filter((p) => compareIds(p.id, post.id) < 0);
  const after = at >= 0 ? thread.slice(at + 1) : thread.filter((p) => compareIds(p.id, post.id) > 0);
  return {
    ancestors: before,
    continuations: after.filter((p) => sameAuthor(p, post)),
  };
}

const sameAuthor = (a: Post, b: Post) =>
  a.author.id === b.author.id || a.author.handle.toLowerCase() === b.author.handle.toLowerCase();

/**
 * Extends `continuations` (in place) with the author's self-replies found among `replies`, following
 * the chain from the last known post and taking the earliest self-reply at each step. Returns the
 * replies that are not part of that chain.
 */
export function takeContinuations(post: Post, continuations: Post[], replies: Post[]): Post[] {
  const rest = [...replies];
  let last = continuations[continuations.length - 1] ?? post;
  for (;;) {
    const next = rest
      .filter((r) => r.replyTo?.id === last.id && sameAuthor(r, post))
      .sort((a, b) => compareIds(a.id, b.id))[0];
    if (!next) return rest;
    continuations.push(next);
    rest.splice(rest.indexOf(next), 1);
    last = next;
  }
}

/** Reply pages can overlap when the ranking shifts between reads. */
function dedupe(posts: Post[]): Post[] {
  const seen = new Set<string>();
  return posts.filter((p) => !seen.has(p.id) && seen.add(p.id));
}

function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
