// The account-backed X provider through the real server: conversations from TweetDetail, profiles,
// follow lists and every search feed served by x, session rotation, parking of exhausted and locked
// sessions, and 503 search_unavailable with the seconds until the earliest session frees up.
import { after, afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack, problemOf } from '../helpers/stack.ts';
import { HANDLES, IDS, SEARCH_TERMS } from '../../sim/corpus.ts';
import { xAccounts } from '../../sim/routes/x-accounts.ts';
import type { XProvider } from '../../src/providers/x/provider.ts';

const dir = mkdtempSync(join(tmpdir(), 'threadmark-x-sessions-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let seq = 0;
/** A sessions file of `n` fresh accounts (the simulator accepts any auth_token until it is locked). */
function sessionsFile(n: number): { path: string; tokens: string[] } {
  const tokens = Array.from({ length: n }, (_, i) => `xs${++seq}_${i}_token`);
  const path = join(dir, `sessions-${seq}.jsonl`);
  writeFileSync(
    path,
    tokens.map((t, i) => JSON.stringify({ username: `acct${i}`, auth_token: t, ct0: `ct0_${t}` })).join('\n') + '\n',
  );
  return { path, tokens };
}

let ipSeq = 0;
/** Each request from its own address: search and account feeds are charged per address. */
const fresh = (): RequestInit => ({
  headers: { 'x-forwarded-for': `10.30.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}` },
});

async function xStack(order: string, sessions?: string, env: Record<string, string> = {}): Promise<Stack> {
  return startStack({
    THREADMARK_PROVIDERS: order,
    ...(sessions ? { THREADMARK_X_SESSIONS: sessions } : {}),
    THREADMARK_CACHE_TTL_S: '0',
    THREADMARK_TRUST_PROXY: 'true',
    THREADMARK_UPSTREAM_BACKOFF_MS: '1',
    ...env,
  });
}

const poolOf = (s: Stack) => (s.app.chain.providers.find((p) => p.name === 'x') as XProvider).pool;
const detailCalls = (s: Stack) => s.sim.calls({ target: 'x', path: '/TweetDetail?' });

interface PostJson {
  post: { id: string };
  conversation?: {
    parents?: Array<{ id: string }>;
    replies?: Array<{ post: { id: string }; children: Array<{ post: { id: string } }> }>;
  };
}

async function read(
  s: Stack,
  path: string,
): Promise<{
  res: Response;
  body: PostJson & { items?: Array<{ kind?: string; handle?: string }>; nextCursor?: string };
}> {
  const res = await s.get(path + (path.includes('?') ? '&' : '?') + 'format=json', fresh());
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text.slice(0, 300)}`);
  return { res, body: JSON.parse(text) };
}

let stacks: Stack[] = [];
beforeEach(() => xAccounts.reset());
afterEach(async () => {
  await Promise.all(stacks.map((s) => s.close()));
  stacks = [];
});
const track = (s: Stack) => (stacks.push(s), s);

describe('conversations come from TweetDetail', () => {
  test('x after a faulted fxtwitter: parents and nested replies from TweetDetail, X-Source: x', async () => {
    const { path } = sessionsFile(2);
    const s = track(await xStack('fxtwitter,x,syndication', path, { THREADMARK_UPSTREAM_RETRIES: '0' }));
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500, match: '/2/conversation/' });

    const deep = await read(s, `/${HANDLES.bob}/status/${IDS.carolReplyToDave}`);
    assert.equal(deep.res.headers.get('x-source'), 'x');
    assert.deepEqual(
      deep.body.conversation?.parents?.map((p) => p.id),
      [IDS.daveRoot],
    );
    assert.ok(deep.body.conversation?.replies?.some((r) => r.post.id === IDS.bobReplyToCarol));

    const root = await read(s, `/${HANDLES.alice}/status/${IDS.threadRoot}?thread=conversation`);
    assert.equal(root.res.headers.get('x-source'), 'x');
    const bob = root.body.conversation?.replies?.find((r) => r.post.id === IDS.replies.bobTop);
    assert.ok(bob, 'top-level reply from TweetDetail');
    assert.ok(
      bob.children.some((c) => c.post.id === IDS.replies.aliceToBob),
      'sub-replies nest under their parent',
    );
    // The root's replies span several TweetDetail pages; the service follows the cursor to gather them all.
    assert.equal(root.body.conversation?.replies?.length, 10);
    assert.equal(detailCalls(s), 1 + 3);
    assert.equal(s.sim.calls({ target: 'syndication' }), 0);
  });

  test('x first: conversations, profiles, follow lists and every search feed are served by x', async () => {
    const { path } = sessionsFile(2);
    const s = track(await xStack('x,fxtwitter,syndication', path));
    const conv = await read(s, `/${HANDLES.dave}/status/${IDS.daveRoot}`);
    assert.equal(conv.res.headers.get('x-source'), 'x');
    assert.ok(conv.body.conversation?.replies?.some((r) => r.post.id === IDS.carolReplyToDave));
    assert.equal((await read(s, `/${HANDLES.alice}`)).res.headers.get('x-source'), 'x');
    const followers = await read(s, `/${HANDLES.big}/followers`);
    assert.equal(followers.res.headers.get('x-source'), 'x');
    assert.equal(followers.body.items?.length, 20);
    for (const feed of ['latest', 'top', 'photos', 'videos', 'users']) {
      const q = feed === 'users' ? 'reader' : feed === 'videos' ? 'stampede' : SEARCH_TERMS.caching;
      const got = await read(s, `/api/v1/search?q=${q}&feed=${feed}`);
      assert.equal(got.res.headers.get('x-source'), 'x', feed);
      assert.ok((got.body.items?.length ?? 0) > 0, feed);
      if (feed === 'users')
        assert.ok(
          got.body.items!.every((i) => i.kind === 'user' || i.handle),
          'accounts',
        );
    }
    assert.equal(s.sim.calls({ target: 'fxtwitter' }), 0);
    assert.ok(s.sim.calls({ target: 'x', path: '/SearchTimeline?' }) >= 5);
  });

  test('latest search degrades to fxtwitter when x fails: no cursor, said in X-Warnings', async () => {
    const { path } = sessionsFile(1);
    const s = track(await xStack('x,fxtwitter', path, { THREADMARK_UPSTREAM_RETRIES: '0' }));
    s.sim.addFault({ target: 'x', kind: 'status', status: 500, match: '/SearchTimeline?' });
    const got = await read(s, `/api/v1/search?q=${SEARCH_TERMS.caching}&limit=3`);
    assert.equal(got.res.headers.get('x-source'), 'fxtwitter');
    assert.equal(got.body.nextCursor, undefined);
    assert.match(got.res.headers.get('x-warnings') ?? '', /degraded search/);
  });
});

describe('sessions: rotation and parking', () => {
  test('reads rotate across sessions; an exhausted session is parked by its rate-limit headers', async () => {
    xAccounts.setLimits({ limit: 2, windowS: 600 });
    const { path } = sessionsFile(2);
    const s = track(await xStack('x,fxtwitter,syndication', path));
    const pool = poolOf(s);
    const ids = [IDS.daveRoot, IDS.carolReplyToDave, IDS.bobReplyToCarol, IDS.threadRoot, IDS.threadPhoto];

    for (const id of ids.slice(0, 2))
      assert.equal((await read(s, `/${HANDLES.dave}/status/${id}`)).res.headers.get('x-source'), 'x');
    assert.deepEqual(
      pool.status('TweetDetail').map((p) => p.state),
      ['ok', 'ok'],
      'one read each: round robin, not first-until-empty',
    );

    await read(s, `/${HANDLES.dave}/status/${ids[2]}`);
    assert.deepEqual(
      pool.status('TweetDetail').map((p) => p.state),
      ['rate_limited', 'ok'],
      'remaining 0 parks acct0',
    );
    await read(s, `/${HANDLES.dave}/status/${ids[3]}`);
    const parked = pool.status('TweetDetail');
    assert.deepEqual(
      parked.map((p) => p.state),
      ['rate_limited', 'rate_limited'],
    );
    assert.ok(
      parked.every((p) => p.availableInS > 590 && p.availableInS <= 600),
      JSON.stringify(parked),
    );
    assert.equal(detailCalls(s), 4, 'no request was spent on a 429');

    // Every session parked for TweetDetail: x is skipped without a request, fxtwitter answers.
    const fallback = await read(s, `/${HANDLES.alice}/status/${ids[4]}`);
    assert.equal(fallback.res.headers.get('x-source'), 'fxtwitter');
    assert.equal(detailCalls(s), 4);
    assert.equal(pool.status('UserByScreenName')[0]!.state, 'ok', 'other operations keep their own windows');
    const doc = (await (await s.get('/api')).json()) as {
      health: { providers: Array<{ name: string; capabilities: string[] }> };
    };
    const x = doc.health.providers.find((p) => p.name === 'x')!;
    assert.ok(
      !x.capabilities.includes('conversation') && x.capabilities.includes('profile'),
      'GET /api shows what x can serve now',
    );
    assert.equal((await read(s, `/${HANDLES.carol}`)).res.headers.get('x-source'), 'x');
  });

  test('a 429 with code 88 parks that session until its reset and the read moves to the next session', async () => {
    const { path } = sessionsFile(2);
    const s = track(await xStack('x,fxtwitter', path));
    s.sim.addFault({ target: 'x', kind: 'ratelimit', retryAfterS: 120, match: '/TweetDetail?', times: 1 });
    const got = await read(s, `/${HANDLES.dave}/status/${IDS.daveRoot}`);
    assert.equal(got.res.headers.get('x-source'), 'x');
    assert.equal(detailCalls(s), 2);
    const [limited, ok] = poolOf(s).status('TweetDetail');
    assert.equal(limited!.state, 'rate_limited');
    assert.ok(limited!.availableInS > 100 && limited!.availableInS <= 120, String(limited!.availableInS));
    assert.equal(ok!.state, 'ok');
  });

  test('a locked session is taken out of rotation and the read is served by the next one', async () => {
    const { path, tokens } = sessionsFile(2);
    xAccounts.lock(tokens[0]!);
    const s = track(await xStack('x,fxtwitter', path));
    const got = await read(s, `/${HANDLES.dave}/status/${IDS.daveRoot}`);
    assert.equal(got.res.headers.get('x-source'), 'x');
    assert.equal(detailCalls(s), 2, 'refused once with code 326, then served');
    const [locked, ok] = poolOf(s).status();
    assert.deepEqual([locked!.state, locked!.deadReason], ['locked', 'account locked (code 326)']);
    assert.equal(ok!.state, 'ok');
    for (const id of [IDS.carolReplyToDave, IDS.bobReplyToCarol]) await read(s, `/${HANDLES.dave}/status/${id}`);
    assert.equal(detailCalls(s), 4, 'the locked account is not tried again');
  });
});

describe('search without a usable session', () => {
  test('every session parked: 503 search_unavailable, Retry-After = seconds to the earliest reset', async () => {
    xAccounts.setLimits({ limit: 1, windowS: 600 });
    const { path } = sessionsFile(2);
    const s = track(await xStack('x,fxtwitter,syndication', path));
    for (const q of ['reader', 'reader_00']) {
      assert.equal((await read(s, `/api/v1/search?q=${q}&feed=users`)).res.headers.get('x-source'), 'x');
    }
    const calls = s.sim.calls({ target: 'x', path: '/SearchTimeline?' });
    for (const feed of ['users', 'photos', 'videos']) {
      const res = await s.get(`/api/v1/search?q=reader_01&feed=${feed}&format=json`, fresh());
      const body = await problemOf(res);
      assert.equal(res.status, 503, JSON.stringify(body));
      assert.equal(body.code, 'search_unavailable');
      const retryAfter = Number(res.headers.get('retry-after'));
      const earliest = poolOf(s).nextAvailableInS('SearchTimeline')!;
      assert.ok(
        Math.abs(retryAfter - earliest) <= 1 && retryAfter > 590 && retryAfter <= 600,
        `${retryAfter} vs ${earliest}`,
      );
    }
    assert.equal(
      s.sim.calls({ target: 'x', path: '/SearchTimeline?' }),
      calls,
      'no request while every session is parked',
    );
    // latest and top degrade to fxtwitter instead.
    assert.equal((await read(s, `/api/v1/search?q=${SEARCH_TERMS.caching}`)).res.headers.get('x-source'), 'fxtwitter');
  });

  test('every session locked: search_unavailable until an operator replaces them (Retry-After one day)', async () => {
    const { path, tokens } = sessionsFile(2);
    tokens.forEach((t) => xAccounts.lock(t));
    const s = track(await xStack('x', path));
    const res = await s.get(`/api/v1/search?q=${SEARCH_TERMS.caching}&feed=photos&format=json`, fresh());
    assert.equal(res.status, 503);
    assert.equal((await problemOf(res)).code, 'search_unavailable');
    assert.equal(res.headers.get('retry-after'), '86400');
    assert.equal(s.sim.calls({ target: 'x', path: '/SearchTimeline?' }), 2, 'each session tried once');
    const again = await s.get(`/api/v1/search?q=${SEARCH_TERMS.threadmark}&feed=photos&format=json`, fresh());
    assert.equal(again.status, 503);
    assert.equal(s.sim.calls({ target: 'x', path: '/SearchTimeline?' }), 2);
  });

  test('no sessions configured: account-backed feeds answer 503 search_unavailable, latest still works', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '# no sessions yet\n{"kind":"oauth","oauth_token":"t","oauth_token_secret":"s"}\n');
    for (const sessions of [undefined, empty]) {
      const s = track(await xStack('fxtwitter,syndication,x', sessions));
      for (const feed of ['photos', 'videos', 'users']) {
        const res = await s.get(`/api/v1/search?q=${SEARCH_TERMS.caching}&feed=${feed}&format=json`, fresh());
        assert.equal(res.status, 503, `${feed} (${sessions ?? 'unset'})`);
        const body = await problemOf(res);
        assert.equal(body.code, 'search_unavailable');
        assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
      }
      assert.equal(
        (await read(s, `/api/v1/search?q=${SEARCH_TERMS.caching}`)).res.headers.get('x-source'),
        'fxtwitter',
      );
      assert.equal(s.sim.calls({ target: 'x' }), 0);
    }
  });
});
