// PostSource over the cache and the provider chain. A conversation that no capable provider can serve
// degrades to the single post from any provider that can read one, flagged in the warnings.
import type { PostSource } from '../domain/read-post.ts';
import type { ConversationBundle } from '../domain/models.ts';
import type { ProviderChain } from '../providers/chain.ts';
import { isProblem } from '../problems/problem.ts';
import type { CachedReader } from './cached-reader.ts';

export function cachedPostSource(chain: ProviderChain, reader: CachedReader): PostSource {
  const single = (id: string) => chain.run('post', (p) => p.getPost!(id, {}));
  return {
    post(id, policy) {
      return reader.read(`post:${id}`, policy, () => single(id));
    },
    conversation(id, o, policy) {
      const key = `conv:${id}:${o.ranking}:${o.withReplies ? 'r' : 't'}`;
      return reader.read<ConversationBundle>(key, policy, async () => {
        try {
          return await chain.run('conversation', (p) => p.getConversation!(id, o));
        } catch (err) {
          if (isProblem(err) && err.code === 'not_found') throw err;
          const one = await single(id);
          return {
            source: one.source,
            value: {
              post: one.value,
              ancestors: [],
              continuations: [],
              replies: [],
              repliesAvailable: false,
              threadAvailable: false,
            },
          };
        }
      });
    },
  };
}
