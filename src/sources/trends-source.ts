// TrendSource over the provider chain and a cache reader of its own, whose lifetime is the short one of trends.
import type { Trend } from '../domain/models.ts';
import type { TrendSource } from '../domain/trends.ts';
import { Problem } from '../problems/problem.ts';
import type { ProviderChain } from '../providers/chain.ts';
import type { CachedReader } from './cached-reader.ts';
import { DEFAULT_SEARCH_RETRY_AFTER_S, served } from './chain-problem.ts';
import { sessionCharge } from './list-source.ts';

export function cachedTrendSource(chain: ProviderChain, reader: CachedReader): TrendSource {
  return {
    trends(policy) {
      // Said before anything is charged or read: no provider of this deployment can list trends now.
      const none = chain.unservable('trends');
      if (none?.kind === 'no_provider') {
        const parked = none.parked;
        const detail = parked
          ? `Every ${parked.provider} session that could list trends is parked; the first frees up in ${parked.waitS} s.`
          : 'No configured provider lists trends: FxTwitter does, and X does with logged-in sessions ' +
            '(add fxtwitter to THREADMARK_PROVIDERS, or x with THREADMARK_X_SESSIONS).';
        throw new Problem('trends_unavailable', detail, {
          headers: { 'Retry-After': String(parked?.waitS ?? DEFAULT_SEARCH_RETRY_AFTER_S) },
        });
      }
      return reader.read<Trend[]>('trends:trending', policy, async () =>
        served(await chain.run('trends', (p, c) => p.getTrends!(c), sessionCharge(policy)), {
          unavailable: 'trends_unavailable',
        }),
      );
    },
  };
}
