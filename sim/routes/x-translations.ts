// X's inline Grok translations: a request that sends `x-twitter-client-language` and the
// `responsive_web_grok_show_grok_translated_post` feature gets, on each post of the answer, `is_translatable` and
// `grok_translated_post_with_availability` ({is_available: false} for a post already in that language, else
// `data{translation, source_language, destination_language, entities}`), as X's web app receives them.
import type { SimCorpus } from '../corpus-types.ts';
import { simGrokTranslation } from '../corpus-translations.ts';
import type { XGrokTranslation } from '../../src/providers/x/wire.ts';
import type { SimResponse } from './types.ts';

/** The feature X's web app sends to have the translations inline. */
export const GROK_TRANSLATION_FEATURE = 'responsive_web_grok_show_grok_translated_post';

const LANG_RE = /"lang":"([^"]*)"/g;

/** True when `features` (the request's JSON) turns inline translations on. */
export function wantsGrokTranslations(features: unknown): boolean {
  return (
    typeof features === 'object' &&
    features !== null &&
    (features as Record<string, unknown>)[GROK_TRANSLATION_FEATURE] === true
  );
}

/**
 * The answer with X's translations into `clientLanguage` on each post. An answer whose posts are all in that
 * language is passed on untouched: most answers are, and re-encoding them would only cost time.
 */
export function withGrokTranslations(res: SimResponse, c: SimCorpus, clientLanguage: string): SimResponse {
  if (res.status !== 200 || typeof res.body !== 'string') return res;
  const client = clientLanguage.toLowerCase();
  const other = [...res.body.matchAll(LANG_RE)].some((m) => m[1] !== client.split('-')[0]);
  if (!other) return res;
  const body = JSON.parse(res.body) as unknown;
  annotate(body, c, client);
  return { ...res, body: JSON.stringify(body) };
}

function annotate(node: unknown, c: SimCorpus, client: string): void {
  if (Array.isArray(node)) {
    for (const n of node) annotate(n, c, client);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  for (const v of Object.values(o)) annotate(v, c, client);
  if (o.__typename !== 'Tweet' || typeof o.rest_id !== 'string') return;
  const post = c.posts.get(o.rest_id);
  if (!post) return;
  const t = simGrokTranslation(post, client);
  const grok: XGrokTranslation = t
    ? {
        is_available: true,
        data: {
          translation: t.text,
          source_language: t.source,
          destination_language: t.destination,
          entities: { hashtags: [], symbols: [], urls: [], user_mentions: [] },
        },
      }
    : { is_available: false };
  o.is_translatable = t !== undefined;
  o.grok_translated_post_with_availability = grok;
}
