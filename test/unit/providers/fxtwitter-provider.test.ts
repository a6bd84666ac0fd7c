import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { FxTwitterProvider } from '../../../src/providers/fxtwitter/provider.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import { fixture } from './fixtures.ts';
import { json, startServer, type LocalServer } from './local-server.ts';

const routes = new Map<string, () => [number, unknown, Record<string, string>?]>();
let srv: LocalServer;
let fx: FxTwitterProvider;

before(async () => {
  srv = await startServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const route = routes.get(path);
    if (!route) return json(res, 404, { code: 404, message: 'NOT_FOUND' });
    const [status, body, headers] = route();
    if (typeof body === 'string' && !body.startsWith('{')) {
      res.writeHead(status, { 'content-type': 'text/html', ...headers });
      return res.end(body);
    }
    json(res, status, body, headers);
  });
  fx = new FxTwitterProvider({
    baseUrl: srv.url + '/',
    timeoutMs: 2000,
    now: () => Date.parse('2026-01-01T01:00:00Z'),
  });
});
after(() => srv.close());

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ProviderError, String(e));
    assert.equal(e.provider, 'fxtwitter');
    return e.kind;
  }
}

test('declares only the capabilities FxTwitter can honour', () => {
  const caps = fx.capabilities();
  for (const c of [
    'post',
    'conversation',
    'profile',
    'timeline',
    'followers',
    'following',
    'search:latest',
    'search:top',
  ])
    assert.ok(caps.has(c as never), c);
  for (const c of ['search:photos', 'search:videos', 'search:users']) assert.ok(!caps.has(c as never), c);
});

test('getPost reads /2/status/{id}', async () => {
  const c = fixture('fxtwitter/v2-thread-1900000000000000003.json');
  routes.set('/2/status/1900000000000000003', () => [
    200,
    { code: 200, status: c.status, thread: null, author: c.author },
  ]);
  const p = await fx.getPost('1900000000000000003', {});
  assert.equal(p.id, '1900000000000000003');
  assert.equal(p.author.handle, 'alice_dev');
  assert.ok(srv.requests.includes('/2/status/1900000000000000003'));
});

test('getPost maps upstream outcomes to failure kinds', async () => {
  const cases: Array<[string, () => [number, unknown, Record<string, string>?], string]> = [
    ['private (401, as FxEmbed answers it)', () => [401, fixture('fxtwitter/v2-status-private.json')], 'not_found'],
    // FxTwitter answers a bare 404 also when its own upstream call failed or X limited it: not definitive.
    ['404 NOT_FOUND', () => [404, { code: 404, message: 'NOT_FOUND' }], 'unconfirmed'],
    ['404 with null status', () => [404, { code: 404, status: null, thread: null, author: null }], 'unconfirmed'],
    [
      'deleted tombstone',
      () => [200, { code: 200, status: { type: 'tombstone', reason: 'deleted', message: 'gone' } }],
      'not_found',
    ],
    [
      'suspended tombstone',
      () => [200, { code: 404, status: { type: 'tombstone', reason: 'suspended' } }],
      'not_found',
    ],
    [
      'unavailable tombstone',
      () => [200, { code: 200, status: { type: 'tombstone', reason: 'unavailable' } }],
      'empty',
    ],
    ['200 with null status', () => [200, { code: 200, status: null, thread: null, author: null }], 'empty'],
    ['body code 500 on HTTP 200', () => [200, { code: 500, message: 'API_FAIL', status: null }], 'error'],
    ['500 HTML', () => [500, '<html>oops</html>'], 'error'],
    [
      '503 with Retry-After',
      () => [503, { code: 503, message: 'UPSTREAM_UNAVAILABLE' }, { 'retry-after': '30' }],
      'error',
    ],
    ['malformed 200', () => [200, '{"code":200,"status":{'], 'error'],
  ];
  for (const [name, route, want] of cases) {
    routes.set('/2/status/1', route);
    assert.equal(await kindOf(fx.getPost('1', {})), want, name);
  }
  routes.set('/2/status/1', () => [503, { code: 503 }, { 'retry-after': '30' }]);
  await assert.rejects(
    fx.getPost('1', {}),
    (e: unknown) => e instanceof ProviderError && e.opts.status === 503 && e.opts.retryAfterS === 30,
  );
});

test('getConversation splits the thread around the focal post and nests replies', async () => {
  routes.set('/2/conversation/1900000000000000003', () => [
    200,
    fixture('fxtwitter/v2-conversation-1900000000000000003.json'),
  ]);
  const b = await fx.getConversation('1900000000000000003', { ranking: 'recent', withReplies: true });
  assert.ok(srv.requests.includes('/2/conversation/1900000000000000003?ranking_mode=recency'));
  assert.equal(b.post.id, '1900000000000000003');
  assert.deepEqual(
    b.ancestors.map((p) => p.id),
    ['1900000000000000001', '1900000000000000002'],
  );
  assert.deepEqual(
    b.continuations.map((p) => p.id),
    ['1900000000000000004'],
  );
  // The continuation that also sits in `replies` is not repeated there.
  assert.deepEqual(
    b.replies.map((n) => [n.post.id, n.children.map((c) => c.post.id)]),
    [
      ['1900000000000000010', ['1900000000000000011']],
      ['1900000000000000012', []],
    ],
  );
  assert.equal(b.repliesAvailable, true);
  assert.equal(b.threadAvailable, true);

  await fx.getConversation('1900000000000000003', { ranking: 'top', withReplies: true });
  assert.ok(srv.requests.includes('/2/conversation/1900000000000000003?ranking_mode=likes'));
});

