// GET /trends served by X with sessions, through the real server against the simulator's GenericTimelineById in
// X's 2026 shape (a frame item, a module of AI-written stories, then the topics): an X-only deployment, the charge to
// account-ip, sessions that cannot serve, and FxTwitter with X behind it (X answers when FxTwitter fails).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { xAccounts } from '../../sim/routes/x-accounts.ts';
import { SIM_TRENDS, SIM_X_STORIES } from '../../sim/trends.ts';
import { trendsJsonSchema } from '../../src/contract/json-schemas.ts';
import { TRENDING_TIMELINE_ID } from '../../src/providers/x/trends.ts';

interface TrendsBody {
  markdown: string;
  source: string;
  trends: { name: string; rank?: number; context?: string; posts?: number; related?: string[]; url?: string }[];
}

const xCalls = (s: Stack) => s.sim.calls({ target: 'x', path: 'GenericTimelineById' });
const left = (r: Response) => /"account-ip";r=(\d+)/.exec(r.headers.get('ratelimit') ?? '')?.[1];
const [story] = SIM_X_STORIES;

describe('trends from X alone', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-xtrends-'));
  let s: Stack;
  before(async () => {
    s = await startStack({
      THREADMARK_PROVIDERS: 'x',
      THREADMARK_X_SESSIONS: writeSessions(dir, 'xtrends'),
      THREADMARK_TRUST_PROXY: 'true',
    });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const as = (n: number) => ({ headers: { 'x-forwarded-for': `10.79.0.${n}` } });

  test('JSON: stories first with their page on X, then the topics with the counts X shows, none made up', async () => {
    s.sim.resetCalls();
    const res = await s.get('/api/v1/trends?format=json', as(1));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'x');
    const body = (await res.json()) as TrendsBody;
    assert.ok(trendsJsonSchema.safeParse(body).success);
    assert.equal(xCalls(s), 1);
    assert.equal(s.sim.calls({ target: 'x', path: TRENDING_TIMELINE_ID }), 1, 'the trending timeline is asked for');
    assert.deepEqual(
      body.trends.map((t) => t.name),
      [...SIM_X_STORIES.map((t) => t.name), ...SIM_TRENDS.map((t) => t.name)],
    );
    assert.deepEqual(body.trends[0], {
      name: story!.name,
      context: `${story!.age} · ${story!.category}`,
      posts: story!.posts,
      url: `https://x.com/i/trending/${story!.id}`,
    });
    const byName = new Map(body.trends.map((t) => [t.name, t]));
    assert.deepEqual(byName.get('#caching'), {
      name: '#caching',
      context: 'Technology · Trending',
      posts: 37_600,
      related: ['CDN', 'Redis'],
    });
    assert.equal(byName.get('threadmark')!.posts, 1_699);
    assert.equal(byName.get('$TSLA')!.posts, 4_000_000);
    assert.deepEqual(byName.get('#flashsale'), { name: '#flashsale' }, 'no count, context or rank X did not give');
  });

  test('Markdown: a story links to X, a topic to its page here, an uncounted trend says so; cached read is free', async () => {
    const res = await s.get('/trends', as(2));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-cache'), 'hit');
    const md = await res.text();
    assert.ok(
      md.includes(
        `1. [${story!.name}](https://x.com/i/trending/${story!.id}) · 70000 posts · story · ${story!.age} · ${story!.category}`,
      ),
      md,
    );
    assert.ok(
      md.includes(`[#caching](${TEST_BASE}/hashtag/caching) · 37600 posts · Technology · Trending · also CDN, Redis`),
      md,
    );
    assert.ok(md.includes(`[#flashsale](${TEST_BASE}/hashtag/flashsale) · posts not counted`), md);
    assert.match(md, /via x; refreshed every 120 s\.\*/);
    assert.equal(xCalls(s), 1, 'served from the cache');
  });

  test('each X call is charged to account-ip; a cached list is free', async () => {
    const first = await s.get('/api/v1/trends?nocache=true', as(9));
    assert.equal(first.status, 200);
    const after1 = left(first);
    assert.ok(after1 !== undefined, first.headers.get('ratelimit') ?? 'no RateLimit header');
    const again = await s.get('/api/v1/trends', as(9));
    assert.equal(again.headers.get('x-cache'), 'hit');
    assert.equal(left(again) ?? after1, after1, 'a cached read charges nothing');
  });

  test('trends of a place stay 501 with X: its trending timeline takes no place; nothing is asked', async () => {
    s.sim.resetCalls();
    const res = await s.get('/trends?woeid=1', as(3));
    assert.equal(res.status, 501);
    assert.match(String((await problemOf(res)).detail), /X's trending timeline take no place/);
    assert.equal(s.sim.calls(), 0);
  });
});

describe('trends from X when its sessions cannot serve', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-xtrends-locked-'));
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: writeSessions(dir, 'xtrendslock', 1) });
    xAccounts.lock('xtrendslock0_token');
  });
  after(async () => {
    xAccounts.reset();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a locked session is 503 trends_unavailable, then parked: no call to X, Retry-After its wait', async () => {
    const first = await s.get('/api/v1/trends');
    const problem = await problemOf(first);
    assert.equal(first.status, 503, JSON.stringify(problem));
    assert.equal(problem.code, 'trends_unavailable');
    assert.ok(Number(first.headers.get('retry-after')) > 0);
    const calls = xCalls(s);
    const parked = await s.get('/api/v1/trends');
    assert.equal(parked.status, 503);
    const p2 = await problemOf(parked);
    assert.equal(p2.code, 'trends_unavailable');
    assert.match(String(p2.detail), /parked/);
    assert.ok(Number(parked.headers.get('retry-after')) > 3600, parked.headers.get('retry-after') ?? '');
    assert.equal(xCalls(s), calls, 'no request goes to X while its only session is parked');
  });
});

