// Every upstream call has a payer, through the real server against the simulator with short watch intervals: the
// background reads of an anonymous WebSub subscription are charged to the subscribing address and those of a watch
// to its key (each X session call to the account allowance, each read to the poll allowance), and stop when the
// payer has nothing left; an address holds a bounded number of live subscriptions, on a short lease; expired
// subscriptions are purged; translations are charged per upstream call; and /metrics counts upstream calls by payer
// kind, which add up to every call the simulator received.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LIST_IDS } from '../../sim/corpus-lists.ts';
import { NO_FILTER } from '../../src/domain/feed-filters.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { TRANSLATED_HANDLES as TH, TRANSLATED_IDS as TI } from '../../sim/corpus-translations.ts';
import { startSimulator, type Simulator } from '../../sim/server.ts';
import { problemOf, startStack, TEST_BASE, type Stack } from '../helpers/stack.ts';
import { startReceiver, type Receiver, type Received } from '../helpers/receiver.ts';
import { until } from '../helpers/wait.ts';
import { writeSessions } from '../helpers/x-sessions.ts';

const FAST = {
  THREADMARK_WEBHOOK_ALLOW_PRIVATE: 'true',
  THREADMARK_WATCH_INTERVALS_MS: 'profile=100,search=100,thread=100,list=100',
  THREADMARK_TRUST_PROXY: 'true',
};

const echo = (r: Received) => {
  if (r.method !== 'GET') return { status: 204 };
  return { status: 200, body: new URL(r.url, 'http://x').searchParams.get('hub.challenge') ?? '' };
};

const dir = mkdtempSync(join(tmpdir(), 'threadmark-payers-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Points of `policy` the partition has used in its current window. */
async function used(s: Stack, policy: 'account-ip' | 'poll-ip' | 'translate-ip', partition: string) {
  const state = await s.app.services.stores.limiter.peek(policy, partition);
  return state.limit - state.remaining;
}

/** Waits `n` watch intervals (a bound on what may still happen, not an assertion that it happens in time). */
const intervals = (n: number) => new Promise((r) => setTimeout(r, n * 100));

describe('background reads are charged to the followers that keep them alive', () => {
  let sim: Simulator;
  let s: Stack;
  let r: Receiver;

  /** The service with X sessions, on the one simulator and key store (a restart finds what the last one kept). */
  const withSessions = () =>
    startStack(
      {
        ...FAST,
        THREADMARK_PROVIDERS: 'fxtwitter,syndication,x',
        THREADMARK_X_SESSIONS: writeSessions(dir, 'payers'),
        THREADMARK_KEYS_DB: join(dir, 'keys.db'),
      },
      { sim },
    );

  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    s = await withSessions();
    r = await startReceiver(echo);
  });
  after(async () => {
    await s.close();
    await sim.close();
    await r.close();
  });

  const subscribe = (address: string, fields: Record<string, string>) =>
    s.get('/api/v1/hub', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
      body: new URLSearchParams({ 'hub.mode': 'subscribe', ...fields }).toString(),
    });

  test('anonymous subscriptions to an account-backed source: every X call charged to the address, then paused', async () => {
    const address = '10.39.0.1';
    const before = sim.calls({ target: 'x' });
    for (const cb of ['a', 'b', 'c']) {
      const res = await subscribe(address, {
        'hub.topic': `${TEST_BASE}/i/lists/${LIST_IDS.caching}/rss`,
        'hub.callback': `${r.url}/anon-${cb}`,
      });
      assert.equal(res.status, 202);
    }
    await s.app.push.hub.settled();
    await until(
      async () => (await used(s, 'account-ip', address)) === 10,
      'the address pays until its allowance is spent',
    );
    await intervals(10);
    const calls = sim.calls({ target: 'x' }) - before;
    assert.equal(calls, 10, 'X was called exactly as often as the address paid, and no more once it had nothing left');
    assert.equal(await used(s, 'account-ip', address), 10);
    assert.ok((await used(s, 'poll-ip', address)) > 0, 'each background read is charged to the poll allowance');
  });

  test('a watch on an account-backed source: every X call charged to its key, then paused', async () => {
    const issued = await s.app.services.stores.keys.create({ name: 'payer', accountQuota: 4 });
    const before = sim.calls({ target: 'x' });
    const res = await s.get('/api/v1/watches', {
      method: 'POST',
      headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: `/i/lists/${LIST_IDS.pair}`, callback: `${r.url}/keyed` }),
    });
    assert.equal(res.status, 201, await res.text());
    const accountKey = async () => {
      const p = { name: 'account-key' as const, quota: 4, windowS: 900 };
      const st = await s.app.services.stores.limiter.peek(p, issued.id);
      return st.limit - st.remaining;
    };
    await until(async () => (await accountKey()) === 4, 'the key pays until its account allowance is spent');
    await intervals(10);
    assert.equal(sim.calls({ target: 'x' }) - before, 4, 'X was called exactly as often as the key paid');
    const pollKey = await s.app.services.stores.limiter.peek('poll-key', issued.id);
    assert.ok(pollKey.remaining < pollKey.limit, 'each background read is charged to the key');
  });

  test('an address holds a bounded number of live subscriptions, each on a short lease', async () => {
    const address = '10.39.0.2';
    const handles = Object.values(HANDLES).slice(0, 10);
    assert.equal(handles.length, 10);
    for (const [i, h] of handles.entries()) {
      const res = await subscribe(address, {
        'hub.topic': `${TEST_BASE}/${h}/rss`,
        'hub.callback': `${r.url}/many-${i}`,
      });
      assert.equal(res.status, 202);
    }
    await s.app.push.hub.settled();
    const over = await subscribe(address, {
      'hub.topic': `${TEST_BASE}/search/rss?q=caching`,
      'hub.callback': `${r.url}/many-over`,
    });
    assert.equal(over.status, 409);
    assert.equal((await problemOf(over)).code, 'too_many_subscriptions');
    const renewal = await subscribe(address, {
      'hub.topic': `${TEST_BASE}/${handles[0]}/rss`,
      'hub.callback': `${r.url}/many-0`,
      'hub.lease_seconds': '999999999',
    });
    assert.equal(renewal.status, 202, 'renewing one the address holds is not a new one');
    await s.app.push.hub.settled();
    const verify = r
      .of('GET')
      .filter((g) => g.url.startsWith('/many-0'))
      .at(-1)!;
    assert.equal(new URL(verify.url, 'http://x').searchParams.get('hub.lease_seconds'), '86400', 'leases last a day');
  });

  test('expired subscriptions are purged from the store at start', async () => {
    const store = s.app.services.stores.watches;
    const expired = {
      id: 'sub_expired0000000000000000000000',
      topic: `${TEST_BASE}/${HANDLES.bob}/rss`,
      sourceKey: `profile:${HANDLES.bob}:posts`,
      target: { kind: 'profile' as const, handle: HANDLES.bob, feed: 'posts' as const },
      filter: NO_FILTER,
      callback: `${r.url}/expired`,
      leaseSeconds: 60,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
      createdAt: new Date(Date.now() - 61_000).toISOString(),
      subscriber: '10.39.0.3',
    };
    await store.putSubscription(expired);
    await s.close();
    s = await withSessions();
    await until(
      async () => (await s.app.services.stores.watches.getSubscriptionById(expired.id)) === undefined,
      'purged',
    );
  });
});

