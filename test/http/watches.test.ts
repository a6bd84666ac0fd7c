// Signed webhooks through the real server against the simulator: a watch of a source whose corpus grows delivers the
// new posts signed per Standard Webhooks; a failing receiver gets the same delivery (same webhook-id) until it
// succeeds; one that always fails gets its watch disabled with the reason shown; the keyed routes' problems.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';
import { until } from '../helpers/wait.ts';

const FAST = {
  THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
  THREADMARK_WATCH_INTERVALS_MS: 'profile=100,search=100,thread=100,list=100',
  THREADMARK_WEBHOOK_BACKOFF_MS: '20',
  THREADMARK_WEBHOOK_ATTEMPTS: '4',
};

interface WatchJson {
  id: string;
  source: string;
  callback: string;
  secret?: string;
  state: string;
  disabledReason?: string;
  deliveries?: Array<{ id: string; status: string; attempts: number; posts: string[]; lastStatus?: number }>;
}

describe('webhooks', () => {
  let s: Stack;
  let key: string;
  const receivers: Receiver[] = [];

  const call = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    s.get(path, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });

  async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  }

  async function watch(source: string, callback: string): Promise<WatchJson> {
    const res = await call('/api/v1/watches', { method: 'POST', json: { source, callback } });
    assert.equal(res.status, 201, await res.clone().text());
    const body = (await res.json()) as WatchJson;
    // The first read only sets the source's mark: what was there before is not news.
    await until(
      async () => (await s.app.services.stores.watches.getMark(sourceKeyOfWatch(body))) !== undefined,
      'first read',
    );
    return body;
  }

  const sourceKeyOfWatch = (w: WatchJson) => {
    const m = /^\/([^/?]+)(?:\/status\/(\d+))?/.exec(w.source)!;
    return m[2] ? `thread:${m[2]}` : `profile:${m[1]!.toLowerCase()}:posts`;
  };

  async function show(id: string): Promise<WatchJson> {
    const res = await call(`/api/v1/watches/${id}`);
    assert.equal(res.status, 200);
    return (await res.json()) as WatchJson;
  }

  before(async () => {
    s = await startStack(FAST);
    key = (await s.app.services.stores.keys.create({ name: 'watcher' })).key;
  });
  after(async () => {
    await s.close();
    for (const r of receivers) await r.close();
  });

  test('a new post on a watched profile is delivered once, signed per Standard Webhooks', async () => {
    const r = await receiver();
    const w = await watch(`/${HANDLES.alice}`, `${r.url}/hook`);
    assert.equal(w.source, `/${HANDLES.alice}`);
    assert.match(w.secret!, /^whsec_/);
    const id = s.sim.appendPost({ author: HANDLES.alice, text: 'Fresh from the simulator for the watchers.' });
    await until(() => r.of('POST').length === 1, 'the delivery');
    const push = r.of('POST')[0]!;
    const verified = new Webhook(w.secret!).verify(push.body, push.headers as Record<string, string>) as {
      type: string;
      data: { watch: string; posts: Array<{ id: string; text: string }> };
    };
    assert.equal(verified.type, 'posts.new');
    assert.equal(verified.data.watch, w.id);
    assert.deepEqual(
      verified.data.posts.map((p) => p.id),
      [id],
    );
    assert.equal(push.headers['content-type'], 'application/json');
    assert.equal(push.headers.authorization, undefined, 'no credentials of ours');
    await until(async () => (await show(w.id)).deliveries?.[0]?.status === 'delivered', 'delivered state');
    const shown = await show(w.id);
    assert.equal(shown.deliveries![0]!.id, push.headers['webhook-id']);
    assert.deepEqual(shown.deliveries![0]!.posts, [id]);
    assert.equal(shown.secret, undefined, 'the secret is shown once');
  });

  test('a thread that grows: the new reply is pushed', async () => {
    const r = await receiver();
    const w = await watch(`/${HANDLES.dave}/status/${IDS.daveRoot}`, `${r.url}/thread`);
    const id = s.sim.appendPost({
      author: HANDLES.carol,
      text: 'A reply that grows the thread.',
      replyTo: IDS.daveRoot,
    });
    await until(() => r.of('POST').length === 1, 'the thread delivery');
    const body = JSON.parse(r.of('POST')[0]!.body) as { data: { posts: Array<{ id: string }> } };
    assert.deepEqual(
      body.data.posts.map((p) => p.id),
      [id],
    );
    assert.equal((await show(w.id)).state, 'active');
  });

  test('a receiver failing three times then succeeding gets one delivery, the same webhook-id each time', async () => {
    const r = await receiver((_req, n) => ({ status: n <= 3 ? 500 : 200 }));
    const w = await watch(`/${HANDLES.bob}`, `${r.url}/flaky`);
    s.sim.appendPost({ author: HANDLES.bob, text: 'Third time lucky.' });
    await until(() => r.of('POST').length === 4, 'four attempts');
    const ids = new Set(r.of('POST').map((p) => p.headers['webhook-id']));
    assert.equal(ids.size, 1);
    await until(async () => (await show(w.id)).deliveries?.[0]?.status === 'delivered', 'delivered');
    const d = (await show(w.id)).deliveries!;
    assert.equal(d.length, 1);
    assert.equal(d[0]!.attempts, 4);
    assert.equal(d[0]!.lastStatus, 200);
    assert.equal((await show(w.id)).state, 'active');
  });

  test('a receiver that always fails: the watch is disabled and says why', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const w = await watch(`/${HANDLES.carol}`, `${r.url}/down`);
    s.sim.appendPost({ author: HANDLES.carol, text: 'Nobody is listening.' });
    await until(async () => (await show(w.id)).state === 'disabled', 'disabled');
    const shown = await show(w.id);
    assert.match(shown.disabledReason!, /4 consecutive failed attempts/);
    assert.match(shown.disabledReason!, /HTTP 503/);
    assert.equal(shown.deliveries![0]!.status, 'failed');
    assert.equal(r.of('POST').length, 4);
  });

  test('list and delete', async () => {
    const r = await receiver();
    const w = await watch(`/${HANDLES.big}?include=caching`, `${r.url}/x`);
    assert.equal(w.source, `/${HANDLES.big}?include=caching`);
    const list = (await (await call('/api/v1/watches')).json()) as { watches: WatchJson[]; limit: number };
    assert.ok(list.watches.some((x) => x.id === w.id));
    assert.equal(list.limit, 100);
    assert.equal((await call(`/api/v1/watches/${w.id}`, { method: 'DELETE' })).status, 204);
    const gone = await call(`/api/v1/watches/${w.id}`);
    assert.equal(gone.status, 404);
    assert.equal((await problemOf(gone)).code, 'not_found');
  });

  test('problems: no key, bad key, bad source, bad body, other methods', async () => {
    const anon = await s.get('/api/v1/watches');
    assert.equal(anon.status, 401);
    assert.equal((await problemOf(anon)).code, 'key_required');
    const wrong = await s.get('/api/v1/watches', { headers: { authorization: 'Bearer tm_nope' } });
    assert.equal(wrong.status, 401);
    assert.equal((await problemOf(wrong)).code, 'invalid_key');
    for (const source of ['alice_dev', '/api/v1/openapi', '/search', '/a,b', '/alice_dev?nope=1', '/i/lists/x']) {
      const res = await call('/api/v1/watches', { method: 'POST', json: { source, callback: 'http://127.0.0.1:9/x' } });
      assert.equal(res.status, 400, source);
      assert.equal((await problemOf(res)).code, 'invalid_source', source);
    }
    const filter = await call('/api/v1/watches', {
      method: 'POST',
      json: { source: '/alice_dev?media=some', callback: 'http://127.0.0.1:9/x' },
    });
    assert.equal((await problemOf(filter)).code, 'invalid_filter');
    const body = await call('/api/v1/watches', { method: 'POST', body: '{"source":1}' });
    assert.equal((await problemOf(body)).code, 'invalid_body');
    const put = await call('/api/v1/watches', { method: 'PUT', json: {} });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
    const post = await call('/api/v1/watches/wh_0', { method: 'POST', json: {} });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS, DELETE');
    const created = await call('/api/v1/watches', {
      method: 'POST',
      json: { source: '/alice_dev', callback: 'http://127.0.0.1:9/x' },
    });
    assert.equal(created.status, 201);
    assert.match(created.headers.get('ratelimit-policy') ?? '', /"watch-key";q=60;w=3600/);
    await created.arrayBuffer();
  });
});
