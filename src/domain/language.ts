// BCP 47 language tags as the translation read takes them: validated and canonicalised with the runtime's own
// Unicode data (Intl), compared by language, and named in English for readers.

/** RFC 5646 asks implementations to handle tags of at least 35 characters; nothing longer names a real language. */
export const MAX_LANG_LENGTH = 35;

/** Shape of a tag without private-use or grandfathered forms: a 2-3 letter language, then subtags. */
const TAG_RE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/** Codes that name no language to translate into (undetermined, no content, several, uncoded). */
const NOT_A_LANGUAGE = new Set(['und', 'zxx', 'mul', 'mis']);

/**
 * X's pseudo-languages for posts that are only mentions, hashtags, cashtags, media links or very short text:
 * nothing in them to translate.
 */
const UNTRANSLATABLE_SOURCE = new Set([...NOT_A_LANGUAGE, 'unk', 'qam', 'qct', 'qht', 'qme', 'qst']);

/**
 * Made on first use: the runtime maps its language-name data in then, several MB that an instance reading no
 * translation would hold for nothing.
 */
let names: Intl.DisplayNames | undefined;

function nameOf(code: string): string | undefined {
  try {
    names ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    return names.of(code);
  } catch {
    return undefined;
  }
}

/**
 * The canonical form of a target language tag (`ZH-tw` → `zh-TW`, `iw` → `he`), or undefined when it is not a
 * well-formed tag of a language the runtime knows.
 */
export function canonicalLang(raw: string): string | undefined {
  if (raw.length > MAX_LANG_LENGTH || !TAG_RE.test(raw)) return undefined;
  let tag: string;
  try {
    tag = Intl.getCanonicalLocales(raw)[0]!;
  } catch {
    return undefined;
  }
  const language = primary(tag);
  if (NOT_A_LANGUAGE.has(language) || nameOf(language) === undefined) return undefined;
  return tag;
}

/** The language subtag of a tag, canonicalised where the runtime can (`iw` → `he`, `in` → `id`). */
export function primary(tag: string): string {
  try {
    return new Intl.Locale(tag).language;
  } catch {
    return tag.split('-')[0]!.toLowerCase();
  }
}

/** True when a post in `postLang` needs no translation into `target`: same language, or no language at all. */
export function needsNoTranslation(postLang: string | undefined, target: string): boolean {
  if (postLang === undefined || postLang === '') return false;
  const lower = postLang.toLowerCase();
  if (UNTRANSLATABLE_SOURCE.has(lower)) return true;
  return primary(lower) === primary(target);
}

/** Regions whose Chinese is written in Traditional characters when the tag names no script. */
const TRADITIONAL_REGIONS = new Set(['TW', 'HK', 'MO']);

/**
 * What a canonical tag asks the upstreams to translate into, as a tag: the language alone, except where the
 * upstreams translate differently within it (Chinese by script, `zh-Hant`/`zh-Hans`; Portuguese by region,
 * `pt-BR`/`pt-PT`). `de-AT`, `de-CH`, `de-1996` and `de-Latn` are all `de`, so they share one cache entry and one
 * upstream read. A pure function of the tag, for every read that takes a target language.
 */
export function translationTarget(tag: string): string {
  let l: Intl.Locale;
  try {
    l = new Intl.Locale(tag);
  } catch {
    return tag;
  }
  if (l.language === 'zh') {
    const script = l.script ?? (l.region && TRADITIONAL_REGIONS.has(l.region) ? 'Hant' : 'Hans');
    return script === 'Hant' ? 'zh-Hant' : 'zh-Hans';
  }
  if (l.language === 'pt' && l.region) return l.region === 'BR' ? 'pt-BR' : 'pt-PT';
  return l.language;
}

/**
 * The code upstreams take for a target: language, and region when there is one, lower case (`pt-br`, `ja`):
 * FxTwitter and X take ISO 639-1 codes with an optional region, not scripts, so Chinese goes by the region that
 * writes its script (`zh-Hant` as `zh-tw`, `zh-Hans` as `zh-cn`).
 */
export function upstreamLang(tag: string): string {
  try {
    const l = new Intl.Locale(tag);
    if (l.language === 'zh' && l.script) return l.script === 'Hant' ? 'zh-tw' : 'zh-cn';
    return (l.region ? `${l.language}-${l.region}` : l.language).toLowerCase();
  } catch {
    return tag.toLowerCase();
  }
}

/** English name of a language code, e.g. `ja` → Japanese; the code itself when the runtime does not know it. */
export function languageName(code: string): string {
  return nameOf(code) ?? nameOf(primary(code)) ?? code;
}
