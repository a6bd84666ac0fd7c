// WebSub through the real server: every feed names the hub and itself; a subscriber on loopback has its intent
// verified (challenge echoed), gets the feed pushed when the topic gains a post, signed with its hub.secret; leases
// are bounded; a wrong echo subscribes nothing; unsubscribe is verified too; subscriptions survive a restart.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HANDLES } from '../../sim/corpus.ts';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver, type Received } from '../helpers/receiver.ts';
import { until } from '../helpers/wait.ts';

const HUB = `${TEST_BASE}/api/v1/hub`;
const FAST = {
  THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
  THREADMARK_WATCH_INTERVALS_MS: 'profile=100,search=100,thread=100,list=100',
  THREADMARK_WEBHOOK_BACKOFF_MS: '20',
  THREADMARK_WEBHOOK_ATTEMPTS: '4',
};

/** A subscriber that echoes the challenge (or not) and accepts pushes. */
const echo =
  (honest = true) =>
  (r: Received) => {
    if (r.method !== 'GET') return { status: 204 };
    const challenge = new URL(r.url, 'http://x').searchParams.get('hub.challenge') ?? '';
    return { status: 200, body: honest ? challenge : `${challenge}-not` };
  };

const query = (r: Received) => new URL(r.url, 'http://x').searchParams;

