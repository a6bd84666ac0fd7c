// Account facts through the real server against the simulator: FxTwitter's /2/profile/{h} and /2/profile/{h}/about
// (no affiliate badge there, so it is stated unknown), X's AboutAccountQuery with sessions (every fact, the badge
// included), every representation, the MCP tool, each bad input and the 503 when no configured provider serves it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDLES } from '../../sim/corpus.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { writeSessions } from '../helpers/x-sessions.ts';
import { mcpCall } from '../helpers/mcp.ts';
import { aboutJsonSchema } from '../../src/contract/json-schemas.ts';

interface AboutBody {
  markdown: string;
  facts: Record<string, unknown>;
  unknown: string[];
  source: string;
}

async function about(s: Stack, path: string, init?: RequestInit): Promise<{ res: Response; body: AboutBody }> {
  const res = await s.get(`${path}?format=json`, init);
  const text = await res.text();
  assert.equal(res.status, 200, text.slice(0, 300));
  const body = JSON.parse(text) as AboutBody;
  assert.ok(aboutJsonSchema.safeParse(body).success, 'matches its schema');
  return { res, body };
}

describe('from FxTwitter', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
  });
  after(() => s.close());

  test('every fact FxTwitter gives, and the affiliate badge it does not give stated unknown', async () => {
    for (const path of [`/${HANDLES.alice}/about`, `/api/v1/profiles/${HANDLES.alice}/about`]) {
      const { res, body } = await about(s, path);
      assert.equal(res.headers.get('x-source'), 'fxtwitter');
      assert.deepEqual(body.facts, {
        id: '1461000001',
        handle: HANDLES.alice,
        name: 'Alice Developer',
        joined: '2015-06-02T00:00:00.000Z',
        verified: true,
        verifiedType: 'individual',
        verifiedSince: '2023-04-01T08:00:00.000Z',
        basedIn: 'Portugal',
        basedInAccurate: true,
        connectedVia: 'Web',
        usernameChanges: 2,
        lastUsernameChange: '2024-01-10T12:00:00.000Z',
      });
      assert.deepEqual(body.unknown, ['affiliate']);
    }
  });

  test('Markdown: one line per fact; an account X says little about has those facts unknown, not guessed', async () => {
    const md = await (await s.get(`/${HANDLES.big}/about`)).text();
    assert.match(md, /^# About Big Account \(@bigaccount\)\n/);
    assert.match(md, /- Based in: United States \(X says this may not be accurate\)\n/);
    assert.match(md, /- Username changes: 0\n- Last username change: never changed\n/);
    assert.match(md, /- Affiliate badge: unknown \(fxtwitter did not say\)/);
    const bob = await about(s, `/api/v1/profiles/${HANDLES.bob}/about`);
    assert.deepEqual(bob.body.unknown, [
      'basedIn',
      'connectedVia',
      'usernameChanges',
      'lastUsernameChange',
      'affiliate',
    ]);
    assert.equal(bob.body.facts.verified, false);
    assert.match(bob.body.markdown, /- Verified since: not verified\n/);
    const html = await (await s.get(`/${HANDLES.alice}/about`, { headers: { accept: 'text/html' } })).text();
    assert.ok(html.includes(`<link rel="canonical" href="${TEST_BASE}/alice_dev/about"`));
  });

  test('bad input: an invalid handle asks nothing upstream; unknown, suspended and protected accounts are 404', async () => {
    s.sim.resetCalls();
    const bad = await s.get('/api/v1/profiles/not-a-handle!/about');
    assert.equal(bad.status, 400);
    assert.equal((await problemOf(bad)).code, 'invalid_handle');
    const format = await s.get(`/api/v1/profiles/${HANDLES.alice}/about?format=obsidian`);
    assert.equal(format.status, 400);
    assert.equal((await problemOf(format)).code, 'invalid_format');
    assert.equal(s.sim.calls(), 0);
    for (const h of [HANDLES.missing, HANDLES.suspended, HANDLES.protected]) {
      const res = await s.get(`/api/v1/profiles/${h}/about?format=json`);
      assert.equal(res.status, 404, h);
      assert.equal((await problemOf(res)).code, 'not_found', h);
    }
    const recovery = await s.get(`/${HANDLES.missing}/about`, { headers: { accept: 'text/markdown' } });
    assert.equal(recovery.status, 404);
    assert.match(await recovery.text(), /^# Not found: @nobody_here_404/);
  });

  test('budget: the facts fit or the read is 400 invalid_budget naming the size they need', async () => {
    const fits = await s.get(`/api/v1/profiles/${HANDLES.alice}/about?budget=2000`);
    assert.equal(fits.status, 200);
    const tight = await s.get(`/api/v1/profiles/${HANDLES.alice}/about?budget=500&full=true`);
    const md = await (await s.get(`/api/v1/profiles/${HANDLES.alice}/about?full=true`)).text();
    if ([...md].length > 500) {
      assert.equal(tight.status, 400);
      assert.match((await problemOf(tight)).detail as string, /at least \d+/);
    } else assert.equal(tight.status, 200);
  });

  test('a second read is served from the cache', async () => {
    await about(s, `/api/v1/profiles/${HANDLES.carol}/about`);
    s.sim.resetCalls();
    const { res } = await about(s, `/api/v1/profiles/${HANDLES.carol}/about`);
    assert.equal(res.headers.get('x-cache'), 'hit');
    assert.equal(s.sim.calls(), 0);
  });

  test('the MCP tool read_about answers the Markdown', async () => {
    assert.match(await mcpCall(s.url, 'read_about', { handle: HANDLES.alice }), /- Based in: Portugal/);
  });
});

describe('from X with sessions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-about-'));
  let s: Stack;
  before(async () => {
    s = await startStack({
      THREADMARK_PROVIDERS: 'x',
      THREADMARK_X_SESSIONS: writeSessions(dir, 'about'),
      THREADMARK_TRUST_PROXY: 'true',
    });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('AboutAccountQuery gives every fact, the affiliate badge included, and is charged to account-ip', async () => {
    s.sim.resetCalls();
    const { res, body } = await about(s, `/api/v1/profiles/${HANDLES.big}/about`, {
      headers: { 'x-forwarded-for': '10.78.0.1' },
    });
    assert.equal(res.headers.get('x-source'), 'x');
    assert.equal(s.sim.calls({ target: 'x', path: 'AboutAccountQuery' }), 1);
    assert.deepEqual(body.facts.affiliate, {
      name: 'Web Perf Co',
      url: 'https://twitter.com/webperf_co',
      badgeUrl: 'https://pbs.twimg.com/profile_images/webperf_co_bigger.jpg',
    });
    assert.equal(body.facts.verifiedSince, '2022-11-20T00:00:00.000Z');
    assert.deepEqual(body.unknown, []);
    assert.match(res.headers.get('ratelimit') ?? '', /"account-ip";r=\d+/);
    const alice = await about(s, `/api/v1/profiles/${HANDLES.alice}/about`);
    assert.equal(alice.body.facts.affiliate, false, 'X says there is none');
    assert.match(alice.body.markdown, /- Affiliate badge: none/);
  });
});

describe('with no provider that serves it', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_PROVIDERS: 'syndication' });
  });
  after(() => s.close());

  test('503 read_unavailable with Retry-After', async () => {
    const res = await s.get(`/api/v1/profiles/${HANDLES.alice}/about?format=json`);
    assert.equal(res.status, 503);
    assert.equal((await problemOf(res)).code, 'read_unavailable');
    assert.ok(Number(res.headers.get('retry-after')) > 0);
  });
});
