// Hostile input to the push routes through the real server, on each durable store (SQLite embedded, PostgreSQL when
// it answers): IPv6 forms that reach private IPv4 addresses are refused, a refusal never says what a name resolved
// to, malformed sources and topics (bad percent-encoding, NUL) are 400 with the catalog's code rather than 500, and a
// topic is stored without its fragment.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HANDLES } from '../../sim/corpus.ts';
import { pushTo } from '../../src/jobs/post-callback.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver, type Received } from '../helpers/receiver.ts';
import { dropSchema, PG_URL, postgresSkip, uniqueSchema } from '../unit/stores/postgres-env.ts';

const echo = (r: Received) => {
  if (r.method !== 'GET') return { status: 204 };
  return { status: 200, body: new URL(r.url, 'http://x').searchParams.get('hub.challenge') ?? '' };
};

describe('callback addresses (private addresses refused)', () => {
  let s: Stack;
  let key: string;

  before(async () => {
    s = await startStack();
    key = (await s.app.services.stores.keys.create({ name: 'ipv6' })).key;
  });
  after(() => s.close());

  const create = (callback: string) =>
    s.get('/api/v1/watches', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: `/${HANDLES.alice}`, callback }),
    });

  test('IPv4-compatible and IPv4-translated IPv6 callbacks are 400 invalid_callback', async () => {
    for (const callback of [
      'https://[::7f00:1]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[::ffff:0:7f00:1]/hook',
      'https://[::a9fe:a9fe]/hook',
      'https://[::ffff:0:a9fe:a9fe]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://[::808:808]/hook',
    ]) {
      const res = await create(callback);
      assert.equal(res.status, 400, callback);
      assert.equal((await problemOf(res)).code, 'invalid_callback', callback);
    }
  });

  test('a refusal says the address is not public, never what a name resolved to', async () => {
    const res = await create('https://localhost/hook');
    assert.equal(res.status, 400);
    const p = await problemOf(res);
    assert.equal(p.code, 'invalid_callback');
    assert.match(String(p.detail), /not a public address/);
    assert.doesNotMatch(String(p.detail), /127\.0\.0\.1|::1/);
    const missing = await problemOf(await create('https://no-such-host.invalid/hook'));
    assert.equal(missing.code, 'invalid_callback');
    assert.equal(missing.detail, p.detail, 'a name that does not resolve reads the same as one that is private');
    const late = await pushTo(
      'http://localhost:9/late',
      '{}',
      {},
      { timeoutMs: 2000, allowPrivate: false, userAgent: 't' },
    );
    assert.equal(late.ok, false);
    assert.match(late.error ?? '', /not a public address/);
    assert.doesNotMatch(late.error ?? '', /127\.0\.0\.1|::1/);
  });
});

for (const store of ['sqlite', 'postgres'] as const) {
  describe(`malformed push input on ${store}`, { skip: store === 'postgres' && postgresSkip }, () => {
    const schema = uniqueSchema();
    let s: Stack;
    let r: Receiver;
    let key: string;

    before(async () => {
      s = await startStack({
        THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
        THREADMARK_WATCH_INTERVALS_MS: 'profile=100,search=100,thread=100,list=100',
        ...(store === 'postgres' ? { THREADMARK_DATABASE_URL: PG_URL, THREADMARK_DATABASE_SCHEMA: schema } : {}),
      });
      r = await startReceiver(echo);
      key = (await s.app.services.stores.keys.create({ name: 'malformed' })).key;
    });
    after(async () => {
      await s.close();
      await r.close();
      if (store === 'postgres') await dropSchema(schema);
    });

    const hub = (fields: Record<string, string>) =>
      s.get('/api/v1/hub', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
    const watch = (source: string) =>
      s.get('/api/v1/watches', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ source, callback: `${r.url}/hook` }),
      });

    test('bad percent-encoding and NUL in a watch source are 400 invalid_source', async () => {
      for (const source of [
        `/${HANDLES.alice}/%E0%A4%A/rss`,
        '/%E0%A4%A',
        '/search?q=a%00b',
        '/search?q=a\u0000b',
        `/${HANDLES.alice}\u0000`,
        '/search?q=%E0%A4%A',
      ]) {
        const res = await watch(source);
        assert.equal(res.status, 400, JSON.stringify(source));
        assert.equal((await problemOf(res)).code, 'invalid_source', JSON.stringify(source));
      }
    });

    test('bad percent-encoding and NUL in hub.topic are 400 invalid_source; NUL in hub.secret invalid_hub_request', async () => {
      for (const topic of [
        `${TEST_BASE}/${HANDLES.alice}/%E0%A4%A/rss`,
        `${TEST_BASE}/search/rss?q=a%00b`,
        `${TEST_BASE}/search/rss?q=a\u0000b`,
      ]) {
        const res = await hub({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': `${r.url}/sub` });
        assert.equal(res.status, 400, JSON.stringify(topic));
        assert.equal((await problemOf(res)).code, 'invalid_source', JSON.stringify(topic));
      }
      const res = await hub({
        'hub.mode': 'subscribe',
        'hub.topic': `${TEST_BASE}/${HANDLES.alice}/rss`,
        'hub.callback': `${r.url}/sub`,
        'hub.secret': 'a\u0000b',
      });
      assert.equal(res.status, 400);
      assert.equal((await problemOf(res)).code, 'invalid_hub_request');
    });

    test('a topic is stored, verified and rendered without its fragment', async () => {
      const canonical = `${TEST_BASE}/${HANDLES.carol}/rss`;
      const callback = `${r.url}/frag`;
      const res = await hub({
        'hub.mode': 'subscribe',
        'hub.topic': `${canonical}#&nocache=true`,
        'hub.callback': callback,
      });
      assert.equal(res.status, 202);
      await s.app.push.hub.settled();
      const store = s.app.services.stores.watches;
      const stored = await store.getSubscription(canonical, callback);
      assert.ok(stored, 'stored under the canonical topic');
      assert.equal(stored.topic, canonical);
      assert.equal(await store.getSubscription(`${canonical}#&nocache=true`, callback), undefined);
      const verify = r.of('GET').find((g) => g.url.startsWith('/frag'))!;
      assert.equal(new URL(verify.url, 'http://x').searchParams.get('hub.topic'), canonical);
    });
  });
}
