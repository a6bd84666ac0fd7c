// `translate`, the parameter of every read that lists posts: a BCP 47 tag of the language to translate each post
// into. On the post reads `lang` is its deprecated alias (elsewhere `lang` is the post filter, see feed-filters.ts).
import { z } from 'zod';
import { canonicalLang, MAX_LANG_LENGTH, translationTarget } from '../../domain/language.ts';
import { code } from './common.ts';

const languageTag = () =>
  z
    .string(code('invalid_lang'))
    .max(MAX_LANG_LENGTH, code('invalid_lang'))
    .refine((v) => canonicalLang(v) !== undefined, code('invalid_lang'))
    .transform((v) => translationTarget(canonicalLang(v)!))
    .optional();

export const translateParam = languageTag().describe(
  "BCP 47 language tag (e.g. en, ja, pt-BR): adds each post's translation into it beside the original text, " +
    'naming the source language and the translating service (reposted and quoted posts too). A tag is read as the ' +
    'language upstreams translate into: its primary language (de-AT is de), with the script of Chinese (zh-Hant, ' +
    'zh-Hans) and the region of Portuguese (pt-BR, pt-PT). Posts already in that language are left as they are; a ' +
    'translation no upstream can give is a warning, not an error. Not a filter: ' +
    '`lang` keeps only posts written in a language.',
);

/** The post reads' former name of `translate`, kept working until the next major version. */
export const LANG_ALIAS = { name: 'lang', successor: 'translate' } as const;

export const langAliasParam = languageTag().describe(
  'Deprecated alias of `translate` on the post reads (answers carry Deprecation, Sunset and Link headers; see ' +
    '/docs/versioning). Use `translate`: on every other read `lang` filters posts by language.',
);

/** The `translate` parameter as a list route's query shape takes it. */
export const translateShape = { translate: translateParam };
