// GET /trends and /api/v1/trends through the real server, from FxTwitter's /2/trends: the list in X's order with
// links to where each trend is read here, its short cache, and the problems of what the upstreams do not offer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { mcpCall } from '../helpers/mcp.ts';
import { trendsJsonSchema } from '../../src/contract/json-schemas.ts';
import { TRENDS_TTL_S } from '../../src/domain/trends.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

const trendCalls = () => s.sim.calls({ target: 'fxtwitter', path: '/2/trends' });

describe('trends', () => {
  test('Markdown: numbered in the upstream order, each linked to its page here, context and grouped topics kept', async () => {
    const res = await s.get('/trends');
    assert.equal(res.status, 200);
    // A shared cache may keep the list as long as the service does (stale-if-error: at least an hour).
    const t = TRENDS_TTL_S;
    assert.equal(
      res.headers.get('cache-control'),
      `public, max-age=${t}, s-maxage=${t}, stale-while-revalidate=${t}, stale-if-error=3600`,
    );
    assert.equal(res.headers.get('x-source'), 'fxtwitter');
    const md = await res.text();
    assert.ok(md.startsWith('# Trends on X\n'), md);
    assert.ok(md.includes(`1. [#caching](${TEST_BASE}/hashtag/caching) · Technology · Trending · also CDN, Redis`), md);
    assert.ok(md.includes(`2. [threadmark](${TEST_BASE}/search?q=threadmark) · Trending in Technology`), md);
    assert.ok(md.includes(`3. [$TSLA](${TEST_BASE}/cashtag/TSLA)`), md);
    assert.match(md, /refreshed every 120 s\. This source gives no post counts\./);
  });

  test('JSON matches its schema; a second read within the lifetime asks the upstream nothing', async () => {
    const body = (await (await s.get('/api/v1/trends?format=json')).json()) as {
      trends: { name: string; rank?: number; related?: string[]; posts?: number }[];
      ttlSeconds: number;
    };
    assert.ok(trendsJsonSchema.safeParse(body).success);
    assert.equal(body.ttlSeconds, TRENDS_TTL_S);
    assert.deepEqual(
      body.trends.map((t) => t.name),
      ['#caching', 'threadmark', '$TSLA', '#flashsale', 'Request coalescing', '#ラーメン'],
    );
    assert.deepEqual(body.trends[0], {
      name: '#caching',
      rank: 1,
      context: 'Technology · Trending',
      related: ['CDN', 'Redis'],
    });
    const before = trendCalls();
    const again = await s.get('/trends', { headers: { accept: 'text/html' } });
    assert.equal(again.headers.get('x-cache'), 'hit');
    assert.match(await again.text(), /<title>Trends on X<\/title>/);
    assert.equal(trendCalls(), before);
  });

  test('the MCP tool read_trends', async () => {
    const text = await mcpCall(s.url, 'read_trends', {});
    assert.ok(text.startsWith('# Trends on X'), text);
  });

  test('trends of a place are not offered: 501 trends_place_unsupported, no upstream call', async () => {
    s.sim.resetCalls();
    for (const q of ['woeid=23424977', 'place=London']) {
      const res = await s.get(`/trends?${q}`);
      assert.equal(res.status, 501);
      assert.equal((await problemOf(res)).code, 'trends_place_unsupported');
    }
    assert.equal(s.sim.calls(), 0);
  });

  test('a budget drops trailing trends and says how many', async () => {
    const res = await s.get('/trends?budget=500');
    assert.equal(res.status, 200);
    const md = await res.text();
    assert.ok([...md].length <= 500, md);
    assert.match(md, /\*Budget: left out \d+ trends?\.\*/);
    assert.ok(md.includes('1. [#caching]'), 'the top trend stays');
    assert.match(res.headers.get('x-warnings') ?? '', /budget of 500 characters/);
  });

  test('bad format is 400 invalid_format', async () => {
    const res = await s.get('/trends?format=obsidian');
    assert.equal(res.status, 400);
    assert.equal((await problemOf(res)).code, 'invalid_format');
  });
});

describe('trends without a provider that lists them', () => {
  let bare: Stack;
  before(async () => {
    bare = await startStack({ THREADMARK_PROVIDERS: 'syndication' });
  });
  after(() => bare.close());

  test('503 trends_unavailable with Retry-After, not a 500', async () => {
    const res = await bare.get('/api/v1/trends');
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '30');
    assert.equal((await problemOf(res)).code, 'trends_unavailable');
  });
});

describe('trends when FxTwitter fails', () => {
  let failing: Stack;
  before(async () => {
    failing = await startStack();
    failing.sim.addFault({ target: 'fxtwitter', match: '/2/trends', kind: 'status', status: 500 });
  });
  after(() => failing.close());

  test('the upstream failure is a 502 problem, never a 500', async () => {
    const res = await failing.get('/trends');
    assert.equal(res.status, 502);
    assert.equal((await problemOf(res)).code, 'fxtwitter_error');
  });
});
