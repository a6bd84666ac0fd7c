// FxTwitter's /2/trends answer (FxEmbed's APITrendsResponse) read into trends, and the provider's call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FxTwitterProvider } from '../../../src/providers/fxtwitter/provider.ts';
import { parseTrends } from '../../../src/providers/fxtwitter/trends.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import { trendPath } from '../../../src/domain/trends.ts';
import { fixture } from './fixtures.ts';
import { json, startServer, type LocalServer } from './local-server.ts';

const seen: string[] = [];
let answer: [number, unknown] = [200, fixture('fxtwitter/v2-trends.json')];
let srv: LocalServer;
let fx: FxTwitterProvider;

before(async () => {
  srv = await startServer((req, res) => {
    seen.push(req.url ?? '');
    json(res, answer[0], answer[1]);
  });
  fx = new FxTwitterProvider({ baseUrl: srv.url, timeoutMs: 2000 });
});
after(() => srv.close());

test('getTrends asks for the trending timeline and keeps the upstream order, ranks, context and grouped topics', async () => {
  answer = [200, fixture('fxtwitter/v2-trends.json')];
  const trends = await fx.getTrends({});
  assert.equal(seen.at(-1), '/2/trends?type=trending&count=50');
  assert.deepEqual(trends[0], {
    name: '#caching',
    rank: 1,
    context: 'Technology · Trending',
    related: ['CDN', 'Redis'],
  });
  assert.deepEqual(trends[3], { name: '#flashsale', rank: 4 }, 'a null context is no context');
  assert.equal(trends.at(-1)!.rank, undefined, 'a null rank is no rank');
  assert.ok(
    trends.every((t) => t.posts === undefined),
    'FxTwitter passes no post counts',
  );
});

test('an empty list is empty, a body without one an error, a failing status the provider failing', async () => {
  const kindOf = async () => {
    try {
      await fx.getTrends({});
    } catch (e) {
      assert.ok(e instanceof ProviderError);
      return e.kind;
    }
    return 'none';
  };
  answer = [200, { code: 200, timeline_type: 'trending', trends: [], cursor: { top: null, bottom: null } }];
  assert.equal(await kindOf(), 'empty');
  answer = [200, { code: 200 }];
  assert.equal(await kindOf(), 'error');
  answer = [500, { code: 500, timeline_type: 'trending', trends: [], message: 'Failed to load explore metadata' }];
  assert.equal(await kindOf(), 'error');
});

test('odd values: nameless trends dropped, long text cut, non-numeric ranks and odd topics ignored', () => {
  const got = parseTrends({
    trends: [
      { name: '', rank: '1' },
      { name: 42 },
      null,
      {
        name: `  a\n${'b'.repeat(300)}`,
        rank: 'first',
        context: 7,
        grouped_topics: [{ name: 'ok' }, { name: 3 }, null],
      },
    ],
  });
  assert.equal(got?.length, 1);
  assert.equal(got[0]!.name.length, 200);
  assert.ok(got[0]!.name.startsWith('a b'));
  assert.equal(got[0]!.rank, undefined);
  assert.equal(got[0]!.context, undefined);
  assert.deepEqual(got[0]!.related, ['ok']);
});

test('each trend is read here: its hashtag or cashtag page, else a search', () => {
  assert.equal(trendPath({ name: '#caching' }), '/hashtag/caching');
  assert.equal(trendPath({ name: '$tsla' }), '/cashtag/TSLA');
  assert.equal(trendPath({ name: 'Request coalescing' }), '/search?q=Request+coalescing');
  assert.equal(trendPath({ name: '#foo-bar' }), '/search?q=%23foo-bar', 'a hashtag X could not have made is searched');
});
