// Smoke check: the real provider adapters against the platform simulator's wire shapes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import { isUnavailable } from '../../src/domain/models.ts';
import { ProviderChain } from '../../src/providers/chain.ts';
import { serve } from '../helpers/chain.ts';
import { FxTwitterProvider } from '../../src/providers/fxtwitter/provider.ts';
import { buildProviders } from '../../src/providers/registry.ts';
import { SyndicationProvider } from '../../src/providers/syndication/provider.ts';
import { ProviderError } from '../../src/providers/types.ts';
import { isNotFound } from '../../src/domain/failures.ts';
import { FREE_READ } from '../helpers/payer.ts';

let sim: Simulator;
let fx: FxTwitterProvider;
let syn: SyndicationProvider;

before(async () => {
  sim = await startSimulator();
  fx = new FxTwitterProvider({ baseUrl: sim.fxtwitterUrl, timeoutMs: 3000 });
  syn = new SyndicationProvider({ baseUrl: sim.syndicationUrl, timeoutMs: 3000 });
});
after(() => sim.close());

const kind = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ProviderError ? e.kind : String(e)),
  );

test('fxtwitter and syndication read the same post alike', async () => {
  const a = await fx.getPost(IDS.threadPhoto, {});
  const b = await syn.getPost(IDS.threadPhoto, {});
  assert.equal(a.id, IDS.threadPhoto);
  assert.equal(a.author.handle, HANDLES.alice);
  assert.equal(b.author.handle, HANDLES.alice);
  assert.equal(a.text, b.text);
  assert.ok(!a.text.includes('https://t.co/'), a.text);
  assert.equal(a.media.length, b.media.length);
  assert.ok(a.media.length >= 1 && a.media[0]!.kind === 'photo');
  assert.ok(a.quote && !isUnavailable(a.quote), 'quote of carol');
  assert.ok(b.quote && !isUnavailable(b.quote), 'quote of carol (syndication)');
});

test('polls, videos, gifs, note tweets and articles map from both upstreams', async () => {
  const poll = await fx.getPost(IDS.threadPoll, {});
  assert.ok(poll.poll && poll.poll.choices.length >= 2 && poll.poll.final);
  const sPoll = await syn.getPost(IDS.threadPoll, {});
  assert.deepEqual(
    sPoll.poll?.choices.map((c) => c.votes),
    poll.poll.choices.map((c) => c.votes),
  );

  const video = await fx.getPost(IDS.threadVideo, {});
  assert.equal(video.media[0]?.kind, 'video');
  assert.match(video.media[0].url, /\.mp4/);
  assert.equal((await syn.getPost(IDS.threadVideo, {})).media[0]?.kind, 'video');
  assert.equal((await fx.getPost(IDS.gif, {})).media[0]?.kind, 'gif');

  const note = await fx.getPost(IDS.noteTweet, {});
  const sNote = await syn.getPost(IDS.noteTweet, {});
  assert.equal(note.truncated, undefined);
  assert.equal(sNote.truncated, true);
  assert.ok(note.text.length > sNote.text.length, 'FxTwitter gives the full note tweet');

  const article = await fx.getPost(IDS.article, {});
  assert.ok(article.article?.title);
  assert.ok((article.article?.blocks.length ?? 0) > 0);
});

test('conversation: ancestors, continuation and nested replies from /2/conversation', async () => {
  const b = await fx.getConversation(IDS.threadRoot, { ranking: 'top', withReplies: true });
  assert.equal(b.post.id, IDS.threadRoot);
  assert.deepEqual(b.ancestors, []);
  assert.ok(b.continuations.length >= 1, 'continuation found among replies');
  assert.equal(b.continuations[0]!.id, IDS.thread[1]);
  const top = b.replies.map((n) => n.post.id);
  assert.ok(top.includes(IDS.replies.bobTop));
  const bob = b.replies.find((n) => n.post.id === IDS.replies.bobTop)!;
  assert.ok(bob.children.some((c) => c.post.id === IDS.replies.aliceToBob));
  assert.ok(!top.includes(IDS.thread[1]!), 'the continuation is not also a reply');

  const t = await fx.getConversation(IDS.thread[5]!, { ranking: 'top', withReplies: false });
  assert.deepEqual(
    t.ancestors.map((p) => p.id),
    IDS.thread.slice(0, 5),
  );
  assert.deepEqual(
    t.continuations.map((p) => p.id),
    IDS.thread.slice(6),
  );

  const mixed = await fx.getConversation(IDS.bobReplyToCarol, { ranking: 'recent', withReplies: false });
  assert.deepEqual(
    mixed.ancestors.map((p) => p.author.handle),
    [HANDLES.dave, HANDLES.carol],
  );
  assert.deepEqual(mixed.continuations, []);
});