describe('trends from X when its session is locked after a read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-xtrends-stale-'));
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'x', THREADMARK_X_SESSIONS: writeSessions(dir, 'xtrendsstale', 1) });
  });
  after(async () => {
    xAccounts.reset();
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the list read before stands in, marked stale, and X is not asked while the session is parked', async () => {
    assert.equal((await s.get('/api/v1/trends')).status, 200);
    xAccounts.lock('xtrendsstale0_token');
    for (const round of ['the call that finds the lock', 'a read while parked']) {
      const res = await s.get('/api/v1/trends?format=json&nocache=true');
      assert.equal(res.status, 200, round);
      assert.equal(res.headers.get('x-cache'), 'stale', round);
      assert.match(res.headers.get('x-warnings') ?? '', /trends_unavailable/, round);
      assert.equal(((await res.json()) as TrendsBody).trends[0]!.name, story!.name, round);
    }
    assert.equal(xCalls(s), 2, 'the first read and the one that met the lock');
  });
});

describe('trends from X without sessions', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'x' });
  });
  after(() => s.close());

  test('503 trends_unavailable naming both ways to list trends', async () => {
    const res = await s.get('/trends');
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '30');
    const problem = await problemOf(res);
    assert.equal(problem.code, 'trends_unavailable');
    assert.match(String(problem.detail), /FxTwitter does, and X does with logged-in sessions/);
  });
});

describe('trends from FxTwitter with X behind it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-xtrends-both-'));
  let s: Stack;
  before(async () => {
    s = await startStack({
      THREADMARK_PROVIDERS: 'fxtwitter,x',
      THREADMARK_X_SESSIONS: writeSessions(dir, 'xtrendsboth'),
    });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('FxTwitter answers first and X is not asked', async () => {
    s.sim.resetCalls();
    const res = await s.get('/api/v1/trends?format=json');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-source'), 'fxtwitter');
    assert.equal(((await res.json()) as TrendsBody).trends[0]!.name, '#caching');
    assert.equal(xCalls(s), 0);
  });

  test('FxTwitter failing: X answers, with its counts and stories', async () => {
    s.sim.addFault({ target: 'fxtwitter', match: '/2/trends', kind: 'status', status: 500 });
    const res = await s.get('/api/v1/trends?format=json&nocache=true');
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(res.headers.get('x-source'), 'x');
    const body = (await res.json()) as TrendsBody;
    assert.equal(body.source, 'x');
    assert.equal(body.trends[0]!.url, `https://x.com/i/trending/${story!.id}`);
    assert.ok(body.trends.some((t) => t.name === '#caching' && t.posts === 37_600));
    assert.equal(xCalls(s), 1);
  });
});
