// FxTwitter's `translation` object (FxEmbed's APITranslate) read into a translation, and the provider's call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FxTwitterProvider } from '../../../src/providers/fxtwitter/provider.ts';
import { parseTranslation } from '../../../src/providers/fxtwitter/translation.ts';
import { parseStatus } from '../../../src/providers/fxtwitter/parse.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import { fixture } from './fixtures.ts';
import { json, startServer, type LocalServer } from './local-server.ts';

const FIXTURE = 'fxtwitter/v2-status-translation-1900000000000001001.json';
const seen: string[] = [];
let body: unknown = fixture(FIXTURE);
let srv: LocalServer;
let fx: FxTwitterProvider;

before(async () => {
  srv = await startServer((req, res) => {
    seen.push(req.url ?? '');
    json(res, 200, body);
  });
  fx = new FxTwitterProvider({ baseUrl: srv.url, timeoutMs: 2000 });
});
after(() => srv.close());

test('translatePost asks /2/status/{id}?lang= and reads the translation beside the status', async () => {
  body = fixture(FIXTURE);
  const got = await fx.translatePost('1900000000000001001', 'zh-tw', {});
  assert.equal(seen.at(-1), '/2/status/1900000000000001001?lang=zh-tw');
  assert.deepEqual(got, {
    text: "Today I'll talk about caching. First, add jitter to your TTLs.",
    from: 'ja',
    service: 'Grok',
  });
});

test('a status without a translation is an empty answer (the chain falls through, the read warns)', async () => {
  const { translation: _none, ...status } = fixture<{ status: Record<string, unknown> }>(FIXTURE).status;
  body = { code: 200, status, thread: null, author: status.author };
  await assert.rejects(fx.translatePost('1900000000000001001', 'ja', {}), (e: unknown) => {
    assert.ok(e instanceof ProviderError);
    assert.equal(e.kind, 'empty');
    return true;
  });
});

test('the status itself still parses with the translation member present', () => {
  const post = parseStatus(fixture(FIXTURE).status);
  assert.equal(post.lang, 'ja');
  assert.equal(post.text, '今日はキャッシュの話をします。まずTTLにはジッターを入れましょう。');
});

test('translator names: known ones spelled out, unknown ones passed on when plain, odd ones not', () => {
  const t = (provider: unknown, source_lang: unknown = 'fr') =>
    parseTranslation({ text: ' Bonjour ', source_lang, provider } as never);
  assert.deepEqual(t('google'), { text: 'Bonjour', from: 'fr', service: 'Google Translate' });
  assert.equal(t('deepl')?.service, 'DeepL');
  assert.equal(t('llm')?.service, 'a language model');
  assert.equal(t('Papago')?.service, 'Papago');
  assert.equal(t('<script>')?.service, 'an unnamed translator');
  assert.equal(t(null)?.service, 'an unnamed translator');
  assert.equal(t('grok', '../x')?.from, 'und', 'a source language that is no code is not passed on');
  assert.equal(parseTranslation({ text: '  ', provider: 'grok' }), undefined, 'an empty translation is none');
  assert.equal(parseTranslation(null), undefined);
});
