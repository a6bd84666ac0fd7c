// ListSource over the cache and the provider chain. Search results from a provider other than the first
// capable one are "degraded": they carry no cursor (the contract), and say so in the warnings.
import type { ListSource, PageCall } from '../domain/lists.ts';
import type { Page } from '../domain/models.ts';
import { Problem } from '../problems/problem.ts';
import type { Sourced } from '../domain/sourced.ts';
import type { ProviderChain } from '../providers/chain.ts';
import type { Capability, Provider } from '../providers/types.ts';
import type { CachedReader } from './cached-reader.ts';

export function cachedListSource(chain: ProviderChain, reader: CachedReader): ListSource {
  const paged = <T>(
    key: string,
    capability: Capability,
    call: PageCall,
    fn: (p: Provider) => Promise<Page<T>>,
    search = false,
  ): Promise<Sourced<Page<T>>> =>
    reader.read(`${key}:${call.provider ?? '*'}:${call.count}:${call.cursor ?? ''}`, call.policy, () =>
      chain.run(capability, fn, { only: call.provider, search }),
    );
  const req = (call: PageCall) => ({ cursor: call.cursor, count: call.count });

  return {
    async profile(handle, policy) {
      const got = await reader.read(`profile:${handle.toLowerCase()}`, policy, () => chain.run('profile', (p) => p.getProfile!(handle, {})));
      // Upstreams happily describe a protected account; the contract treats it as not public at all.
      if (got.value.protected) throw new Problem('not_found', `@${handle} is not public.`, { extensions: { source: got.source } });
      return got;
    },
    timeline(handle, call) {
      return paged(`timeline:${handle.toLowerCase()}`, 'timeline', call, (p) => p.getTimeline!(handle, req(call)));
    },
    connections(kind, handle, call) {
      return paged(`${kind}:${handle.toLowerCase()}`, kind, call, (p) =>
        kind === 'followers' ? p.getFollowers!(handle, req(call)) : p.getFollowing!(handle, req(call)),
      );
    },
    async search(q, feed, call) {
      const cap: Capability = `search:${feed}`;
      const got = await paged(`search:${feed}:${q}`, cap, call, (p) => p.search!(q, feed, req(call)), true);
      const primary = chain.capable(cap)[0]?.name;
      if (!call.provider && primary && got.source !== primary && got.value.nextCursor) {
        got.value = { items: got.value.items };
        got.warnings.push(`degraded search: results from ${got.source} (fallback for ${primary}) carry no cursor`);
      }
      return got;
    },
  };
}