test('/docs/reliability lists every allowance with what it pays for', async () => {
  const s = await startStack({}, { push: false });
  try {
    const html = await (await s.get('/docs/reliability')).text();
    assert.ok(html.includes('id="allowances"'));
    for (const policy of [
      'api-ip',
      'search-ip',
      'search-key',
      'account-ip',
      'account-key',
      'live-key',
      'export-ip',
      'export-key',
      'media-ip',
      'translate-ip',
      'translate-key',
      'poll-ip',
      'poll-key',
      'watch-key',
      'hub-ip',
      'admin-fail',
    ])
      assert.ok(html.includes(`<td><code>${policy}</code></td>`), policy);
  } finally {
    await s.close();
  }
});

describe('translations are charged per upstream call; variants of a language share one read', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_TRUST_PROXY: 'true' });
  });
  after(() => s.close());

  const translateCalls = () => s.sim.calls({ target: 'fxtwitter', path: 'lang=' });

  test('six German tags: one upstream read, each upstream call one translate-ip point', async () => {
    const address = '10.39.1.1';
    const path = `/${TH.kenji}/status/${TI.jaRoot}?format=json&lang=`;
    const first = await s.get(`${path}de-AT`, { headers: { 'x-forwarded-for': address } });
    assert.equal(first.status, 200);
    const body = (await first.json()) as { post: { translation?: { to: string } } };
    assert.equal(body.post.translation?.to, 'de');
    const calls = translateCalls();
    assert.ok(calls > 0);
    assert.equal(await used(s, 'translate-ip', address), calls, 'each upstream translation call is one point');
    for (const tag of ['de-CH', 'de-DE', 'de-LU', 'de-1996', 'de-Latn']) {
      const res = await s.get(`${path}${tag}`, { headers: { 'x-forwarded-for': address } });
      assert.equal(res.status, 200, tag);
      await res.arrayBuffer();
    }
    assert.equal(translateCalls(), calls, 'the variants asked the upstream nothing more');
    assert.equal(await used(s, 'translate-ip', address), calls);
  });
});