test('getConversation without replies uses /2/thread', async () => {
  routes.set('/2/thread/1900000000000000003', () => [200, fixture('fxtwitter/v2-thread-1900000000000000003.json')]);
  const b = await fx.getConversation('1900000000000000003', { ranking: 'top', withReplies: false });
  assert.deepEqual(b.replies, []);
  assert.equal(b.repliesAvailable, false);
  assert.equal(b.continuations.length, 1);
});

test('a bare 404 on a conversation lets the chain fall through, a tombstone does not', async () => {
  routes.delete('/2/conversation/5');
  assert.equal(await kindOf(fx.getConversation('5', { ranking: 'top', withReplies: true })), 'unconfirmed');
  routes.set('/2/conversation/5', () => [
    404,
    { code: 404, status: { type: 'tombstone', reason: 'deleted' }, thread: null },
  ]);
  assert.equal(await kindOf(fx.getConversation('5', { ranking: 'top', withReplies: true })), 'not_found');
});

test('getProfile, 404 and suspended', async () => {
  routes.set('/2/profile/alice_dev', () => [200, fixture('fxtwitter/v2-profile-alice_dev.json')]);
  const a = await fx.getProfile('alice_dev', {});
  assert.equal(a.name, 'Alice Dev');
  assert.equal(a.followers, 45);
  // 'User not found' is also FxTwitter's answer when its upstream call failed: another provider may confirm.
  routes.set('/2/profile/ghost', () => [404, { code: 404, message: 'User not found' }]);
  assert.equal(await kindOf(fx.getProfile('ghost', {})), 'unconfirmed');
  routes.set('/2/profile/gone', () => [404, { code: 404, message: 'User is suspended', reason: 'suspended' }]);
  assert.equal(await kindOf(fx.getProfile('gone', {})), 'not_found');
});

test('getTimeline flattens thread groups, keeps reposts and passes count/cursor/with_replies', async () => {
  routes.set('/2/profile/alice_dev/statuses', () => [200, fixture('fxtwitter/v2-statuses-alice_dev.json')]);
  const page = await fx.getTimeline('alice_dev', { count: 500, cursor: 'abc' });
  const sent = srv.requests.filter((r) => r.startsWith('/2/profile/alice_dev/statuses')).at(-1)!;
  const q = new URL(sent, 'http://x').searchParams;
  assert.equal(q.get('count'), '100');
  assert.equal(q.get('cursor'), 'abc');
  assert.equal(q.get('with_replies'), 'true');
  assert.deepEqual(
    page.items.map((p) => [p.id, p.author.handle]),
    [
      ['1900000000000000004', 'alice_dev'],
      ['1900000000000000001', 'bob'],
      ['1900000000000000001', 'alice_dev'],
      ['1900000000000000002', 'alice_dev'],
    ],
  );
  assert.equal(page.nextCursor, 'DAABCgABGl0iK3VAJxAKAAIaXSIrdT_YAA');
});

test('a bottom cursor that repeats the request cursor ends the list', async () => {
  routes.set('/2/profile/alice_dev/statuses', () => [
    200,
    { code: 200, results: fixture('fxtwitter/v2-statuses-alice_dev.json').results, cursor: { bottom: 'same' } },
  ]);
  const page = await fx.getTimeline('alice_dev', { count: 20, cursor: 'same' });
  assert.equal(page.nextCursor, undefined);
});

test('followers and following pages', async () => {
  routes.set('/2/profile/alice_dev/followers', () => [200, fixture('fxtwitter/v2-followers-alice_dev.json')]);
  routes.set('/2/profile/alice_dev/following', () => [
    200,
    { code: 200, results: [], cursor: { top: null, bottom: null } },
  ]);
  const f = await fx.getFollowers('alice_dev', { count: 20 });
  assert.deepEqual(
    f.items.map((a) => a.handle),
    ['bob', 'carol', 'dave'],
  );
  assert.equal(f.nextCursor, '1830000000000000000|1900');
  const g = await fx.getFollowing('alice_dev', { count: 20 });
  assert.deepEqual(g, { items: [] });
  routes.set('/2/profile/alice_dev/followers', () => [200, { code: 200, cursor: null }]);
  assert.equal(await kindOf(fx.getFollowers('alice_dev', { count: 20 })), 'error');
});

test('search: latest/top go upstream, other feeds are refused, a 404 falls through', async () => {
  routes.set('/2/search', () => [200, fixture('fxtwitter/v2-search-caching.json')]);
  const r = await fx.search('caching', 'top', { count: 10 });
  const q = new URL(srv.requests.filter((x) => x.startsWith('/2/search')).at(-1)!, 'http://x').searchParams;
  assert.deepEqual([q.get('q'), q.get('feed'), q.get('count')], ['caching', 'top', '10']);
  assert.deepEqual(
    r.items.map((i) => i.kind === 'post' && i.post.id),
    ['1900000000000000001', '1900000000000000010'],
  );
  assert.ok(r.nextCursor);
  assert.equal(await kindOf(fx.search('caching', 'photos', { count: 10 })), 'unavailable');
  routes.set('/2/search', () => [404, { code: 404, message: 'No results' }]);
  assert.equal(await kindOf(fx.search('caching', 'latest', { count: 10 })), 'empty');
});
