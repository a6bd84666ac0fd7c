// TrendSource over the provider chain and a cache reader of its own, whose lifetime is the short one of trends.
import type { Trend } from '../domain/models.ts';
import type { TrendSource } from '../domain/trends.ts';
import { SourceError } from '../domain/failures.ts';
import type { ProviderChain } from '../providers/chain.ts';
import type { CachedReader } from './cached-reader.ts';
import { served } from './served.ts';
import { paidBy } from './list-source.ts';

export function cachedTrendSource(chain: ProviderChain, reader: CachedReader): TrendSource {
  return {
    trends(policy) {
      // Said before anything is charged or read: no provider of this deployment lists trends at all. A provider
      // whose sessions are only parked for now goes through the reader, so that a stale list can stand in.
      const none = chain.unservable('trends');
      if (none?.kind === 'no_provider' && !none.parked) {
        throw new SourceError({ kind: 'no_trends_provider' });
      }
      return reader.read<Trend[]>('trends:trending', policy, async () =>
        served(await chain.run('trends', (p, c) => p.getTrends!(c), paidBy(policy)), {
          unavailable: 'trends_unavailable',
        }),
      );
    },
  };
}
