// The X provider against the platform simulator's GraphQL routes: session rotation, parking on
// exhausted windows, 429/code 88, locked accounts, unavailability with Retry-After, and paging.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { BIG_FOLLOWERS, HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import { xAccounts } from '../../sim/routes/x-accounts.ts';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { WEB_BEARER } from '../../src/providers/x/client.ts';
import { XProvider } from '../../src/providers/x/provider.ts';
import { OperationTable } from '../../src/providers/x/operation-table.ts';
import { XWebApp } from '../../src/providers/x/web-app.ts';
import { parseSessionLines, SessionPool } from '../../src/providers/x/sessions.ts';
import { ProviderError } from '../../src/providers/types.ts';

let sim: Simulator;
let seq = 0;

before(async () => {
  sim = await startSimulator();
});
after(() => sim.close());
beforeEach(() => {
  xAccounts.reset();
  sim.resetCalls();
  sim.clearFaults();
});

/** Fresh accounts per test so rate-limit windows never leak between tests. */
function provider(n = 2): { x: XProvider; pool: SessionPool; tokens: string[] } {
  const tokens = Array.from({ length: n }, (_, i) => `tok${++seq}_${i}`);
  const lines = tokens
    .map((t, i) => JSON.stringify({ username: `acct${i}`, auth_token: t, ct0: `csrf_${t}` }))
    .join('\n');
  const pool = new SessionPool(parseSessionLines(lines).sessions);
  const operations = new OperationTable();
  const web = new XWebApp({ webUrl: sim.xWebUrl, discover: false, table: operations, timeoutMs: 3000 });
  return { x: new XProvider({ apiUrl: sim.xApiUrl, pool, operations, web, timeoutMs: 3000 }), pool, tokens };
}

const graphqlCalls = (op: string) => sim.calls({ target: 'x', path: `/${op}?` });

async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof ProviderError, String(err));
    return err;
  }
  assert.fail('expected a ProviderError');
}

