import type { ConversationBundle, Post } from '../../domain/models.ts';
import { fetchUpstream, isJsonContentType, parseJson, retryAfterSeconds, type UpstreamPolicy } from '../http.ts';
import { ProviderError, type CallOptions, type Capability, type ConversationOptions, type Provider } from '../types.ts';
import { isSynTombstone, isUsableTweet, parseParent, parseTweet } from './parse.ts';
import { syndicationToken } from './token.ts';
import type { SynTweet } from './wire.ts';

export interface SyndicationOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Retries and body limit; without one each read is tried once. */
  policy?: UpstreamPolicy;
  name?: string;
  now?: () => number;
}

/**
 * X's embed-widget endpoint: one public post (with its quote and direct parent) per call, no session.
 * It cannot list replies or walk a thread; `getConversation` exists so the chain can still answer a
 * thread request with the post and its parent when richer providers fail, and says so via the
 * `*Available` flags.
 */
export class SyndicationProvider implements Provider {
  readonly name: string;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly policy: UpstreamPolicy | undefined;
  private readonly now: () => number;

  constructor(opts: SyndicationOptions) {
    this.name = opts.name ?? 'syndication';
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs;
    this.policy = opts.policy;
    this.now = opts.now ?? Date.now;
  }

  capabilities(): ReadonlySet<Capability> {
    return new Set<Capability>(['post', 'conversation']);
  }

  async getPost(id: string, opts: CallOptions): Promise<Post> {
    return parseTweet(await this.fetchTweet(id, opts), { now: this.now() });
  }

  async getConversation(id: string, opts: ConversationOptions): Promise<ConversationBundle> {
    const tweet = await this.fetchTweet(id, opts);
    const ctx = { now: this.now() };
    const parent = parseParent(tweet, ctx);
    return {
      post: parseTweet(tweet, ctx),
      ancestors: parent ? [parent] : [],
      continuations: [],
      replies: [],
      repliesAvailable: false,
      threadAvailable: false,
    };
  }

  private async fetchTweet(id: string, call: CallOptions): Promise<SynTweet> {
    const q = new URLSearchParams({ id, token: syndicationToken(id), lang: 'en' });
    const res = await fetchUpstream(this.name, `${this.base}/tweet-result?${q}`, {
      signal: call.signal,
      deadline: call.deadline,
      timeoutMs: this.timeoutMs,
      policy: this.policy,
    });
    // A 404 (an HTML page) is X saying the id is not a visible post.
    if (res.status === 404)
      throw new ProviderError(this.name, 'not_found', `${this.name}: post ${id} not found`, { status: 404 });
    if (res.status < 200 || res.status >= 300) {
      throw new ProviderError(this.name, 'error', `${this.name}: HTTP ${res.status}`, {
        status: res.status,
        retryAfterS: retryAfterSeconds(res.headers),
      });
    }
    if (!isJsonContentType(res.headers)) {
      throw new ProviderError(
        this.name,
        'error',
        `${this.name}: expected JSON, got ${res.headers.get('content-type') ?? 'no content type'}`,
        { status: res.status },
      );
    }
    if (res.text.trim() === '')
      throw new ProviderError(this.name, 'empty', `${this.name}: empty body for ${id}`, { status: res.status });
    const body = parseJson(this.name, res.text);
    // `{}`, a tombstone (deleted, withheld, age-restricted) or a Tweet without its author (suspended
    // account) all mean the post cannot be shown to a logged-out reader.
    if (isSynTombstone(body))
      throw new ProviderError(this.name, 'not_found', `${this.name}: post ${id} is unavailable`, {
        status: res.status,
      });
    if (!isUsableTweet(body)) {
      const empty =
        !body ||
        typeof body !== 'object' ||
        Object.keys(body).length === 0 ||
        (body as { __typename?: string }).__typename === 'Tweet';
      throw new ProviderError(
        this.name,
        empty ? 'not_found' : 'error',
        `${this.name}: no readable post in the answer for ${id}`,
        { status: res.status },
      );
    }
    return body;
  }
}
