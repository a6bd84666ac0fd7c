// X's own translation of a post. X attaches Grok translations to the posts of its timeline answers (TweetDetail,
// TweetResultByRestId, timelines) as `grok_translated_post_with_availability {is_available, data{translation,
// source_language, destination_language, entities}}` beside `is_translatable`, in the language the request names
// in `x-twitter-client-language` (public clients read it there; see test/fixtures/x/README.md). The translation
// rides on a read X already serves, so it needs no other endpoint: X's direct `POST /2/grok/translation.json`
// streams its answer from another host and is not used.
import { primary } from '../../domain/language.ts';
import { ProviderError, type UpstreamTranslation } from '../types.ts';
import type { Post } from '../../domain/models.ts';
import { collectEntries, itemContents, missing } from './parse.ts';
import { unwrapTweet } from './post.ts';
import type { XEntitySet, XEnvelope, XTimelineTweet, XTweet } from './wire.ts';

const PROVIDER = 'x';
/** X's translations are Grok's: the field says so and X's web app labels them "Translated by Grok". */
const SERVICE = 'Grok';
const CODE_RE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * The `x-twitter-client-language` that asks X for `lang` (an upstream code such as `ja` or `zh-tw`): X's web app
 * names Simplified Chinese `zh-cn`, so a bare `zh` is sent as that; every other code goes as it is.
 */
export function xClientLanguage(lang: string): string {
  const l = lang.toLowerCase();
  return l === 'zh' ? 'zh-cn' : l;
}

/**
 * The Grok translation X attached to `tweet` for `lang`, or undefined when it gave none: not available, empty, or
 * into another language than the one asked (X answers a client language it lacks in its default one).
 */
export function parseGrokTranslation(tweet: XTweet, lang: string): UpstreamTranslation | undefined {
  const g = tweet.grok_translated_post_with_availability;
  if (!g?.is_available || !g.data) return undefined;
  const { translation, source_language: source, destination_language: destination } = g.data;
  if (typeof translation !== 'string') return undefined;
  if (typeof destination === 'string' && primary(destination.toLowerCase()) !== primary(lang.toLowerCase()))
    return undefined;
  const text = expandLinks(translation, g.data.entities).trim();
  if (text === '') return undefined;
  const from =
    typeof source === 'string' && CODE_RE.test(source)
      ? source.toLowerCase()
      : tweet.legacy?.lang && CODE_RE.test(tweet.legacy.lang)
        ? tweet.legacy.lang.toLowerCase()
        : 'und';
  return { text, from, service: SERVICE };
}

/**
 * The translation of post `id` in an X answer asked with the client language for `lang`. Throws not_found when X
 * says the post is gone, `empty` when the post is there without a translation into `lang`.
 */
export function translationIn(env: XEnvelope, id: string, lang: string): UpstreamTranslation {
  const tweet = findTweet(env, id);
  if (!tweet) {
    throw missing(env, `post ${id}`, new ProviderError(PROVIDER, 'not_found', `post ${id} is not in X's answer`));
  }
  const got = parseGrokTranslation(tweet, lang);
  if (!got) throw new ProviderError(PROVIDER, 'empty', `X gave no translation of ${id} into ${lang}`);
  return got;
}

/**
 * What a conversation answer says of each readable post in it (ancestors, focal post, replies, and the posts they
 * quote): its translation into `lang`, or null when X gave none. The other posts of a thread need no request then.
 */
export function translationsIn(env: XEnvelope, lang: string): Map<string, UpstreamTranslation | null> {
  const out = new Map<string, UpstreamTranslation | null>();
  for (const [id, tweet] of tweetsOf(env)) out.set(id, parseGrokTranslation(tweet, lang) ?? null);
  return out;
}

/**
 * X's translations into `lang` of every post of an answer that carries one (timeline posts, the posts they repost
 * and quote), by post id: a page asked with the client language for `lang` translates itself.
 */
export function inlineTranslations(env: XEnvelope, lang: string): Map<string, UpstreamTranslation> {
  const out = new Map<string, UpstreamTranslation>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const tweet = node as XTweet;
    const id = tweet.rest_id ?? tweet.legacy?.id_str;
    if (tweet.grok_translated_post_with_availability && typeof id === 'string' && !out.has(id)) {
      const got = parseGrokTranslation(tweet, lang);
      if (got) out.set(id, got);
    }
    for (const v of Object.values(node)) walk(v);
  };
  walk(env.data);
  return out;
}

/**
 * Puts X's translations into `lang` found in `env` beside the text of a post of its page (and of the posts it reposts
 * and quotes); the identity for an answer that carries none.
 */
export function inlineTranslator(env: XEnvelope, lang: string): (p: Post) => Post {
  const found = inlineTranslations(env, lang);
  const put = (p: Post): Post => {
    const t = found.get(p.id);
    const quote = p.quote && !('unavailable' in p.quote) ? put(p.quote) : p.quote;
    const repostOf = p.repostOf ? put(p.repostOf) : undefined;
    return {
      ...p,
      ...(t ? { translation: { ...t, to: lang, provider: PROVIDER } } : {}),
      ...(quote ? { quote } : {}),
      ...(repostOf ? { repostOf } : {}),
    };
  };
  return found.size === 0 ? (p) => p : put;
}

/** The readable post `id` among the entries of a conversation answer (focal entry or a reply module). */
function findTweet(env: XEnvelope, id: string): XTweet | undefined {
  return tweetsOf(env).get(id);
}

/** Every readable post of a conversation answer by id, with the posts they quote. */
function tweetsOf(env: XEnvelope): Map<string, XTweet> {
  const out = new Map<string, XTweet>();
  const add = (tweet: XTweet | undefined) => {
    const id = tweet?.rest_id ?? tweet?.legacy?.id_str;
    if (!tweet || !id || out.has(id)) return;
    out.set(id, tweet);
    add(unwrapTweet(tweet.quoted_status_result?.result));
  };
  const { entries } = collectEntries(env.data?.threaded_conversation_with_injections_v2);
  for (const e of entries) {
    for (const ic of itemContents(e)) add(unwrapTweet((ic as XTimelineTweet).tweet_results?.result));
  }
  return out;
}

/** The translated text with X's short links replaced by their targets and media links dropped, like the post's. */
function expandLinks(text: string, entities: XEntitySet | undefined): string {
  let out = text;
  for (const u of entities?.urls ?? []) {
    if (typeof u.url === 'string' && u.url !== '') out = out.split(u.url).join(u.expanded_url ?? u.url);
  }
  for (const m of entities?.media ?? []) {
    if (typeof m.url === 'string' && m.url !== '') out = out.split(m.url).join('');
  }
  return out;
}
