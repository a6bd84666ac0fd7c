// `lang` on the post reads: each post's translation beside its original text, in every representation, from
// FxTwitter's `translation` object (FxEmbed's APITranslate), cached per post and language.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../helpers/stack.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { TRANSLATED_HANDLES as TH, TRANSLATED_IDS as TI } from '../../sim/corpus-translations.ts';
import { postJsonSchema } from '../../src/contract/json-schemas.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

interface JsonPost {
  id: string;
  text: string;
  lang?: string;
  translation?: { text: string; from: string; to: string; service: string; provider: string };
}
interface PostBody {
  post: JsonPost;
  thread: JsonPost[];
  conversation: { replies: { post: JsonPost }[] };
  warnings: string[];
  markdown: string;
}

const translateCalls = () => s.sim.calls({ target: 'fxtwitter', path: 'lang=' });

describe('translations', () => {
  test('a single post gets its translation beside the original, with source language and service named', async () => {
    const res = await s.get(`/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=en`);
    assert.equal(res.status, 200);
    const md = await res.text();
    assert.match(md, /今日はキャッシュの話をします/, 'the original stays');
    assert.match(
      md,
      /\*\*Translated from Japanese \(ja → en\) by Grok via fxtwitter:\*\* Today I'll talk about caching\. First, add jitter to your TTLs\./,
    );
    assert.ok(md.indexOf('今日は') < md.indexOf('Translated from'), 'the translation follows the original');
  });

  test('JSON carries `translation` on each post of a thread and its replies; the English reply is left alone', async () => {
    const res = await s.get(`/${TH.kenji}/status/${TI.jaSecond}?lang=en&format=json`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as PostBody;
    assert.ok(postJsonSchema.safeParse(body).success, 'the body matches the declared schema');
    assert.equal(body.post.text, '次に、同時のミスはまとめて一回だけ取りに行きます。');
    assert.deepEqual(body.post.translation, {
      text: 'Next, coalesce concurrent misses and fetch only once.',
      from: 'ja',
      to: 'en',
      service: 'Grok',
      provider: 'fxtwitter',
    });
    assert.equal(body.thread[0]!.translation?.text, "Today I'll talk about caching. First, add jitter to your TTLs.");
    const replies = new Map(body.conversation.replies.map((r) => [r.post.id, r.post]));
    assert.equal(replies.get(TI.frReply)?.translation?.text, 'Thanks, very useful for our team!');
    assert.equal(replies.get(TI.frReply)?.translation?.from, 'fr');
    assert.equal(replies.get(TI.enReply)?.translation, undefined, 'a post already in English is left as it is');
    assert.deepEqual(body.warnings, []);
    assert.match(body.markdown, /Translated from French \(fr → en\) by Grok via fxtwitter:\* Thanks, very useful/);
  });

  test('HTML and Obsidian show the translation too; a tag is canonicalised (pt-br → pt-BR)', async () => {
    const html = await (
      await s.get(`/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=en`, { headers: { accept: 'text/html' } })
    ).text();
    assert.match(html, /<strong>Translated from Japanese \(ja → en\) by Grok via fxtwitter:<\/strong> Today I/);
    const obs = await (await s.get(`/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=en&format=obsidian`)).text();
    assert.match(obs, /Translated from Japanese \(ja → en\) by Grok via fxtwitter:\*\* Today I/);
    const pt = (await (
      await s.get(`/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=pt-br&format=json`)
    ).json()) as PostBody;
    assert.equal(pt.post.translation?.to, 'pt-BR');
    assert.equal(pt.post.translation?.text, 'Hoje vou falar sobre cache. Primeiro, coloque jitter nos seus TTLs.');
    assert.ok(s.sim.calls({ target: 'fxtwitter', path: 'lang=pt-br' }) > 0, 'the upstream was asked for pt-br');
  });

  test('translations are cached per post and language: a second read asks the upstream nothing', async () => {
    const path = `/api/v1/posts?handle=${TH.kenji}&id=${TI.jaSecond}&lang=de&format=json`;
    const first = await s.get(path);
    assert.equal(first.status, 200);
    const before = translateCalls();
    assert.ok(before > 0);
    const again = (await (await s.get(`${path}&full=true`)).json()) as PostBody;
    assert.equal(translateCalls(), before, 'no new translation call');
    assert.match(again.post.translation!.text, /^\[de\] 次に/);
  });

  test('a post in the target language is left as it is, with no translation call', async () => {
    const before = translateCalls();
    const body = (await (
      await s.get(`/${HANDLES.alice}/status/${IDS.threadRoot}?thread=off&lang=en-GB&format=json`)
    ).json()) as PostBody;
    assert.equal(body.post.translation, undefined);
    assert.deepEqual(body.warnings, []);
    assert.equal(translateCalls(), before);
  });

  test('a translation the upstream cannot give is a warning, not an error', async () => {
    // FxEmbed only translates into 2-letter or 5-character codes: Hawaiian (haw) gets no translation object.
    const res = await s.get(`/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=haw&format=json`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as PostBody;
    assert.equal(body.post.text, '今日はキャッシュの話をします。まずTTLにはジッターを入れましょう。');
    assert.equal(body.post.translation, undefined);
    assert.equal(body.warnings.length, 1);
    assert.match(body.warnings[0]!, /^translation into Hawaiian \(haw\) unavailable for 1 of 1 post: /);
    assert.match(res.headers.get('x-warnings') ?? '', /translation into Hawaiian/);
  });

  test('the MCP tool and the legacy alias take lang too', async () => {
    const res = await s.get(
      `/api/convert?url=${encodeURIComponent(`https://x.com/${TH.kenji}/status/${TI.jaRoot}`)}&thread=off&lang=en`,
    );
    assert.equal(res.status, 200);
    assert.match(await res.text(), /by Grok via fxtwitter/);
  });
});

describe('invalid_lang', () => {
  for (const bad of [
    '../../etc',
    'x'.repeat(140),
    'qq',
    'und',
    'en_US',
    'e',
    '12',
    'en--us',
    'i-klingon',
    'x-private',
    '',
  ]) {
    test(`lang=${bad.length > 20 ? `${bad.slice(0, 8)}… (${bad.length} chars)` : JSON.stringify(bad)} is 400 invalid_lang with no upstream call`, async () => {
      s.sim.resetCalls();
      const res = await s.get(`/${TH.kenji}/status/${TI.jaRoot}?lang=${encodeURIComponent(bad)}`, {
        headers: { accept: 'application/json' },
      });
      assert.equal(res.status, 400);
      const body = (await res.json()) as { code: string; title: string };
      assert.equal(body.code, 'invalid_lang');
      assert.equal(body.title, 'Invalid language tag');
      assert.equal(s.sim.calls(), 0);
    });
  }
});
