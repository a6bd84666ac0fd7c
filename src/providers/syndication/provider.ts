// The syndication provider, the one the chain registers: single public posts (with their quote and parent) from
// X's embed-widget endpoint, no account needed.
import type { ConversationBundle, Post } from '../../domain/models.ts';
import type { CallOptions, Capability, ConversationOptions, Provider } from '../types.ts';
import { SyndicationClient, type SyndicationOptions } from './client.ts';
import { parseParent, parseTweet } from './parse.ts';

export type { SyndicationOptions };

/**
 * X's embed-widget endpoint: one public post (with its quote and direct parent) per call, no session.
 * It cannot list replies or walk a thread; `getConversation` exists so the chain can still answer a
 * thread request with the post and its parent when richer providers fail, and says so via the
 * `*Available` flags.
 */
export class SyndicationProvider implements Provider {
  readonly name: string;
  private readonly client: SyndicationClient;
  private readonly now: () => number;

  constructor(opts: SyndicationOptions) {
    this.client = new SyndicationClient(opts);
    this.name = this.client.name;
    this.now = opts.now ?? Date.now;
  }

  capabilities(): ReadonlySet<Capability> {
    return new Set<Capability>(['post', 'conversation']);
  }

  async getPost(id: string, opts: CallOptions): Promise<Post> {
    return parseTweet(await this.client.fetchTweet(id, opts), { now: this.now() });
  }

  async getConversation(id: string, opts: ConversationOptions): Promise<ConversationBundle> {
    const tweet = await this.client.fetchTweet(id, opts);
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
}
