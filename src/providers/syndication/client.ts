// Transport to X's embed-widget endpoint (/tweet-result): one post per call, and the reading of its answers
// (an HTML 404, `{}`, a tombstone, a post without its author) into provider failures.
import { fetchUpstream, isJsonContentType, parseJson, retryAfterSeconds, type UpstreamPolicy } from '../http.ts';
import { ProviderError, type CallOptions } from '../types.ts';
import { isSynTombstone, isUsableTweet } from './parse.ts';
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

export class SyndicationClient {
  readonly name: string;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly policy: UpstreamPolicy | undefined;

  constructor(opts: SyndicationOptions) {
    this.name = opts.name ?? 'syndication';
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = opts.timeoutMs;
    this.policy = opts.policy;
  }

  async fetchTweet(id: string, call: CallOptions): Promise<SynTweet> {
    const q = new URLSearchParams({ id, token: syndicationToken(id), lang: 'en' });
    const charged = call.beforeRequest?.();
    if (charged) await charged;
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
