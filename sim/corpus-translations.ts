// Posts in other languages than English, and what the simulated translators make of them. FxEmbed translates a
// status when `lang` is a 2-letter code or a 5-character one such as zh-cn, the post's language is a real one and
// differs from the target, and the text is longer than one character (providers/twitter/processor.ts).
import type { SimPost } from './corpus-types.ts';

export const TRANSLATED_HANDLES = { kenji: 'kenji_jp', marie: 'marie_fr', owen: 'owen_en' } as const;

export const TRANSLATED_IDS = {
  /** kenji_jp's two-post self-thread in Japanese. */
  jaRoot: '1900000000000001001',
  jaSecond: '1900000000000001002',
  /** marie_fr answering in French. */
  frReply: '1900000000000001003',
  /** owen_en answering in English. */
  enReply: '1900000000000001004',
  /** owen_en naming two cashtags and a hashtag: what the hashtag and cashtag pages find. */
  cashtags: '1900000000000001005',
} as const;

export interface TranslatedPostSeed {
  id: string;
  author: string;
  lang: string;
  text: string;
  replyTo?: string;
  /** Known translations by target language; any other target gets a marked machine rendering. */
  into: Record<string, string>;
}

export const TRANSLATED_POSTS: TranslatedPostSeed[] = [
  {
    id: TRANSLATED_IDS.jaRoot,
    author: TRANSLATED_HANDLES.kenji,
    lang: 'ja',
    text: '今日はキャッシュの話をします。まずTTLにはジッターを入れましょう。',
    into: {
      en: "Today I'll talk about caching. First, add jitter to your TTLs.",
      pt: 'Hoje vou falar sobre cache. Primeiro, coloque jitter nos seus TTLs.',
    },
  },
  {
    id: TRANSLATED_IDS.jaSecond,
    author: TRANSLATED_HANDLES.kenji,
    lang: 'ja',
    text: '次に、同時のミスはまとめて一回だけ取りに行きます。',
    replyTo: TRANSLATED_IDS.jaRoot,
    into: {
      en: 'Next, coalesce concurrent misses and fetch only once.',
      pt: 'Depois, junte as falhas simultâneas e busque só uma vez.',
    },
  },
  {
    id: TRANSLATED_IDS.frReply,
    author: TRANSLATED_HANDLES.marie,
    lang: 'fr',
    text: 'Merci, très utile pour notre équipe !',
    replyTo: TRANSLATED_IDS.jaSecond,
    into: { en: 'Thanks, very useful for our team!', pt: 'Obrigado, muito útil para a nossa equipe!' },
  },
  {
    id: TRANSLATED_IDS.enReply,
    author: TRANSLATED_HANDLES.owen,
    lang: 'en',
    text: 'Jitter saved our cache during the last sale.',
    replyTo: TRANSLATED_IDS.jaSecond,
    into: {},
  },
  {
    id: TRANSLATED_IDS.cashtags,
    author: TRANSLATED_HANDLES.owen,
    lang: 'en',
    text: 'Watching $TSLA and $NVDA during the #flashsale.',
    into: {},
  },
];

const SEEDS = new Map(TRANSLATED_POSTS.map((s) => [s.id, s]));

/** X's pseudo-languages: nothing to translate. */
const UNTRANSLATABLE = new Set(['unk', 'und', 'zxx', 'qam', 'qct', 'qht', 'qme', 'qst']);

/** FxEmbed's normalizeLanguage: a few common misspellings of a target. */
function normalize(lang: string): string {
  const l = lang.toLowerCase();
  return ({ zh: 'zh-cn', cn: 'zh-cn', tw: 'zh-tw', jp: 'ja', kr: 'ko', ua: 'uk' } as Record<string, string>)[l] ?? l;
}

/** What the simulated FxTwitter translators give for a post and a `lang`, or undefined when they give nothing. */
export function simTranslation(p: SimPost, lang: string): { text: string; provider: string } | undefined {
  if (lang.length !== 2 && lang.length !== 5) return undefined;
  if (UNTRANSLATABLE.has(p.lang) || p.text.length <= 1) return undefined;
  const target = normalize(lang);
  if (target.split('-')[0] === normalize(p.lang).split('-')[0]) return undefined;
  const known = SEEDS.get(p.id)?.into[target.split('-')[0]!];
  if (known) return { text: known, provider: 'grok' };
  return { text: `[${target}] ${p.text}`, provider: 'google' };
}

/**
 * The languages of X's web app (its language settings), as `x-twitter-client-language` names them: the languages
 * X's Grok translates posts into.
 */
export const X_CLIENT_LANGUAGES: ReadonlySet<string> = new Set(
  (
    'ar bg bn ca cs da de el en en-gb es eu fa fi fil fr ga gl gu he hi hr hu id it ja kn ko mr msa nb nl pl pt ro ' +
    'ru sk sr sv ta th tr uk ur vi zh-cn zh-tw'
  ).split(' '),
);

export interface SimGrokTranslation {
  text: string;
  source: string;
  destination: string;
}

/**
 * What X's Grok gives a post for a client language, or undefined when it gives nothing (same language, a
 * pseudo-language, one character). The simulator assumes X serves a client language it lacks in English, as its
 * web app does for an unsupported locale, so the destination may differ from what was asked.
 */
export function simGrokTranslation(p: SimPost, clientLanguage: string): SimGrokTranslation | undefined {
  const asked = clientLanguage.toLowerCase();
  const client = X_CLIENT_LANGUAGES.has(asked) ? asked : 'en';
  const destination = client.split('-')[0]!;
  if (UNTRANSLATABLE.has(p.lang) || p.text.length <= 1) return undefined;
  if (destination === normalize(p.lang).split('-')[0]) return undefined;
  const known = SEEDS.get(p.id)?.into[destination];
  return { text: known ?? `[${client}] ${p.text}`, source: p.lang, destination };
}
