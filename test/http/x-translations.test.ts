// `lang` served by X's own translation: a deployment whose chain reaches the X provider gets Grok's translation
// from the post's conversation answer asked in the target language, named as coming via x; with FxTwitter first
// in the chain, X translates only what FxTwitter cannot. Through the real server against the simulator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { TRANSLATED_HANDLES as TH, TRANSLATED_IDS as TI } from '../../sim/corpus-translations.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { postJsonSchema } from '../../src/contract/json-schemas.ts';

interface JsonPost {
  id: string;
  text: string;
  translation?: { text: string; from: string; to: string; service: string; provider: string };
}
interface PostBody {
  post: JsonPost;
  thread: JsonPost[];
  conversation: { replies: { post: JsonPost }[] };
  warnings: string[];
  markdown: string;
}

const dir = mkdtempSync(join(tmpdir(), 'threadmark-x-translations-'));
let sim: Simulator;
let xOnly: Stack;
let both: Stack;

before(async () => {
  sim = await startSimulator({ host: '127.0.0.1', port: 0 });
  xOnly = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: writeSessions(dir, 'xt') }, { sim });
  both = await startStack(
    { THREADMARK_PROVIDERS: 'fxtwitter,x', THREADMARK_X_SESSIONS: writeSessions(dir, 'fx') },
    { sim },
  );
});
after(async () => {
  await xOnly.close();
  await both.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const xCalls = () => sim.calls({ target: 'x', path: 'TweetDetail' });
const fxTranslateCalls = () => sim.calls({ target: 'fxtwitter', path: 'lang=' });

async function jsonRead(stack: Stack, path: string): Promise<PostBody> {
  const res = await stack.get(`${path}${path.includes('?') ? '&' : '?'}format=json`);
  assert.equal(res.status, 200);
  const body = (await res.json()) as PostBody;
  assert.ok(postJsonSchema.safeParse(body).success, 'the body matches the declared schema');
  return body;
}

describe('X translations (chain: x)', () => {
  test('Markdown names Grok via x and the source language, under the original text', async () => {
    const res = await xOnly.get(`/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=en`);
    assert.equal(res.status, 200);
    const md = await res.text();
    assert.match(md, /今日はキャッシュの話をします/, 'the original stays');
    assert.match(
      md,
      /\*\*Translated from Japanese \(ja → en\) by Grok via x:\*\* Today I'll talk about caching\. First, add jitter to your TTLs\./,
    );
    assert.ok(md.indexOf('今日は') < md.indexOf('Translated from'), 'the translation follows the original');
  });

  test('JSON carries X’s translation on the thread and its replies; the English reply is left alone', async () => {
    const body = await jsonRead(xOnly, `/${TH.kenji}/status/${TI.jaSecond}?lang=en`);
    assert.deepEqual(body.post.translation, {
      text: 'Next, coalesce concurrent misses and fetch only once.',
      from: 'ja',
      to: 'en',
      service: 'Grok',
      provider: 'x',
    });
    assert.equal(body.thread[0]!.translation?.provider, 'x');
    const replies = new Map(body.conversation.replies.map((r) => [r.post.id, r.post]));
    assert.deepEqual(replies.get(TI.frReply)?.translation, {
      text: 'Thanks, very useful for our team!',
      from: 'fr',
      to: 'en',
      service: 'Grok',
      provider: 'x',
    });
    assert.equal(replies.get(TI.enReply)?.translation, undefined, 'a post already in English is left as it is');
    assert.deepEqual(body.warnings, []);
    assert.match(body.markdown, /Translated from French \(fr → en\) by Grok via x:\* Thanks, very useful/);
  });

  test('X is asked in the target language: a language with no seeded text gets Grok’s rendering of it', async () => {
    const body = await jsonRead(xOnly, `/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=zh-Hans`);
    assert.equal(body.post.translation?.to, 'zh-Hans');
    assert.equal(body.post.translation?.provider, 'x');
    assert.match(body.post.translation.text, /^\[zh-cn\] 今日は/, 'Simplified Chinese asked as X names it');
  });

  test('translations are cached per post and language: another read of them asks X nothing', async () => {
    const path = `/api/v1/posts?handle=${TH.kenji}&id=${TI.jaSecond}&lang=de`;
    const first = await jsonRead(xOnly, path);
    assert.equal(first.post.translation?.provider, 'x');
    const before = xCalls();
    const again = await jsonRead(xOnly, `${path}&full=true`);
    assert.equal(xCalls(), before, 'no new TweetDetail call');
    assert.deepEqual(again.post.translation, first.post.translation);
  });

  test('one answer translates the thread: a read of four posts to translate costs one X request', async () => {
    await jsonRead(xOnly, `/${TH.kenji}/status/${TI.jaSecond}`);
    const before = xCalls();
    const body = await jsonRead(xOnly, `/${TH.kenji}/status/${TI.jaSecond}?lang=it`);
    assert.equal(xCalls(), before + 1, 'the conversation read was cached; one TweetDetail asked in Italian');
    const replies = new Map(body.conversation.replies.map((r) => [r.post.id, r.post]));
    assert.match(body.post.translation!.text, /^\[it\] 次に/);
    assert.match(body.thread[0]!.translation!.text, /^\[it\] 今日は/);
    assert.match(replies.get(TI.frReply)!.translation!.text, /^\[it\] Merci/);
    assert.equal(replies.get(TI.enReply)!.translation!.text, `[it] ${replies.get(TI.enReply)!.text}`);
  });

  test('a translation X cannot give is a warning, not an error', async () => {
    // X's web app has no Hawaiian: its answer is in English, which is not what was asked.
    const res = await xOnly.get(`/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=haw&format=json`);
    assert.equal(res.status, 200);
    const body = (await res.json()) as PostBody;
    assert.equal(body.post.translation, undefined);
    assert.equal(body.warnings.length, 1);
    assert.match(body.warnings[0]!, /^translation into Hawaiian \(haw\) unavailable for 1 of 1 post: /);
    assert.match(res.headers.get('x-warnings') ?? '', /translation into Hawaiian/);
  });
});

describe('X translations (chain: fxtwitter, x)', () => {
  test('FxTwitter translates first: X is not asked', async () => {
    const before = sim.calls({ target: 'x' });
    const body = await jsonRead(both, `/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=en`);
    assert.equal(body.post.translation?.provider, 'fxtwitter');
    assert.equal(sim.calls({ target: 'x' }), before, 'no X call at all');
  });

  test('what FxTwitter cannot translate, X does: FxEmbed takes no three-letter code, X has Filipino', async () => {
    const fx = fxTranslateCalls();
    const x = xCalls();
    const body = await jsonRead(both, `/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=fil`);
    assert.equal(fxTranslateCalls(), fx + 1, 'FxTwitter was asked first');
    assert.equal(xCalls(), x + 1, 'then X');
    assert.deepEqual(body.post.translation, {
      text: '[fil] 今日はキャッシュの話をします。まずTTLにはジッターを入れましょう。',
      from: 'ja',
      to: 'fil',
      service: 'Grok',
      provider: 'x',
    });
    assert.deepEqual(body.warnings, []);
    const md = await (await both.get(`/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=fil`)).text();
    assert.match(
      md,
      /\*\*Translated from Japanese \(ja → fil\) by Grok via x:\*\* \\\[fil\\\] 今日は/,
      'escaped as text',
    );
  });

  test('FxTwitter failing: X translates in its place', async () => {
    sim.addFault({ target: 'fxtwitter', match: 'lang=fr', kind: 'status', status: 503 });
    try {
      const body = await jsonRead(both, `/${TH.kenji}/status/${TI.jaRoot}?thread=off&lang=fr`);
      assert.equal(body.post.translation?.provider, 'x');
      assert.equal(body.post.translation?.from, 'ja');
      assert.match(body.post.translation.text, /^\[fr\] 今日は/);
      assert.deepEqual(body.warnings, []);
    } finally {
      sim.clearFaults();
    }
  });

  test('neither can: a warning naming the language', async () => {
    const body = await jsonRead(both, `/${TH.kenji}/status/${TI.jaSecond}?thread=off&lang=haw`);
    assert.equal(body.post.translation, undefined);
    assert.match(body.warnings.join('\n'), /translation into Hawaiian \(haw\) unavailable/);
  });
});
