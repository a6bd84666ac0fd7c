// TranslationSource over the cache and the provider chain: one cache entry per post and language, so a thread
// read again in the same language (or a post met again in another thread) costs no upstream call.
import { upstreamLang } from '../domain/language.ts';
import type { Translation } from '../domain/models.ts';
import type { TranslationSource } from '../domain/translate-read.ts';
import type { ProviderChain } from '../providers/chain.ts';
import type { CachedReader } from './cached-reader.ts';
import { served } from './served.ts';
import { paidBy } from './list-source.ts';

export function cachedTranslationSource(chain: ProviderChain, reader: CachedReader): TranslationSource {
  return {
    translation(post, lang, policy) {
      // The read that met the post paid its own live-lookup charge; each translation the upstream is asked for is
      // charged on its own, to the payer's translation allowance, by the chain.
      const { beforeLive: _paid, ...free } = policy;
      return reader.read<Translation>(`xlate:${post.id}:${lang}`, free, async () => {
        const got = served(
          await chain.run('translate', (p, c) => p.translatePost!(post.id, upstreamLang(lang), c), {
            ...paidBy(policy),
            call: 'translation',
          }),
        );
        return { value: { ...got.value, to: lang, provider: got.source }, source: got.source };
      });
    },
  };
}
