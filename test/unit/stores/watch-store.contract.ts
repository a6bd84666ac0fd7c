// The watch store's contract, one suite run over every implementation (watch-store.test.ts): watches per key, the
// followers of a source, subscriptions replaced on renewal and gone when their lease ends, marks, and deliveries
// with their outcomes (only the latest kept, pending ones never dropped).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { NO_FILTER } from '../../../src/domain/feed-filters.ts';
import {
  KEPT_DELIVERIES,
  type DeliveryRecord,
  type HubSubscription,
  type WatchRecord,
  type WatchStore,
} from '../../../src/stores/watches/types.ts';

let n = 0;
const nextId = (p: string) => `${p}_${String(++n).padStart(32, '0')}`;

export function watchOf(over: Partial<WatchRecord> = {}): WatchRecord {
  return {
    id: nextId('wh'),
    keyId: 'key1',
    source: '/alice_dev',
    sourceKey: 'profile:alice_dev:posts',
    target: { kind: 'profile', handle: 'alice_dev', feed: 'posts' },
    filter: NO_FILTER,
    callback: 'https://example.com/hook',
    secret: 'whsec_c2VjcmV0',
    state: 'active',
    createdAt: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
    ...over,
  };
}

function subOf(over: Partial<HubSubscription> = {}): HubSubscription {
  return {
    id: nextId('sub'),
    topic: 'http://threadmark.test/alice_dev/rss',
    sourceKey: 'profile:alice_dev:posts',
    target: { kind: 'profile', handle: 'alice_dev', feed: 'posts' },
    filter: NO_FILTER,
    callback: 'https://example.com/sub',
    leaseSeconds: 600,
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    createdAt: new Date().toISOString(),
    ...over,
  };
}

function deliveryOf(followerId: string, over: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    id: nextId('msg'),
    followerKind: 'webhook',
    followerId,
    createdAt: new Date().toISOString(),
    status: 'pending',
    attempts: 0,
    postIds: ['1'],
    payload: '{"type":"posts.new"}',
    contentType: 'application/json',
    ...over,
  };
}

