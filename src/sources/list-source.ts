// ListSource over the cache and the provider chain. Search results from a provider other than the first
// capable one are "degraded": they carry no cursor (the contract), and say so in the warnings.
import type { ListSource } from '../domain/lists.ts';
import type { PageCall } from '../domain/paging.ts';
import type { Page } from '../domain/models.ts';
import { DomainError } from '../domain/errors.ts';
import { canBeAccountId } from '../domain/ids.ts';
import type { ReadPolicy, Sourced } from '../domain/sourced.ts';
import type { ProviderChain, RunOptions } from '../providers/chain.ts';
import type { CallOptions, Capability, PageRequest, Provider } from '../providers/types.ts';
import type { CachedReader } from './cached-reader.ts';
import { failureOf, served } from './served.ts';
import { SourceError, type FailureAnswer } from '../domain/failures.ts';

/** One upstream page of a list, through the cache, from the provider that issued its cursor (any, for the first). */
export type PagedRead = <T>(
  key: string,
  capability: Capability,
  call: PageCall,
  fn: (p: Provider, c: CallOptions) => Promise<Page<T>>,
  answer?: FailureAnswer,
) => Promise<Sourced<Page<T>>>;

export function pagedRead(chain: ProviderChain, reader: CachedReader): PagedRead {
  return (key, capability, call, fn, answer = {}) =>
    reader.read(
      `${key}:${call.provider ?? '*'}:${call.count}:${call.cursor ?? ''}${call.policy.translate ? `:in:${call.policy.translate}` : ''}`,
      chargedOnlyIfServable(chain, capability, call, answer),
      async () => served(await chain.run(capability, fn, { only: call.provider, ...paidBy(call.policy) }), answer),
    );
}

/** The provider's page request for one call. */
export const pageRequest = (call: PageCall, c: CallOptions): PageRequest => ({
  ...c,
  cursor: call.cursor,
  count: call.count,
  ...(call.policy.translate ? { translate: call.policy.translate } : {}),
});

export function cachedListSource(chain: ProviderChain, reader: CachedReader): ListSource {
  const paged = pagedRead(chain, reader);
  const req = pageRequest;

  return {
    async profile(handle, policy) {
      const got = await reader.read(`profile:${handle.toLowerCase()}`, policy, async () =>
        served(await chain.run('profile', (p, c) => p.getProfile!(handle, c), paidBy(policy))),
      );
      return publicOnly(got, `@${handle}`);
    },
    async profileById(id, policy) {
      // Every by-id entry (routes, oEmbed, MCP) reads through here, so no upstream ever sees an impossible id.
      if (!canBeAccountId(id)) throw new DomainError({ kind: 'impossible_id', of: 'account', id });
      const got = await reader.read(`profile-id:${id}`, policy, async () =>
        served(await chain.run('profileById', (p, c) => p.getProfileById!(id, c), paidBy(policy))),
      );
      return publicOnly(got, `account ${id}`);
    },
    timeline(handle, call, opts = {}) {
      const withReplies = opts.replies === true;
      // Replies asked for are another upstream read for X (its Replies tab), so another cache entry.
      const key = `timeline:${handle.toLowerCase()}${withReplies ? ':replies' : ''}`;
      return paged(key, 'timeline', call, (p, c) => p.getTimeline!(handle, { ...req(call, c), withReplies }));
    },
    connections(kind, handle, call) {
      return paged(`${kind}:${handle.toLowerCase()}`, kind, call, (p, c) =>
        kind === 'followers' ? p.getFollowers!(handle, req(call, c)) : p.getFollowing!(handle, req(call, c)),
      );
    },
    async search(q, feed, call) {
      const cap: Capability = `search:${feed}`;
      const got = await paged(`search:${feed}:${q}`, cap, call, (p, c) => p.search!(q, feed, req(call, c)), {
        search: true,
      });
      const primary = chain.capable(cap)[0]?.name;
      if (!call.provider && primary && got.source !== primary && got.value.nextCursor) {
        got.value = { items: got.value.items };
        got.warnings.push(`degraded search: results from ${got.source} (fallback for ${primary}) carry no cursor`);
      }
      return got;
    },
    list(id, policy) {
      return reader.read(`list:${id}`, chargedOnlyIfServable(chain, 'list', { policy }, LISTS), async () =>
        served(await chain.run('list', (p, c) => p.getList!(id, c), paidBy(policy)), LISTS),
      );
    },
    listPosts(id, call) {
      return paged(`list-posts:${id}`, 'listPosts', call, (p, c) => p.getListPosts!(id, req(call, c)), LISTS);
    },
    listMembers(id, call) {
      return paged(`list-members:${id}`, 'listMembers', call, (p, c) => p.getListMembers!(id, req(call, c)), LISTS);
    },
  };
}

/**
 * The chain options that charge the read's payer for each upstream call (as a poll when the read is one) and for
 * each session call its read makes (see ReadPolicy).
 */
export function paidBy(policy: ReadPolicy): RunOptions {
  return {
    payer: policy.payer,
    call: policy.purpose ?? 'read',
    ...(policy.chargeSession ? { chargeSession: policy.chargeSession } : {}),
  };
}

/** How a read that needs logged-in sessions says it cannot be served now (search keeps its own 503 rules). */
const LISTS: FailureAnswer = {
  unavailable: 'list_unavailable',
  notFound:
    'The X List is private, was deleted or does not exist: check the id, the digits of its address x.com/i/lists/{id}.',
};

/** Upstreams happily describe a protected account; the contract treats it as not public at all. */
function publicOnly<T extends { protected?: boolean }>(got: Sourced<T>, what: string): Sourced<T> {
  if (got.value.protected)
    throw new SourceError({ kind: 'not_found', detail: `${what} is not public.`, source: got.source });
  return got;
}

/**
 * The live-lookup quota is charged only for requests that reach a provider: when none can serve the
 * capability (e.g. account-backed search without sessions), the chain's refusal comes before the charge.
 */
function chargedOnlyIfServable(
  chain: ProviderChain,
  capability: Capability,
  call: Pick<PageCall, 'provider' | 'policy'>,
  answer: FailureAnswer,
): ReadPolicy {
  const charge = call.policy.beforeLive;
  if (!charge) return call.policy;
  return {
    ...call.policy,
    beforeLive: async () => {
      const refused = chain.unservable(capability, call.provider);
      if (refused) throw failureOf(refused, answer);
      await charge();
    },
  };
}