describe('x provider on the simulator: sessions', () => {
  it('rotates across sessions and parks each one when its window is used up', async () => {
    xAccounts.setLimits({ limit: 2, windowS: 600 });
    const { x, pool } = provider(2);
    for (const h of [HANDLES.alice, HANDLES.bob, HANDLES.carol, HANDLES.dave]) {
      assert.equal((await x.getProfile(h, {})).handle, h);
    }
    // Two sessions x two requests: only rotation lets four reads through.
    assert.equal(graphqlCalls('UserByScreenName'), 4);
    assert.deepEqual(
      pool.status('UserByScreenName').map((s) => s.state),
      ['rate_limited', 'rate_limited'],
    );
    assert.ok(!x.capabilities().has('profile'));
    assert.ok(x.capabilities().has('conversation'), 'other operations keep their own windows');

    const err = await rejection(x.getProfile(HANDLES.big, {}));
    assert.equal(err.kind, 'unavailable');
    assert.ok(err.opts.retryAfterS! > 500 && err.opts.retryAfterS! <= 600, String(err.opts.retryAfterS));
    assert.equal(graphqlCalls('UserByScreenName'), 4, 'no request is sent while every session is parked');
    assert.equal(x.retryAfterS('profile'), err.opts.retryAfterS);
  });

  it('parks a session answered 429 + code 88 and retries the read with the next session', async () => {
    xAccounts.setLimits({ limit: 1, windowS: 900 });
    const { x, pool, tokens } = provider(2);
    // Another client already used acct0's window: our pool does not know yet.
    const other = new SessionPool(
      parseSessionLines(JSON.stringify({ username: 'acct0', auth_token: tokens[0], ct0: `csrf_${tokens[0]}` }))
        .sessions,
    );
    await new XProvider({ apiUrl: sim.xApiUrl, pool: other, timeoutMs: 3000 }).getProfile(HANDLES.alice, {});
    sim.resetCalls();

    const bundle = await x.getProfile(HANDLES.bob, {});
    assert.equal(bundle.handle, HANDLES.bob);
    assert.equal(graphqlCalls('UserByScreenName'), 2);
    const [a, b] = pool.status('UserByScreenName');
    assert.equal(a!.state, 'rate_limited');
    assert.ok(a!.availableInS > 800);
    assert.equal(b!.state, 'rate_limited', 'acct1 used its single request and saw remaining 0');
  });

  it('takes a locked account (code 326) out of rotation and serves from the other', async () => {
    const { x, pool, tokens } = provider(2);
    xAccounts.lock(tokens[0]!);
    const conv = await x.getConversation(IDS.daveRoot, { ranking: 'top', withReplies: true });
    assert.equal(conv.post.id, IDS.daveRoot);
    assert.equal(graphqlCalls('TweetDetail'), 2);
    assert.deepEqual(pool.status()[0], {
      label: 'acct0',
      state: 'locked',
      availableInS: 86400,
      deadReason: 'account locked (code 326)',
    });
    await x.getProfile(HANDLES.alice, {});
    await x.getProfile(HANDLES.bob, {});
    assert.equal(graphqlCalls('UserByScreenName'), 2, 'the locked account is not tried again');
  });

  it('reports unavailable with retryAfterS and no capabilities once every session is parked', async () => {
    const { x, tokens } = provider(2);
    tokens.forEach((t) => xAccounts.lock(t));
    const err = await rejection(x.search(SEARCH_TERMS.caching, 'latest', { count: 10 }));
    assert.equal(err.kind, 'unavailable');
    assert.equal(err.opts.retryAfterS, 86400);
    assert.equal(x.capabilities().size, 0);
  });

  it('has no capabilities and no retry time without sessions', async () => {
    const { x } = provider(0);
    assert.equal(x.capabilities().size, 0);
    const err = await rejection(x.getProfile(HANDLES.alice, {}));
    assert.equal(err.kind, 'unavailable');
    assert.equal(err.opts.retryAfterS, undefined);
    assert.match(err.message, /THREADMARK_X_SESSIONS/);
    assert.equal(graphqlCalls('UserByScreenName'), 0);
  });

  it('the simulator refuses requests without the session cookies or with a mismatched csrf token', async () => {
    const url = `${sim.xApiUrl}/graphql/Gb-d6r0vxPOADdG62OEBpQ/UserByScreenName?variables=${encodeURIComponent('{"screen_name":"bob"}')}&features=%7B%7D`;
    const bare = await fetch(url, { headers: { authorization: `Bearer ${WEB_BEARER}` } });
    assert.equal(bare.status, 403);
    assert.equal(((await bare.json()) as { errors: { code: number }[] }).errors[0]!.code, 32);
    const csrf = await fetch(url, {
      headers: { authorization: `Bearer ${WEB_BEARER}`, cookie: 'auth_token=t; ct0=a', 'x-csrf-token': 'b' },
    });
    assert.equal(csrf.status, 403);
    assert.equal(((await csrf.json()) as { errors: { code: number }[] }).errors[0]!.code, 353);
    const good = await fetch(url, {
      headers: { authorization: `Bearer ${WEB_BEARER}`, cookie: 'auth_token=t; ct0=a', 'x-csrf-token': 'a' },
    });
    assert.equal(good.status, 200);
    assert.ok(Number(good.headers.get('x-rate-limit-remaining')) >= 0);
    assert.ok(Number(good.headers.get('x-rate-limit-reset')) > Date.now() / 1000);
  });
});

