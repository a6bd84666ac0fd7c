// Callbacks on private addresses are refused (400 invalid_callback) and never contacted: loopback, private,
// link-local and metadata addresses, names resolving to them, and plain http for webhooks; WebSub the same.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { HANDLES } from '../../sim/corpus.ts';
import { isPublicAddress } from '../../src/jobs/callback-guard.ts';
import { pushTo } from '../../src/jobs/post-callback.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver } from '../helpers/receiver.ts';

describe('callback safety', () => {
  let s: Stack;
  let r: Receiver;
  let key: string;

  before(async () => {
    s = await startStack();
    r = await startReceiver();
    key = (await s.app.services.stores.keys.create({ name: 'safety' })).key;
  });
  after(async () => {
    await s.close();
    await r.close();
  });

  const create = (callback: string) =>
    s.get('/api/v1/watches', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: `/${HANDLES.alice}`, callback }),
    });

  test('webhook callbacks that are not public https are 400 invalid_callback and never contacted', async () => {
    for (const callback of [
      `https://127.0.0.1:${r.port}/hook`,
      `https://localhost:${r.port}/hook`,
      'https://10.1.2.3/hook',
      'https://172.16.0.1/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[fd00:ec2::254]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://0.0.0.0/hook',
      'http://example.com/hook',
      'https://user:pass@example.com/hook',
      'ftp://example.com/hook',
      'not a url',
    ]) {
      const res = await create(callback);
      assert.equal(res.status, 400, callback);
      const p = await problemOf(res);
      assert.equal(p.code, 'invalid_callback', callback);
    }
    assert.equal(r.received.length, 0, 'nothing was contacted');
    const list = (await (await s.get('/api/v1/watches', { headers: { authorization: `Bearer ${key}` } })).json()) as {
      watches: unknown[];
    };
    assert.equal(list.watches.length, 0);
  });

  test('WebSub callbacks on private addresses are refused the same way', async () => {
    for (const callback of [`http://127.0.0.1:${r.port}/sub`, 'http://192.168.0.10/sub', 'http://[fe80::1]/sub']) {
      const res = await s.get('/api/v1/hub', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          'hub.mode': 'subscribe',
          'hub.topic': `${TEST_BASE}/${HANDLES.alice}/rss`,
          'hub.callback': callback,
        }).toString(),
      });
      assert.equal(res.status, 400, callback);
      assert.equal((await problemOf(res)).code, 'invalid_callback');
    }
    assert.equal(r.received.length, 0);
  });

  test('a delivery re-checks the address when it connects: a name resolving to loopback is never contacted', async () => {
    const opts = { timeoutMs: 2000, allowPrivate: false, userAgent: 'test' };
    for (const url of [`http://localhost:${r.port}/late`, `http://127.0.0.1:${r.port}/late`]) {
      const out = await pushTo(url, '{}', {}, opts);
      assert.equal(out.ok, false, url);
      assert.match(out.error ?? '', /not a public address/, url);
    }
    assert.equal(r.received.length, 0);
  });

  test('the address rules', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) assert.ok(isPublicAddress(a), a);
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '100.64.0.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ])
      assert.ok(!isPublicAddress(a), a);
  });
});
