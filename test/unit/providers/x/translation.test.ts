// X's inline Grok translations on a conversation answer (test/fixtures/x/tweet_detail_grok_translation.json: a real
// TweetDetail capture with the translation fields added in the shape public clients read; see the README there).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGrokTranslation, translationIn, xClientLanguage } from '../../../../src/providers/x/translation.ts';
import { parseConversation } from '../../../../src/providers/x/parse.ts';
import { TranslationMemo } from '../../../../src/providers/x/translation-memo.ts';
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

describe('x translations: one answer serves the posts of a read', () => {
  it('posts asked while an answer is in flight wait for it: one request for the thread', async () => {
    const memo = new TranslationMemo();
    let asks = 0;
    const ask = async () => {
      asks++;
      await new Promise((r) => setTimeout(r, 10));
      return env();
    };
    const [focal, link, none] = await Promise.allSettled([
      memo.translation(FOCAL, 'ja', ask),
      memo.translation(WITH_LINK, 'ja', ask),
      memo.translation(UNTRANSLATED, 'ja', ask),
    ]);
    assert.equal(asks, 1);
    assert.equal(focal.status === 'fulfilled' && focal.value.from, 'en');
    assert.equal(link.status === 'fulfilled' && link.value.text.startsWith('商用'), true);
    assert.ok(none.status === 'rejected' && failsWith('empty')(none.reason), 'no translation in the answer: empty');
    await memo.translation(WITH_LINK, 'ja', ask);
    assert.equal(asks, 1, 'asked again soon after: remembered');
  });

  it('another language, a post not in the answer, or a remembered answer gone stale is asked for', async () => {
    let t = 0;
    const memo = new TranslationMemo(() => t);
    let asks = 0;
    const ask = () => {
      asks++;
      return Promise.resolve(env());
    };
    await memo.translation(FOCAL, 'ja', ask);
    await assert.rejects(memo.translation(FOCAL, 'de', ask), failsWith('empty'));
    await assert.rejects(memo.translation('1', 'ja', ask), failsWith('not_found'));
    assert.equal(asks, 3);
    t += 60_000;
    await memo.translation(FOCAL, 'ja', ask);
    assert.equal(asks, 4);
  });

  it('a failed answer leaves the waiting posts to ask for themselves', async () => {
    const memo = new TranslationMemo();
    let asks = 0;
    const ask = async () => {
      asks++;
      await new Promise((r) => setTimeout(r, 5));
      if (asks === 1) throw new ProviderError('x', 'network', 'reset');
      return env();
    };
    const [first, second] = await Promise.allSettled([
      memo.translation(FOCAL, 'ja', ask),
      memo.translation(WITH_LINK, 'ja', ask),
    ]);
    assert.ok(first.status === 'rejected' && failsWith('network')(first.reason));
    assert.equal(second.status, 'fulfilled');
    assert.equal(asks, 2);
  });
});