describe('a used-up translation allowance', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_TRUST_PROXY: 'true' });
  });
  after(() => s.close());

  test('asks the upstream nothing: the read is answered untranslated, with a warning', async () => {
    const address = '10.39.3.1';
    await s.app.services.stores.limiter.consume('translate-ip', address, 100);
    const before = s.sim.calls({ target: 'fxtwitter', path: 'lang=' });
    const res = await s.get(`/${TH.kenji}/status/${TI.jaRoot}?format=json&lang=it`, {
      headers: { 'x-forwarded-for': address },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { post: { translation?: unknown }; warnings: string[] };
    assert.equal(body.post.translation, undefined);
    assert.ok(
      body.warnings.some((w) => w.includes('translate-ip')),
      body.warnings.join(' | '),
    );
    assert.match(res.headers.get('ratelimit-policy') ?? '', /"translate-ip";q=100;w=60/);
    assert.equal(s.sim.calls({ target: 'fxtwitter', path: 'lang=' }), before, 'no translation call went out');
  });
});

describe('upstream calls by payer kind in /metrics', () => {
  let s: Stack;
  let r: Receiver;
  before(async () => {
    s = await startStack(FAST);
    r = await startReceiver(echo);
  });
  after(async () => {
    await s.close();
    await r.close();
  });

  /** threadmark_upstream_calls_by_payer_total samples: "payer/call" → count. */
  async function byPayer(): Promise<Map<string, number>> {
    const text = await (await s.get('/metrics')).text();
    const out = new Map<string, number>();
    for (const m of text.matchAll(/^threadmark_upstream_calls_by_payer_total\{payer="(\w+)",call="(\w+)"\} (\d+)$/gm))
      out.set(`${m[1]}/${m[2]}`, Number(m[3]));
    return out;
  }

  test('reads, polls and translations of keys and addresses: every upstream call is attributed', async () => {
    const issued = await s.app.services.stores.keys.create({ name: 'metrics' });
    const keyed = { headers: { authorization: `Bearer ${issued.key}`, 'x-forwarded-for': '10.39.2.2' } };
    const anon = { headers: { 'x-forwarded-for': '10.39.2.1' } };
    const read = async (path: string, init: RequestInit) => {
      const res = await s.get(path, init);
      assert.equal(res.status, 200, path);
      await res.arrayBuffer();
    };
    await read(`/${HANDLES.alice}/status/${IDS.threadRoot}`, anon);
    await read(`/api/v1/profiles/${HANDLES.bob}?format=json`, keyed);
    await read(`/${TH.kenji}/status/${TI.jaRoot}?lang=fr`, anon);
    // Post reads are public whatever the header says (the contract): their translations are the address's.
    await read(`/${TH.kenji}/status/${TI.jaRoot}?lang=es`, keyed);
    const hub = await s.get('/api/v1/hub', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.39.2.1' },
      body: new URLSearchParams({
        'hub.mode': 'subscribe',
        'hub.topic': `${TEST_BASE}/${HANDLES.carol}/rss`,
        'hub.callback': `${r.url}/metrics`,
      }).toString(),
    });
    assert.equal(hub.status, 202);
    const watch = await s.get('/api/v1/watches', {
      method: 'POST',
      headers: { ...keyed.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ source: `/${HANDLES.dave}`, callback: `${r.url}/metrics-watch` }),
    });
    assert.equal(watch.status, 201);
    await until(async () => {
      const m = await byPayer();
      return (m.get('address/poll') ?? 0) >= 2 && (m.get('key/poll') ?? 0) >= 2;
    }, 'polls of both followers');
    await s.app.push.close();
    const m = await byPayer();
    for (const k of ['address/read', 'key/read', 'address/translation', 'address/poll', 'key/poll'])
      assert.ok((m.get(k) ?? 0) > 0, `${k} counted: ${JSON.stringify([...m])}`);
    const attributed = [...m.values()].reduce((a, b) => a + b, 0);
    // The media proxy is off here: its fetches are charged through the same counter once wired (chargeFor).
    assert.equal(attributed, s.sim.calls(), 'every call the upstreams received was made for a payer and counted');
  });
});
