// The translation step of a post read, over a fake source: which posts are asked for, what is left alone, and what
// a failure turns into.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalLang, needsNoTranslation, upstreamLang, languageName } from '../../../src/domain/language.ts';
import { MAX_TRANSLATED, translateRead, type TranslationSource } from '../../../src/domain/translate-read.ts';
import type { Post } from '../../../src/domain/models.ts';
import type { PostRead } from '../../../src/domain/reads.ts';
import { FREE_PAYER } from '../../helpers/payer.ts';

const post = (id: string, lang: string | undefined, extra: Partial<Post> = {}): Post => ({
  id,
  url: `https://x.com/a/status/${id}`,
  author: { id: '1', handle: 'a', name: 'A' },
  createdAt: '2026-03-02T09:00:00.000Z',
  text: `text ${id}`,
  segments: [],
  media: [],
  metrics: {},
  ...(lang ? { lang } : {}),
  ...extra,
});

function readOf(posts: Post[], replies: Post[] = []): PostRead {
  return {
    requested: posts[0]!,
    parents: [],
    thread: posts,
    replies: replies.map((p) => ({ post: p, children: [] })),
    repliesMode: 'top',
    source: 'fxtwitter',
    warnings: [],
  };
}

function fakeSource(fail: Set<string> = new Set()): TranslationSource & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    async translation(p, lang) {
      asked.push(p.id);
      if (fail.has(p.id)) throw new Error(`fxtwitter gave no translation of ${p.id} into ${upstreamLang(lang)}`);
      return {
        value: { text: `${lang}:${p.text}`, from: p.lang ?? 'und', to: lang, service: 'Grok', provider: 'fxtwitter' },
        source: 'fxtwitter',
        cache: 'miss',
        warnings: [],
      };
    },
  };
}

const policy = { mode: 'shared' as const, payer: FREE_PAYER };

test('language tags: canonical forms, bounds, and what is no language', () => {
  assert.equal(canonicalLang('ZH-tw'), 'zh-TW');
  assert.equal(canonicalLang('iw'), 'he');
  assert.equal(canonicalLang('zh-Hant-TW'), 'zh-Hant-TW');
  for (const bad of ['../../etc', 'x'.repeat(140), 'qq', 'und', 'zxx', 'en_US', 'i-klingon', 'x-foo', '', 'e', 'en-']) {
    assert.equal(canonicalLang(bad), undefined, bad);
  }
  assert.equal(upstreamLang('zh-Hant-TW'), 'zh-tw');
  assert.equal(upstreamLang('pt-BR'), 'pt-br');
  assert.equal(languageName('ja'), 'Japanese');
  assert.ok(needsNoTranslation('en', 'en-GB'));
  assert.ok(needsNoTranslation('iw', 'he'), "X's old code for Hebrew is Hebrew");
  assert.ok(needsNoTranslation('qme', 'en'), 'media links only: nothing to translate');
  assert.ok(!needsNoTranslation('ja', 'en'));
  assert.ok(!needsNoTranslation(undefined, 'en'), 'an unknown language is asked about');
});

test('every post not in the target language is translated, quotes too; the rest is left as it was', async () => {
  const quoted = post('9', 'de');
  const read = readOf([post('1', 'ja', { quote: quoted }), post('2', 'en')], [post('3', 'fr'), post('4', 'qht')]);
  const src = fakeSource();
  const { read: out, settled } = await translateRead(read, 'en', src, policy);
  assert.ok(settled);
  assert.deepEqual(src.asked.sort(), ['1', '3', '9']);
  assert.equal(out.requested.translation?.text, 'en:text 1');
  assert.equal((out.requested.quote as Post).translation?.text, 'en:text 9');
  assert.equal(out.thread[1]!.translation, undefined);
  assert.equal(out.replies[0]!.post.translation?.from, 'fr');
  assert.equal(out.replies[1]!.post.translation, undefined);
  assert.equal(read.requested.translation, undefined, 'the shared read is not changed');
  assert.deepEqual(out.warnings, []);
});

test('a translation that cannot be had is a warning, and the read is not settled', async () => {
  const read = readOf([post('1', 'ja'), post('2', 'ja')]);
  const { read: out, settled } = await translateRead(read, 'en', fakeSource(new Set(['2'])), policy);
  assert.equal(settled, false);
  assert.equal(out.thread[0]!.translation?.text, 'en:text 1');
  assert.equal(out.thread[1]!.translation, undefined);
  assert.deepEqual(out.warnings, [
    'translation into English (en) unavailable for 1 of 2 posts: fxtwitter gave no translation of 2 into en',
  ]);
});

test('at most MAX_TRANSLATED posts are asked for; the rest is named in a warning', async () => {
  const many = Array.from({ length: MAX_TRANSLATED + 3 }, (_, i) => post(String(i + 1), 'ja'));
  const src = fakeSource();
  const { read: out } = await translateRead(readOf(many), 'en', src, policy);
  assert.equal(src.asked.length, MAX_TRANSLATED);
  assert.deepEqual(out.warnings, [`3 posts not translated into English (en): at most ${MAX_TRANSLATED} per read`]);
});