describe('x provider on the simulator: reads', () => {
  it('pages followers to the end with X cursors', async () => {
    const { x } = provider(2);
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await x.getFollowers(HANDLES.big, { count: 50, cursor });
      page.items.forEach((a) => seen.add(a.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 50);
    assert.equal(seen.size, BIG_FOLLOWERS);
    assert.equal(pages, Math.ceil(BIG_FOLLOWERS / 50));
    assert.equal(graphqlCalls('UserByScreenName'), 1, 'the handle → id mapping is cached');
  });

  it('reads a conversation: author continuation, nested replies, more replies by cursor', async () => {
    const { x } = provider(2);
    const first = await x.getConversationPage(IDS.threadRoot, { ranking: 'top' });
    const { bundle } = first;
    assert.deepEqual(
      bundle.continuations.map((p) => p.id),
      IDS.thread.slice(1),
    );
    assert.ok(bundle.replies.length > 0);
    assert.ok(bundle.replies.every((r) => r.post.replyTo?.id === IDS.threadRoot));
    assert.ok(
      bundle.replies.some((r) => r.children.length > 0),
      'sub-replies nest under their parent',
    );
    for (const r of bundle.replies) for (const c of r.children) assert.equal(c.post.replyTo?.id, r.post.id);
    assert.ok(first.nextCursor);
    const more = await x.getMoreReplies(IDS.threadRoot, { ranking: 'top', cursor: first.nextCursor });
    assert.ok(more.items.length > 0);
    const firstIds = new Set(bundle.replies.map((r) => r.post.id));
    assert.ok(more.items.every((r) => !firstIds.has(r.post.id)));

    const deep = await x.getConversation(IDS.bobReplyToCarol, { ranking: 'recent', withReplies: true });
    assert.deepEqual(
      deep.ancestors.map((p) => p.id),
      [IDS.daveRoot, IDS.carolReplyToDave],
    );
  });

  it('maps deleted, protected and suspended posts to not_found', async () => {
    const { x } = provider(1);
    for (const id of [IDS.deleted, IDS.protected, IDS.suspended, IDS.unknown]) {
      const err = await rejection(x.getConversation(id, { ranking: 'top', withReplies: true }));
      assert.equal(err.kind, 'not_found', id);
    }
  });

  it('searches every feed, photos and videos through the Media product', async () => {
    const { x } = provider(2);
    const latest = await x.search(SEARCH_TERMS.caching, 'latest', { count: 5 });
    assert.equal(latest.items.length, 5);
    assert.ok(latest.nextCursor);
    const next = await x.search(SEARCH_TERMS.caching, 'latest', { count: 5, cursor: latest.nextCursor });
    const ids = (p: typeof latest) => p.items.map((i) => (i.kind === 'post' ? i.post.id : i.user.id));
    assert.ok(ids(next).every((id) => !ids(latest).includes(id)));
    const photos = await x.search(SEARCH_TERMS.caching, 'photos', { count: 5 });
    assert.ok(
      photos.items.length > 0 &&
        photos.items.every((i) => i.kind === 'post' && i.post.media.some((m) => m.kind === 'photo')),
    );
    const videos = await x.search(SEARCH_TERMS.caching, 'videos', { count: 5 });
    assert.ok(videos.items.every((i) => i.kind === 'post' && i.post.media.some((m) => m.kind !== 'photo')));
    const users = await x.search('reader', 'users', { count: 5 });
    assert.ok(users.items.length === 5 && users.items.every((i) => i.kind === 'user'));
    assert.ok(sim.calls({ target: 'x', path: 'product%22%3A%22Media' }) >= 2);
  });

  it('reports upstream faults as error or network failures without parking sessions', async () => {
    const { x, pool } = provider(2);
    sim.addFault({ target: 'x', kind: 'status', status: 503, times: 1 });
    const e1 = await rejection(x.getProfile(HANDLES.alice, {}));
    assert.deepEqual([e1.kind, e1.opts.status], ['error', 503]);
    sim.addFault({ target: 'x', kind: 'malformed', times: 1 });
    assert.equal((await rejection(x.getProfile(HANDLES.alice, {}))).kind, 'error');
    sim.addFault({ target: 'x', kind: 'reset', times: 1 });
    assert.equal((await rejection(x.getProfile(HANDLES.alice, {}))).kind, 'network');
    assert.deepEqual(
      pool.status().map((s) => s.state),
      ['ok', 'ok'],
    );
    assert.equal((await x.getProfile(HANDLES.alice, {})).handle, HANDLES.alice);
  });

  it('reads a profile timeline with reposts and maps hidden accounts to not_found', async () => {
    const { x } = provider(2);
    const page = await x.getTimeline(HANDLES.alice, { count: 10 });
    assert.equal(page.items.length, 10);
    assert.ok(
      page.items.some((p) => p.repostOf),
      'reposts are kept for the domain to filter',
    );
    assert.ok(page.nextCursor);
    for (const h of [HANDLES.protected, HANDLES.suspended, HANDLES.missing]) {
      assert.equal((await rejection(x.getTimeline(h, { count: 5 }))).kind, 'not_found', h);
    }
  });
});
