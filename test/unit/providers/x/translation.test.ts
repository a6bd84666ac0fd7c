// X's inline Grok translations on a conversation answer (test/fixtures/x/tweet_detail_grok_translation.json: a real
// TweetDetail capture with the translation fields added in the shape public clients read; see the README there).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGrokTranslation, translationIn, xClientLanguage } from '../../../../src/providers/x/translation.ts';
import { parseConversation } from '../../../../src/providers/x/parse.ts';
import { ProviderError } from '../../../../src/providers/types.ts';
import type { XEnvelope, XTweet } from '../../../../src/providers/x/wire.ts';
import { fixture } from '../fixtures.ts';

const env = () => fixture<XEnvelope>('x/tweet_detail_grok_translation.json');
const FOCAL = '1649191520250245121';
const UNTRANSLATED = '1649191521323995138';
const WITH_LINK = '1649191522485817345';

const failsWith = (kind: string) => (e: unknown) => e instanceof ProviderError && e.kind === kind;

describe('x parse: Grok translations', () => {
  it("reads the focal post's translation, its source language and the service", () => {
    assert.deepEqual(translationIn(env(), FOCAL, 'ja'), {
      text: '本日、Premium SearchとAccount Activity APIを含むPremium v1.1 APIを廃止します。',
      from: 'en',
      service: 'Grok',
    });
  });

  it('finds a post of a reply module and expands the short links of the translated text', () => {
    const got = translationIn(env(), WITH_LINK, 'ja');
    assert.match(got.text, /^商用のユースケース/);
    assert.match(got.text, /申し込みはこちら: https:\/\/shorturl\.at\/uwAKZ$/);
    assert.doesNotMatch(got.text, /t\.co/);
  });

  it('a post X gives no translation of fails `empty`', () => {
    assert.throws(() => translationIn(env(), UNTRANSLATED, 'ja'), failsWith('empty'));
  });

  it('a translation into another language than the one asked is not taken', () => {
    // X answers a client language it lacks in its default one: the destination tells.
    assert.throws(() => translationIn(env(), FOCAL, 'haw'), failsWith('empty'));
    assert.equal(translationIn(env(), FOCAL, 'ja-jp').text.startsWith('本日'), true, 'a region of the same language');
  });

  it('a post missing from the answer is not_found, with X’s own error when it gave one', () => {
    assert.throws(() => translationIn(env(), '1', 'ja'), failsWith('not_found'));
    const gone: XEnvelope = {
      data: {},
      errors: [{ code: 144, message: '_Missing: No status found with that ID.' }],
    };
    assert.throws(() => translationIn(gone, FOCAL, 'ja'), /No status found/);
  });

  it('the post itself is read as before: its text is the original, not the translation', () => {
    const { bundle } = parseConversation(env(), FOCAL);
    assert.match(bundle.post.text, /^Today, we are deprecating/);
    assert.equal(bundle.post.translation, undefined);
  });

  it('odd fields are not trusted: a bad source code is the post’s language, a blank text is none', () => {
    const tweet = (data: object): XTweet => ({
      legacy: { lang: 'fr' },
      grok_translated_post_with_availability: { is_available: true, data },
    });
    assert.equal(
      parseGrokTranslation(tweet({ translation: 'Hi', source_language: '<b>', destination_language: 'en' }), 'en')
        ?.from,
      'fr',
    );
    assert.equal(parseGrokTranslation(tweet({ translation: '  ', destination_language: 'en' }), 'en'), undefined);
    assert.equal(
      parseGrokTranslation({ grok_translated_post_with_availability: { is_available: false } }, 'en'),
      undefined,
    );
  });

  it('asks X for Simplified Chinese by the name its web app uses', () => {
    assert.equal(xClientLanguage('zh'), 'zh-cn');
    assert.equal(xClientLanguage('zh-tw'), 'zh-tw');
    assert.equal(xClientLanguage('ja'), 'ja');
  });
});
