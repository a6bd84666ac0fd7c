// The `lang` parameter of the post reads: a BCP 47 tag of the language to translate each post into.
import { z } from 'zod';
import { canonicalLang, MAX_LANG_LENGTH } from '../../domain/language.ts';
import { code } from './common.ts';

export const langParam = z
  .string(code('invalid_lang'))
  .max(MAX_LANG_LENGTH, code('invalid_lang'))
  .refine((v) => canonicalLang(v) !== undefined, code('invalid_lang'))
  .transform((v) => canonicalLang(v)!)
  .optional()
  .describe(
    "BCP 47 language tag (e.g. en, ja, pt-BR): adds each post's translation into it beside the original text, " +
      'naming the source language and the translating service. Posts already in that language are left as they are; ' +
      'a translation no upstream can give is a warning, not an error.',
  );
