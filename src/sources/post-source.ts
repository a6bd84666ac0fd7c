// PostSource over the cache and the provider chain. A conversation that no capable provider can serve
// degrades to the single post from any provider that can read one, flagged in the warnings.
import type { PostSource } from '../domain/read-post.ts';
import type { PostRead } from '../domain/reads.ts';
import type { Derived } from '../domain/sourced.ts';
import type { ConversationBundle } from '../domain/models.ts';
import type { ReadBudget, ReadPolicy } from '../domain/sourced.ts';
import type { ProviderChain } from '../providers/chain.ts';
import { Deadline } from '../providers/deadline.ts';
import { canBeStatusId } from '../domain/ids.ts';
import { DomainError } from '../domain/errors.ts';
import type { CachedReader } from './cached-reader.ts';
import { failureOf, served } from './served.ts';
import { paidBy } from './list-source.ts';

export function cachedPostSource(
  chain: ProviderChain,
  reader: CachedReader,
  assembled?: Derived<PostRead>,
): PostSource {
  const single = async (id: string, policy: ReadPolicy, deadline?: Deadline) =>
    served(await chain.run('post', (p, c) => p.getPost!(id, c), { deadline, ...paidBy(policy) }));
  // The budgets handed out below are the chain's own deadlines; anything else means "no shared budget".
  const deadlineOf = (budget?: ReadBudget) => (budget instanceof Deadline ? budget : undefined);
  // Every entry (routes, oEmbed, MCP) reads through here, so no upstream ever sees an id that cannot exist.
  const possible = (id: string) => {
    if (!canBeStatusId(id)) throw new DomainError({ kind: 'impossible_id', of: 'post', id });
  };
  return {
    ...(assembled ? { assembled } : {}),
    budget: () => chain.deadline(),
    post(id, policy, budget) {
      possible(id);
      return reader.read(`post:${id}`, policy, () => single(id, policy, deadlineOf(budget)));
    },
    conversation(id, o, policy, budget) {
      possible(id);
      const key = `conv:${id}:${o.ranking}:${o.withReplies ? 'r' : 't'}`;
      return reader.read<ConversationBundle>(key, policy, async () => {
        // One budget for the conversation and its fallback: the fallback only gets the time left over.
        const deadline = deadlineOf(budget) ?? chain.deadline();
        // Only a provider's definite "not found" ends the read; any other failure (or a throw) falls back to the
        // single post.
        const got = await chain
          .run('conversation', (p, c) => p.getConversation!(id, { ...o, ...c }), {
            deadline,
            ...paidBy(policy),
          })
          .catch(() => undefined);
        const primary = chain.capable('conversation')[0]?.name;
        if (got?.ok) {
          if (got.source === primary) return { value: got.value, source: got.source };
          return { value: { ...got.value, fallback: true as const }, source: got.source };
        }
        if (got?.failure.kind === 'gone') throw failureOf(got.failure);
        const one = await single(id, policy, deadline);
        return {
          source: one.source,
          value: {
            post: one.value,
            ancestors: [],
            continuations: [],
            replies: [],
            repliesAvailable: false,
            threadAvailable: false,
            fallback: true,
          },
        };
      });
    },
  };
}