describe('WebSub', () => {
  let sim: Simulator;
  let s: Stack;
  const dir = mkdtempSync(join(tmpdir(), 'threadmark-websub-'));
  const env = { ...FAST, THREADMARK_KEYS_DB: join(dir, 'keys.db') };
  const receivers: Receiver[] = [];

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    s = await startStack(env, { sim });
  });
  after(async () => {
    await s.close();
    await sim.close();
    for (const r of receivers) await r.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function receiver(answer: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  }

  const hubRequest = (fields: Record<string, string>) =>
    s.get('/api/v1/hub', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  test('every feed advertises the hub and itself (RSS, Atom, JSON Feed, Link header)', async () => {
    const rss = await s.get(`/${HANDLES.alice}/rss`);
    const body = await rss.text();
    assert.ok(body.includes(`<atom:link href="${HUB}" rel="hub"/>`), body.slice(0, 600));
    assert.equal(rss.headers.get('link'), `<${HUB}>; rel="hub", <${TEST_BASE}/${HANDLES.alice}/rss>; rel="self"`);
    const atom = await (await s.get(`/api/v1/profiles/${HANDLES.alice}/feed?type=atom`)).text();
    assert.ok(atom.includes(`<link rel="hub" href="${HUB}"/>`));
    const json = (await (await s.get(`/api/v1/search/feed?q=caching&type=json`)).json()) as {
      hubs: Array<{ type: string; url: string }>;
    };
    assert.deepEqual(json.hubs, [{ type: 'WebSub', url: HUB }]);
  });

  test('subscribe: intent verified, then each new post pushes the feed, signed with hub.secret', async () => {
    const r = await receiver(echo());
    const topic = `${TEST_BASE}/${HANDLES.alice}/rss`;
    const res = await hubRequest({
      'hub.mode': 'subscribe',
      'hub.topic': topic,
      'hub.callback': `${r.url}/sub`,
      'hub.secret': 'a shared secret',
      'hub.lease_seconds': '999999999',
    });
    assert.equal(res.status, 202);
    await until(() => r.of('GET').length === 1, 'the verification of intent');
    const q = query(r.of('GET')[0]!);
    assert.equal(q.get('hub.mode'), 'subscribe');
    assert.equal(q.get('hub.topic'), topic);
    assert.equal(q.get('hub.lease_seconds'), String(86400), 'the lease is bounded');
    const store = s.app.services.stores.watches;
    await until(async () => (await store.getSubscription(topic, `${r.url}/sub`)) !== undefined, 'stored');
    await until(async () => (await store.getMark(`profile:${HANDLES.alice}:posts`)) !== undefined, 'first read');
    const id = sim.appendPost({ author: HANDLES.alice, text: 'Pushed over WebSub.' });
    await until(() => r.of('POST').length === 1, 'the push');
    const push = r.of('POST')[0]!;
    const expected = createHmac('sha256', 'a shared secret').update(push.body).digest('hex');
    assert.equal(push.headers['x-hub-signature-256'], `sha256=${expected}`);
    assert.match(String(push.headers['content-type']), /^application\/rss\+xml/);
    assert.equal(push.headers.link, `<${HUB}>; rel="hub", <${topic}>; rel="self"`);
    assert.ok(push.body.includes(`/status/${id}`), 'the pushed feed holds the new post');
  });

  test('a subscriber that does not echo the challenge is not subscribed', async () => {
    const r = await receiver(echo(false));
    const topic = `${TEST_BASE}/${HANDLES.bob}/rss`;
    assert.equal(
      (await hubRequest({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': `${r.url}/x` })).status,
      202,
    );
    await until(() => r.of('GET').length === 1, 'the verification');
    await s.app.push.hub.settled();
    assert.equal(await s.app.services.stores.watches.getSubscription(topic, `${r.url}/x`), undefined);
  });

  test('unsubscribe is verified, then the subscription is gone', async () => {
    const r = await receiver(echo());
    const topic = `${TEST_BASE}/search/rss?q=caching`;
    const callback = `${r.url}/u`;
    await hubRequest({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': callback });
    const store = s.app.services.stores.watches;
    await until(async () => (await store.getSubscription(topic, callback)) !== undefined, 'subscribed');
    await hubRequest({ 'hub.mode': 'unsubscribe', 'hub.topic': topic, 'hub.callback': callback });
    await until(async () => (await store.getSubscription(topic, callback)) === undefined, 'unsubscribed');
    assert.equal(query(r.of('GET')[1]!).get('hub.mode'), 'unsubscribe');
  });

  test('bad hub requests are problems from the catalog; GET describes the hub; other methods 405', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [
        { 'hub.topic': `${TEST_BASE}/${HANDLES.alice}/rss`, 'hub.callback': 'http://127.0.0.1:9/' },
        'invalid_hub_request',
      ],
      [
        {
          'hub.mode': 'subscribe',
          'hub.topic': 'https://elsewhere.example/feed',
          'hub.callback': 'http://127.0.0.1:9/',
        },
        'invalid_source',
      ],
      [{ 'hub.mode': 'subscribe', 'hub.topic': `${TEST_BASE}/${HANDLES.alice}/rss` }, 'invalid_hub_request'],
      [
        {
          'hub.mode': 'subscribe',
          'hub.topic': `${TEST_BASE}/${HANDLES.alice}/rss`,
          'hub.callback': 'http://127.0.0.1:9/',
          'hub.lease_seconds': 'ten',
        },
        'invalid_hub_request',
      ],
    ];
    for (const [fields, code] of cases) {
      const res = await hubRequest(fields);
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal((await problemOf(res)).code, code);
    }
    const charged = await hubRequest({ 'hub.mode': 'subscribe' });
    assert.match(charged.headers.get('ratelimit-policy') ?? '', /"hub-ip";q=60;w=3600/);
    await charged.arrayBuffer();
    const info = (await (await s.get('/api/v1/hub')).json()) as { hub: string };
    assert.equal(info.hub, HUB);
    const put = await s.get('/api/v1/hub', { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, HEAD, OPTIONS, POST');
    await put.arrayBuffer();
  });

  test('subscriptions survive a restart', async () => {
    const r = await receiver(echo());
    const topic = `${TEST_BASE}/${HANDLES.dave}/rss`;
    await hubRequest({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': `${r.url}/keep` });
    await until(
      async () => (await s.app.services.stores.watches.getSubscription(topic, `${r.url}/keep`)) !== undefined,
      'subscribed',
    );
    await until(
      async () => (await s.app.services.stores.watches.getMark(`profile:${HANDLES.dave}:posts`)) !== undefined,
      'read',
    );
    await s.close();
    s = await startStack(env, { sim });
    const id = sim.appendPost({ author: HANDLES.dave, text: 'Still subscribed after the restart.' });
    await until(() => r.of('POST').length === 1, 'the push after the restart');
    assert.ok(r.of('POST')[0]!.body.includes(`/status/${id}`));
  });
});
