// The quotes, reposts and media-tab lists over the cache and the provider chain, paged like every list, and the
// account facts (about). When no configured provider serves one (FxTwitter does; X only with usable sessions) the
// read is 503 read_unavailable.
import type { TabSource } from '../domain/post-lists.ts';
import type { AboutSource } from '../domain/about.ts';
import type { ProviderChain } from '../providers/chain.ts';
import type { CachedReader } from './cached-reader.ts';
import { served } from './served.ts';
import type { FailureAnswer } from '../domain/failures.ts';
import { pagedRead, pageRequest, paidBy } from './list-source.ts';

const TABS: FailureAnswer = { unavailable: 'read_unavailable' };

export function cachedTabSource(chain: ProviderChain, reader: CachedReader): TabSource & AboutSource {
  const paged = pagedRead(chain, reader);
  return {
    quotes: (id, call) => paged(`quotes:${id}`, 'quotes', call, (p, c) => p.getQuotes!(id, pageRequest(call, c)), TABS),
    reposts: (id, call) =>
      paged(`reposts:${id}`, 'reposts', call, (p, c) => p.getReposts!(id, pageRequest(call, c)), TABS),
    media: (handle, call) =>
      paged(`media:${handle.toLowerCase()}`, 'media', call, (p, c) => p.getMedia!(handle, pageRequest(call, c)), TABS),
    articles: (handle, call) =>
      paged(
        `articles:${handle.toLowerCase()}`,
        'articles',
        call,
        (p, c) => p.getArticles!(handle, pageRequest(call, c)),
        TABS,
      ),
    about: (handle, policy) =>
      reader.read(`about:${handle.toLowerCase()}`, policy, async () =>
        served(await chain.run('about', (p, c) => p.getAbout!(handle, c), paidBy(policy)), TABS),
      ),
  };
}