test('syndication conversation gives the parent only', async () => {
  const b = await syn.getConversation(IDS.carolReplyToDave, { ranking: 'top', withReplies: true });
  assert.deepEqual(
    b.ancestors.map((p) => p.id),
    [IDS.daveRoot],
  );
  assert.equal(b.threadAvailable, false);
});

test('deleted, protected, suspended and unknown posts: syndication is definitive, FxTwitter only for a tombstone or 401', async () => {
  // FxTwitter answers a deleted or unknown post with a bare 404, which it also gives when its upstream fails.
  const fxKinds = {
    [IDS.deleted]: 'unconfirmed',
    [IDS.protected]: 'not_found',
    [IDS.suspended]: 'not_found',
    [IDS.unknown]: 'unconfirmed',
  };
  for (const [id, want] of Object.entries(fxKinds)) {
    assert.equal(await kind(fx.getPost(id, {})), want, `fx ${id}`);
    assert.equal(await kind(syn.getPost(id, {})), 'not_found', `syn ${id}`);
  }
  const q = (await fx.getPost(IDS.quoteOfDeleted, {})).quote;
  assert.ok(isUnavailable(q));
});

test('escaped text is unescaped once and nothing at its end is cut', async () => {
  const a = await fx.getPost(IDS.hostile, {});
  const b = await syn.getPost(IDS.hostile, {});
  assert.ok(a.text.includes('<script>alert(1)</script>'));
  assert.ok(a.text.includes('&amp; &lt;tag&gt;'), 'literal entities typed by the author survive');
  assert.ok(a.text.endsWith('1. not a list'), a.text.slice(-40));
  assert.equal(b.text, a.text);
});

test('profiles, timelines, connections and search with cursors', async () => {
  const alice = await fx.getProfile(HANDLES.alice, {});
  assert.equal(alice.handle, HANDLES.alice);
  assert.ok((alice.followers ?? 0) > 0);
  assert.equal(await kind(fx.getProfile(HANDLES.missing, {})), 'unconfirmed');
  assert.equal(await kind(fx.getProfile(HANDLES.suspended, {})), 'not_found');

  const tl = await fx.getTimeline(HANDLES.alice, { count: 5 });
  assert.equal(tl.items.length, 5);
  assert.ok(tl.nextCursor);
  const tl2 = await fx.getTimeline(HANDLES.alice, { count: 5, cursor: tl.nextCursor });
  assert.ok(tl2.items.every((p) => !tl.items.some((q) => q.id === p.id && q.author.id === p.author.id)));

  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await fx.getFollowers(HANDLES.big, { count: 100, cursor });
    for (const a of page.items) seen.add(a.id);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  assert.ok(seen.size >= 400, `walked ${seen.size} followers`);

  const s = await fx.search(SEARCH_TERMS.caching, 'latest', { count: 5 });
  assert.ok(s.items.length > 0 && s.items.every((i) => i.kind === 'post'));
  const none = await kind(fx.search(SEARCH_TERMS.none, 'latest', { count: 5 }));
  assert.ok(none === 'ok' || none === 'empty');
});

test('the chain built from the registry falls back to syndication when FxTwitter fails', async () => {
  const chain = new ProviderChain(
    buildProviders({
      order: ['fxtwitter', 'syndication'],
      fxtwitterUrl: sim.fxtwitterUrl,
      syndicationUrl: sim.syndicationUrl,
      timeoutMs: 3000,
    }),
    { circuit: false },
  );
  sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500, times: 1 });
  const r = await serve(chain.run('post', (p) => p.getPost!(IDS.threadRoot, {}), FREE_READ));
  assert.equal(r.source, 'syndication');
  assert.equal(r.value.id, IDS.threadRoot);
  await assert.rejects(serve(chain.run('post', (p) => p.getPost!(IDS.deleted, {}), FREE_READ)), isNotFound);
});