export function watchStoreContract(name: string, open: () => Promise<WatchStore>, skip: string | false = false): void {
  describe(`watch store contract: ${name}`, { skip }, () => {
    test('watches: add, get, list per key, disable with a reason, delete', async () => {
      const store = await open();
      const a = watchOf({ keyId: 'k-a' });
      const b = watchOf({ keyId: 'k-a', source: '/bob', sourceKey: 'profile:bob:posts' });
      const c = watchOf({ keyId: 'k-c' });
      for (const w of [a, b, c]) await store.addWatch(w);
      assert.deepEqual(await store.getWatch(a.id), a);
      assert.deepEqual(
        (await store.listWatches('k-a')).map((w) => w.id),
        [a.id, b.id],
      );
      await store.disableWatch(a.id, 'four failures');
      const disabled = await store.getWatch(a.id);
      assert.equal(disabled?.state, 'disabled');
      assert.equal(disabled?.disabledReason, 'four failures');
      assert.equal(await store.deleteWatch(b.id), true);
      assert.equal(await store.deleteWatch(b.id), false);
      assert.equal(await store.getWatch(b.id), undefined);
      assert.deepEqual(
        (await store.listWatches('k-a')).map((w) => w.id),
        [a.id],
      );
      await store.close();
    });

    test('followers and sources: active watches and live subscriptions only', async () => {
      const store = await open();
      const key = `profile:f${n}:posts`;
      const target = { kind: 'profile' as const, handle: `f${n}`, feed: 'posts' as const };
      const w1 = watchOf({ sourceKey: key, target });
      const w2 = watchOf({ sourceKey: key, target });
      await store.addWatch(w1);
      await store.addWatch(w2);
      await store.disableWatch(w2.id, 'x');
      const live = subOf({ sourceKey: key, target, callback: `https://example.com/live${n}` });
      const expired = subOf({
        sourceKey: key,
        target,
        callback: `https://example.com/old${n}`,
        expiresAt: new Date(Date.now() - 1000).toISOString(),
      });
      await store.putSubscription(live);
      await store.putSubscription(expired);
      const f = await store.followers(key, Date.now());
      assert.deepEqual(
        f.watches.map((w) => w.id),
        [w1.id],
      );
      assert.deepEqual(
        f.subscriptions.map((s) => s.id),
        [live.id],
      );
      const sources = await store.sources(Date.now());
      assert.equal(sources.filter((s) => s.sourceKey === key).length, 1);
      assert.deepEqual(sources.find((s) => s.sourceKey === key)?.target, target);
      await store.deleteWatch(w1.id);
      await store.deleteSubscription(live.id);
      assert.ok(!(await store.sources(Date.now())).some((s) => s.sourceKey === key));
      await store.close();
    });

    test('subscriptions: one per (topic, callback), a renewal replaces it', async () => {
      const store = await open();
      const first = subOf({ callback: `https://example.com/renew${n}` });
      await store.putSubscription(first);
      const renewed = { ...first, leaseSeconds: 900, expiresAt: new Date(Date.now() + 900_000).toISOString() };
      await store.putSubscription(renewed);
      assert.deepEqual(await store.getSubscription(first.topic, first.callback), renewed);
      assert.deepEqual(await store.getSubscriptionById(first.id), renewed);
      assert.equal(
        (await store.followers(first.sourceKey, Date.now())).subscriptions.filter((s) => s.callback === first.callback)
          .length,
        1,
      );
      assert.equal(await store.deleteSubscription(first.id), true);
      assert.equal(await store.getSubscription(first.topic, first.callback), undefined);
      await store.close();
    });

    test('subscriptions are counted per subscriber while live, and expired ones are purged with their deliveries', async () => {
      const store = await open();
      const who = `203.0.113.${++n % 250}-${n}`;
      const past = new Date(Date.now() - 1000).toISOString();
      const live = [
        subOf({ subscriber: who, callback: `https://example.com/c${n}a` }),
        subOf({ subscriber: who, callback: `https://example.com/c${n}b` }),
      ];
      const gone = subOf({ subscriber: who, callback: `https://example.com/c${n}c`, expiresAt: past });
      const other = subOf({ subscriber: `${who}-other`, callback: `https://example.com/c${n}d` });
      for (const s of [...live, gone, other]) await store.putSubscription(s);
      const d = deliveryOf(gone.id, { followerKind: 'websub' });
      await store.addDelivery(d);
      assert.equal(await store.countSubscriptions(who, Date.now()), 2);
      assert.ok((await store.purgeExpired(Date.now())) >= 1);
      assert.equal(await store.getSubscriptionById(gone.id), undefined);
      assert.equal(await store.getSubscription(gone.topic, gone.callback), undefined);
      assert.equal(await store.getDelivery(d.id), undefined, 'its deliveries go with it');
      assert.ok(await store.getSubscriptionById(live[0]!.id), 'live ones stay');
      assert.equal(await store.countSubscriptions(who, Date.now()), 2);
      for (const s of [...live, other]) await store.deleteSubscription(s.id);
      await store.close();
    });

    test('marks move only from the value the mover saw, and one of simultaneous moves wins', async () => {
      const store = await open();
      const key = `search:latest:m${++n}`;
      assert.equal(await store.getMark(key), undefined);
      assert.equal(await store.advanceMark(key, '5', '6'), false, 'no mark yet: a move from a value fails');
      assert.equal(await store.advanceMark(key, undefined, '0'), true);
      assert.equal(await store.advanceMark(key, undefined, '7'), false, 'a mark exists: a first move fails');
      assert.equal(await store.getMark(key), '0');
      const moves = await Promise.all(
        ['1900000000000000010', '1900000000000000011', '1900000000000000012'].map((to) =>
          store.advanceMark(key, '0', to),
        ),
      );
      assert.equal(moves.filter(Boolean).length, 1, `one winner among ${moves.join(', ')}`);
      const won = await store.getMark(key);
      assert.equal(await store.advanceMark(key, '0', '1900000000000000013'), false, 'a stale mover loses');
      assert.equal(await store.advanceMark(key, won, '1900000000000000013'), true);
      assert.equal(await store.getMark(key), '1900000000000000013');
      await store.close();
    });

    test('deliveries: outcomes, newest first, the latest kept, pending ones never dropped', async () => {
      const store = await open();
      const w = watchOf();
      await store.addWatch(w);
      const pending = deliveryOf(w.id);
      await store.addDelivery(pending);
      const done: DeliveryRecord[] = [];
      for (let i = 0; i < KEPT_DELIVERIES + 5; i++) {
        const d = deliveryOf(w.id);
        await store.addDelivery(d);
        const delivered = { ...d, status: 'delivered' as const, attempts: 1, lastStatus: 200 };
        await store.updateDelivery(delivered);
        done.push(delivered);
      }
      const recent = await store.recentDeliveries(w.id, 100);
      assert.equal(recent[0]?.id, done.at(-1)!.id, 'newest first');
      assert.deepEqual(recent[0], done.at(-1));
      assert.ok(recent.length <= KEPT_DELIVERIES + 1);
      assert.ok(
        (await store.pendingDeliveries()).some((d) => d.id === pending.id),
        'the pending one is kept',
      );
      assert.deepEqual(await store.getDelivery(pending.id), pending);
      await store.updateDelivery({ ...pending, status: 'failed', attempts: 4, lastError: 'HTTP 500' });
      assert.ok(!(await store.pendingDeliveries()).some((d) => d.id === pending.id));
      assert.equal((await store.getDelivery(pending.id))?.lastError, 'HTTP 500');
      await store.deleteWatch(w.id);
      assert.deepEqual(await store.recentDeliveries(w.id, 10), []);
      await store.close();
    });
  });
}
