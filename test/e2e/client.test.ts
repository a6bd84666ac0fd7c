// The typed client (threadmark-client) against the real service and the platform simulator: paging across
// pages, since_id, exports, problem documents as typed errors, Retry-After retries, rate-limit fields and abort.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BIG_FOLLOWERS, HANDLES, IDS } from '../../sim/corpus.ts';
import { startStack, type Stack } from '../helpers/stack.ts';
import { createClient, ThreadmarkError, ThreadmarkNetworkError, type ErrorCode } from '../../src/client/index.ts';
import { createServer } from 'node:net';

let s: Stack;
before(async () => {
  // Trusting X-Forwarded-For gives each test its own search allowance.
  s = await startStack({ THREADMARK_TRUST_PROXY: 'true' });
});
after(() => s?.close());

let lastIp = 0;
/** A client address of its own, so one test's searches do not use up another's allowance. */
const ownIp = () => ({ 'x-forwarded-for': `203.0.113.${++lastIp}` });

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function rejection(p: Promise<unknown>): Promise<ThreadmarkError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ThreadmarkError, String(e));
    return e;
  }
  assert.fail('expected a ThreadmarkError');
}

describe('reads', () => {
  test('post by URL and by handle + id, with the read options, typed from the declared schema', async () => {
    const c = createClient({ baseUrl: s.url });
    const byUrl = await c.post(`https://x.com/${HANDLES.alice}/status/${IDS.threadPoll}`, { thread: 'off' });
    assert.equal(byUrl.post.id, IDS.threadPoll);
    assert.deepEqual(byUrl.thread.length <= 1, true);
    const full = await c.post({ handle: HANDLES.alice, id: IDS.threadRoot, thread: 'full' });
    assert.equal(full.post.author.handle, HANDLES.alice);
    assert.deepEqual(
      full.thread.map((p) => p.id),
      IDS.thread,
    );
  });

  test('profile page and cursor; followers iterate across several pages to the end', async () => {
    const c = createClient({ baseUrl: s.url });
    const first = await c.followers(HANDLES.big, { limit: 20 }).page();
    assert.equal(first.items.length, 20);
    assert.ok(first.nextCursor, 'more to come');
    const second = await c.followers(HANDLES.big, { limit: 20, cursor: first.nextCursor }).page();
    assert.equal(second.body.page, 2);
    const handles: string[] = [];
    let pages = 0;
    for await (const page of c.followers(HANDLES.big, { limit: 20 }).pages()) {
      pages++;
      handles.push(...page.items.map((a) => a.handle));
    }
    assert.equal(handles.length, BIG_FOLLOWERS, 'every follower, then the end');
    assert.equal(pages, Math.ceil(BIG_FOLLOWERS / 20));
    assert.equal(new Set(handles).size, handles.length);
    assert.deepEqual(
      handles.slice(0, 20),
      first.items.map((a) => a.handle),
    );
    let counted = 0;
    for await (const account of c.followers(HANDLES.alice, { limit: 1 })) if (account.handle) counted++;
    const profile = (await c.profile(HANDLES.alice, { limit: 1 }).page()).body.profile;
    assert.ok(counted >= 2, 'several one-account pages');
    assert.equal(counted, profile.followers);
  });

  test('since_id: iteration stops at the page that reaches it', async () => {
    const c = createClient({ baseUrl: s.url });
    const all = (await c.profile(HANDLES.alice, { limit: 20 }).page()).items.map((p) => p.id);
    assert.ok(all.length >= 4);
    const since = all[3]!;
    const newer: string[] = [];
    for await (const post of c.profile(HANDLES.alice, { limit: 2, since_id: since })) newer.push(post.id);
    assert.deepEqual(newer, all.slice(0, 3));
  });

  test('an export streams its posts, then the end record with the cursor that continues it', async () => {
    const c = createClient({ baseUrl: s.url });
    const stream = c.export(HANDLES.alice, { max_posts: 3 });
    const ids: string[] = [];
    for await (const post of stream) ids.push(post.id);
    assert.equal(ids.length, 3);
    assert.equal(stream.end?.reason, 'max_posts');
    assert.equal(stream.end?.posts, 3);
    assert.ok(stream.end?.cursor);
    const more = c.export(HANDLES.alice, { max_posts: 2, cursor: stream.end.cursor });
    const next: string[] = [];
    for await (const post of more) next.push(post.id);
    assert.equal(next.length, 2);
    assert.ok(!ids.includes(next[0]!), 'continues after the last post');
  });

  test('oEmbed and the typed feed route', async () => {
    const c = createClient({ baseUrl: s.url });
    const embed = await c.oembed(`http://threadmark.test/${HANDLES.alice}/status/${IDS.threadRoot}`, { maxwidth: 400 });
    assert.equal(embed.type, 'rich');
    assert.ok(embed.width <= 400);
    const atom = await c.profileFeed(HANDLES.alice, { type: 'atom' });
    assert.match(atom, /<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom"/);
  });
});

describe('errors, limits and abort', () => {
  test('problem documents become ThreadmarkErrors with the catalog code, status, detail and resolution', async () => {
    const c = createClient({ baseUrl: s.url, headers: ownIp() });
    const cases: [() => Promise<unknown>, number, ErrorCode][] = [
      [() => c.profile('not a handle!').page(), 400, 'invalid_handle'],
      [() => c.profile(HANDLES.missing).page(), 404, 'not_found'],
      [() => c.post({ url: 'https://example.com/a/status/1' }), 400, 'unsupported_host'],
      [() => c.search('x', { limit: 0 }).page(), 400, 'invalid_page'],
      [() => c.list('not-a-number').page(), 400, 'invalid_list_id'],
      [() => c.export(HANDLES.alice, { max_posts: 0 }).open(), 400, 'invalid_max_posts'],
    ];
    for (const [call, status, code] of cases) {
      const e = await rejection(call());
      assert.equal(e.code, code, e.message);
      assert.equal(e.status, status);
      assert.ok(e.detail.length > 0);
      assert.ok(e.resolution && e.resolution.length > 0, code);
    }
  });

  test('the service unreachable is a ThreadmarkNetworkError', async () => {
    const c = createClient({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    await assert.rejects(c.post({ handle: HANDLES.alice, id: IDS.threadRoot }), ThreadmarkNetworkError);
  });

  test('a 503 with Retry-After is waited out and retried; without retries it is the typed error', async () => {
    // An upstream deadline shorter than the upstream's Retry-After: the service passes the wait on to its caller.
    const short = await startStack(
      { THREADMARK_TRUST_PROXY: 'true', THREADMARK_UPSTREAM_DEADLINE_MS: '900' },
      { sim: s.sim },
    );
    after(() => short.close());
    const path = '/2/search';
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 503, retryAfterS: 1, match: path, times: 1 });
    const once = createClient({ baseUrl: short.url, retry: false, headers: ownIp() });
    const e = await rejection(once.search('retry me', { nocache: true }).page());
    assert.equal(e.status, 503);
    assert.equal(e.retryAfter, 1);
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 503, retryAfterS: 1, match: path, times: 1 });
    const c = createClient({ baseUrl: short.url, retry: { retries: 2, baseDelayMs: 10 }, headers: ownIp() });
    const page = await c.search('retry me too', { nocache: true }).page();
    assert.equal(page.body.q, 'retry me too');
  });

  test('a 429 with Retry-After is retried (the simulator answers it); a wait beyond maxDelayMs is not', async () => {
    s.sim.addFault({ target: 'x', kind: 'ratelimit', retryAfterS: 1, match: '/probe', times: 1 });
    const c = createClient({ baseUrl: s.sim.xApiUrl, retry: { baseDelayMs: 10 } });
    const res = await c.raw('/probe');
    assert.notEqual(res.status, 429, 'answered after the retry');
    s.sim.addFault({ target: 'x', kind: 'ratelimit', retryAfterS: 30, match: '/probe', times: 1 });
    const impatient = createClient({ baseUrl: s.sim.xApiUrl, retry: { maxDelayMs: 1000 } });
    assert.equal((await impatient.raw('/probe')).status, 429);
  });

  test("the service's own 429: rate_limited, its Retry-After and the RateLimit fields of the last answer", async () => {
    const c = createClient({ baseUrl: s.url, retry: { maxDelayMs: 10 }, headers: ownIp() });
    let denied: ThreadmarkError | undefined;
    for (let i = 0; i < 10 && !denied; i++) {
      try {
        await c.search(`quota ${i}`, { limit: 1 }).page();
        assert.ok(c.rateLimit?.policy?.includes('search-ip'), JSON.stringify(c.rateLimit));
      } catch (e) {
        assert.ok(e instanceof ThreadmarkError);
        denied = e;
      }
    }
    assert.equal(denied?.code, 'rate_limited');
    assert.equal(denied.status, 429);
    assert.ok(denied.retryAfter! > 0 && denied.retryAfter! <= 60);
    assert.equal(c.rateLimit?.remaining, 0);
  });

  test('an AbortSignal cancels a request and a wait before a retry', async () => {
    const c = createClient({ baseUrl: s.url });
    const aborted = new AbortController();
    aborted.abort();
    await assert.rejects(c.post({ handle: HANDLES.alice, id: IDS.threadRoot }, undefined, { signal: aborted.signal }), {
      name: 'AbortError',
    });
    s.sim.addFault({ target: 'x', kind: 'ratelimit', retryAfterS: 5, match: '/abort', times: 1 });
    const waiting = createClient({ baseUrl: s.sim.xApiUrl });
    const ctl = new AbortController();
    const pending = waiting.raw('/abort', { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 50);
    await assert.rejects(pending, { name: 'AbortError' });
  });
});
