// FxTwitter's translation of a post: `/2/status/{id}?lang=<code>` answers the status with a `translation` object
// when the post is in another language and one of FxEmbed's translators answered; otherwise without one.
import type { UpstreamTranslation } from '../types.ts';
import type { FxTranslation } from './wire.ts';

/** FxEmbed's names of its translators, as readers know them; anything else is passed on as it came. */
const SERVICE_NAMES: Readonly<Record<string, string>> = {
  grok: 'Grok',
  google: 'Google Translate',
  deepl: 'DeepL',
  deeplx: 'DeepL',
  bing: 'Bing Translator',
  azure: 'Azure AI Translator',
  aws: 'Amazon Translate',
  libretranslate: 'LibreTranslate',
  polyglot: 'Polyglot',
  llm: 'a language model',
};

const CODE_RE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/** The translation FxTwitter passed on, or undefined when it gave none (or none worth showing). */
export function parseTranslation(t: FxTranslation | null | undefined): UpstreamTranslation | undefined {
  const text = typeof t?.text === 'string' ? t.text.trim() : '';
  if (!t || text === '') return undefined;
  const from = typeof t.source_lang === 'string' && CODE_RE.test(t.source_lang) ? t.source_lang.toLowerCase() : 'und';
  const raw = typeof t.provider === 'string' ? t.provider.trim().slice(0, 40) : '';
  const service = SERVICE_NAMES[raw.toLowerCase()] ?? (/^[\w .-]+$/.test(raw) ? raw : 'an unnamed translator');
  return { text, from, service };
}
