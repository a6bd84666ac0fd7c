// TrendSource over the provider chain and a cache reader of its own, whose lifetime is the short one of trends.
import type { Trend } from '../domain/models.ts';
import type { TrendSource } from '../domain/trends.ts';
import { Problem } from '../problems/problem.ts';
import type { ProviderChain } from '../providers/chain.ts';
import type { CachedReader } from './cached-reader.ts';
import { DEFAULT_SEARCH_RETRY_AFTER_S, served } from './chain-problem.ts';
import { paidBy } from './list-source.ts';

export function cachedTrendSource(chain: ProviderChain, reader: CachedReader): TrendSource {
  return {
    trends(policy) {
      // Said before anything is charged or read: no provider of this deployment lists trends at all. A provider
      // whose sessions are only parked for now goes through the reader, so that a stale list can stand in.
      const none = chain.unservable('trends');
      if (none?.kind === 'no_provider' && !none.parked) {
        throw new Problem(
          'trends_unavailable',
          'No configured provider lists trends: FxTwitter does, and X does with logged-in sessions ' +
            '(add fxtwitter to THREADMARK_PROVIDERS, or x with THREADMARK_X_SESSIONS).',
          { headers: { 'Retry-After': String(DEFAULT_SEARCH_RETRY_AFTER_S) } },
        );
      }
      return reader.read<Trend[]>('trends:trending', policy, async () =>
        served(await chain.run('trends', (p, c) => p.getTrends!(c), paidBy(policy)), {
          unavailable: 'trends_unavailable',
        }),
      );
    },
  };
}
