import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isIPv4 } from 'node:net';
import fc from 'fast-check';
import { clientKey, isPlainIPv4 } from '../../../src/stores/limits/client-key.ts';
import { mostConstrained, rateLimitHeaders } from '../../../src/stores/limits/headers.ts';
import { Limiter } from '../../../src/stores/limits/limiter.ts';
import { RedisWindow } from '../../../src/stores/limits/redis-window.ts';
import { accountKeyPolicy, type LimitState, POLICIES, type Policy } from '../../../src/stores/limits/policies.ts';
import { createRedisClient } from '../../../src/stores/redis/connect.ts';
import { DEAD_REDIS_URL, redisSkip, useTestRedis, uniquePrefix } from './redis-env.ts';

test('policies are exactly the contract, plus live-key (the budget of keyed live reads), the export ones, media-ip and the per-call translation and poll ones', () => {
  assert.deepEqual(
    Object.values(POLICIES).map((p) => [p.name, p.quota, p.windowS]),
    [
      ['api-ip', 600, 60],
      ['search-ip', 5, 60],
      ['search-key', 30, 60],
      ['account-ip', 10, 900],
      ['live-key', 120, 60],
      ['export-ip', 5, 900],
      ['export-key', 30, 900],
      ['media-ip', 1200, 60],
      ['translate-ip', 100, 60],
      ['translate-key', 600, 60],
      ['poll-ip', 150, 900],
      ['poll-key', 1500, 900],
    ],
  );
  assert.deepEqual(accountKeyPolicy(42), { name: 'account-key', quota: 42, windowS: 900 });
});

function limiterContract(make: () => Limiter) {
  const cases: Policy[] = [...Object.values(POLICIES), accountKeyPolicy(7)];
  for (const policy of cases) {
    test(`${policy.name} allows exactly ${policy.quota} then denies`, async () => {
      const limiter = make();
      const who = `who-${policy.name}`;
      for (let i = 1; i <= policy.quota; i++) {
        const s = await limiter.consume(policy, who);
        assert.equal(s.allowed, true, `request ${i}`);
        assert.equal(s.remaining, policy.quota - i);
        assert.equal(s.limit, policy.quota);
        assert.equal(s.policy, policy.name);
      }
      const denied = await limiter.consume(policy, who);
      assert.equal(denied.allowed, false);
      assert.equal(denied.remaining, 0);
      assert.ok(denied.resetS >= 1 && denied.resetS <= policy.windowS, `resetS ${denied.resetS}`);
      assert.ok(denied.resetS >= policy.windowS - 2, 'window just started');
      // Another partition is independent.
      assert.equal((await limiter.consume(policy, `${who}-other`)).remaining, policy.quota - 1);
    });
  }

  test('peek reports without charging', async () => {
    const limiter = make();
    const fresh = await limiter.peek('search-ip', 'peeker');
    assert.deepEqual(fresh, { allowed: true, policy: 'search-ip', limit: 5, windowS: 60, remaining: 5, resetS: 60 });
    await limiter.consume('search-ip', 'peeker', 2);
    const after2 = await limiter.peek('search-ip', 'peeker');
    assert.equal(after2.remaining, 3);
    assert.equal((await limiter.peek('search-ip', 'peeker')).remaining, 3);
  });

  test('points > 1 and reset', async () => {
    const limiter = make();
    assert.equal((await limiter.consume('account-ip', 'bulk', 4)).remaining, 6);
    await limiter.reset('account-ip', 'bulk');
    assert.equal((await limiter.peek('account-ip', 'bulk')).remaining, 10);
  });

  test('a refund never lands in the next window', async () => {
    const limiter = make();
    const tiny: Policy = { name: 'search-ip', quota: 1, windowS: 1 };
    const first = await limiter.consume(tiny, 'late-refund');
    assert.ok(first.windowEndsAt! > Date.now() && first.windowEndsAt! <= Date.now() + 1000);
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal(await limiter.refund(tiny, 'late-refund', first.windowEndsAt!), false, 'the window is over');
    assert.equal((await limiter.consume(tiny, 'late-refund')).allowed, true);
    assert.equal((await limiter.consume(tiny, 'late-refund')).allowed, false, 'no extra allowance in the new window');
    const inWindow = await limiter.consume(accountKeyPolicy(1), 'in-window');
    assert.equal(await limiter.refund(accountKeyPolicy(1), 'in-window', inWindow.windowEndsAt!), true);
    assert.equal((await limiter.consume(accountKeyPolicy(1), 'in-window')).allowed, true, 'refunded inside its window');
  });

  test('account-key quotas differ per key', async () => {
    const limiter = make();
    const small = accountKeyPolicy(1);
    const big = accountKeyPolicy(3);
    assert.equal((await limiter.consume(small, 'key-a')).allowed, true);
    assert.equal((await limiter.consume(small, 'key-a')).allowed, false);
    assert.equal((await limiter.consume(big, 'key-b')).remaining, 2);
  });
}

describe('Limiter in memory', () => {
  limiterContract(() => new Limiter());
});

describe('Limiter on Redis (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();

  limiterContract(() => new Limiter({ redis: t.redis, prefix: t.prefix }));

  test('counters are shared by instances', async () => {
    const a = new Limiter({ redis: t.redis, prefix: t.prefix });
    const b = new Limiter({ redis: t.peer, prefix: t.prefix });
    for (let i = 0; i < 3; i++) await a.consume('search-ip', 'shared');
    for (let i = 0; i < 2; i++) await b.consume('search-ip', 'shared');
    const s = await b.consume('search-ip', 'shared');
    assert.equal(s.allowed, false);
    assert.equal((await a.peek('search-ip', 'shared')).remaining, 0);
    assert.ok(await t.redis.exists(`${t.prefix}rl:search-ip:shared`));
  });

  test('the window script gives a refund only to a live window, never below zero, and never opens one', async () => {
    const window = new RedisWindow(t.redis);
    const key = `${t.prefix}rl:search-ip:refunds`;
    assert.equal(await window.refund(key, 1), false, 'no window, nothing to give back to');
    assert.equal(await t.redis.exists(key), 0, 'and no counter left behind');
    const charged = await window.consume(key, 2, 5, 60_000);
    assert.deepEqual([charged.allowed, charged.consumed], [true, 2]);
    assert.equal(await window.refund(key, 5), true);
    assert.equal(await t.redis.get(key), '0', 'floored at zero');
    const pttl = await t.redis.pttl(key);
    assert.ok(pttl > 0 && pttl <= 60_000, 'the window keeps its end');
    const over = await window.consume(key, 6, 5, 60_000, true);
    assert.deepEqual([over.allowed, over.consumed], [false, 0], 'only-if-allowed: a refusal charges nothing');
    assert.equal((await window.peek(key))?.consumed, 0);
  });
});

test('Limiter with Redis unreachable degrades to in-process counting', async () => {
  const dead = createRedisClient(DEAD_REDIS_URL);
  dead.connect().catch(() => {});
  try {
    const limiter = new Limiter({ redis: dead, prefix: uniquePrefix() });
    for (let i = 4; i >= 0; i--) assert.equal((await limiter.consume('search-ip', 'x')).remaining, i);
    assert.equal((await limiter.consume('search-ip', 'x')).allowed, false);
    assert.equal((await limiter.peek('search-ip', 'x')).remaining, 0);
  } finally {
    dead.disconnect();
  }
});

const state = (o: Partial<LimitState> & Pick<LimitState, 'policy'>): LimitState => ({
  allowed: true,
  limit: 600,
  windowS: 60,
  remaining: 599,
  resetS: 60,
  ...o,
});

describe('rateLimitHeaders', () => {
  test('one policy: exact structured-field strings and triple', () => {
    assert.deepEqual(rateLimitHeaders([state({ policy: 'api-ip' })]), {
      'RateLimit-Policy': '"api-ip";q=600;w=60',
      RateLimit: '"api-ip";r=599;t=60',
      'RateLimit-Limit': '600',
      'RateLimit-Remaining': '599',
      'RateLimit-Reset': '60',
    });
  });

  test('several policies are listed; the triple reports the most constrained', () => {
    const h = rateLimitHeaders([
      state({ policy: 'api-ip', remaining: 598, resetS: 42 }),
      state({ policy: 'search-ip', limit: 5, remaining: 1, resetS: 17 }),
    ]);
    assert.equal(h['RateLimit-Policy'], '"api-ip";q=600;w=60, "search-ip";q=5;w=60');
    assert.equal(h.RateLimit, '"api-ip";r=598;t=42, "search-ip";r=1;t=17');
    assert.equal(h['RateLimit-Limit'], '5');
    assert.equal(h['RateLimit-Remaining'], '1');
    assert.equal(h['RateLimit-Reset'], '17');
    assert.equal(h['Retry-After'], undefined);
  });

  test('exhaustion adds Retry-After and reports the denying policy', () => {
    const h = rateLimitHeaders([
      state({ policy: 'api-ip', remaining: 0, resetS: 5 }),
      state({ policy: 'account-key', limit: 50, windowS: 900, allowed: false, remaining: 0, resetS: 812 }),
    ]);
    assert.equal(h['RateLimit-Policy'], '"api-ip";q=600;w=60, "account-key";q=50;w=900');
    assert.equal(h['Retry-After'], '812');
    assert.equal(h['RateLimit-Limit'], '50');
    assert.equal(h['RateLimit-Reset'], '812');
  });

  test('no states, no headers', () => {
    assert.deepEqual(rateLimitHeaders([]), {});
  });

  test('mostConstrained breaks remaining ties by the longer wait', () => {
    const a = state({ policy: 'search-ip', remaining: 0, resetS: 10 });
    const b = state({ policy: 'account-ip', remaining: 0, resetS: 700 });
    assert.equal(mostConstrained([a, b]).policy, 'account-ip');
  });
});

describe('clientKey', () => {
  test('IPv4 as is', () => {
    assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
  });
  test('IPv6 grouped by /64, normalized', () => {
    assert.equal(clientKey('2001:db8:85a3:0001:abcd::1'), '2001:db8:85a3:1::/64');
    assert.equal(clientKey('2001:DB8:85A3:1:ffff:ffff:ffff:ffff'), '2001:db8:85a3:1::/64');
    assert.equal(clientKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientKey('::1'), '0:0:0:0::/64');
    assert.equal(clientKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(clientKey('[2001:db8:1:2::3]'), '2001:db8:1:2::/64');
  });
  test('IPv4-mapped IPv6 is the IPv4 address', () => {
    assert.equal(clientKey('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(clientKey('::FFFF:c000:0201'), '192.0.2.1');
  });
  test('non-addresses pass through', () => {
    assert.equal(clientKey('unknown'), 'unknown');
  });
  test('the IPv4 scan accepts exactly what isIPv4 accepts', () => {
    for (const s of ['0.0.0.0', '255.255.255.255', '01.2.3.4', '1.2.3.04', '256.1.1.1', '1.2.3', '1.2.3.4.5', '1..2.3'])
      assert.equal(isPlainIPv4(s), isIPv4(s), s);
    for (const s of [' 1.2.3.4', '1.2.3.4 ', '1.2.3.', '.1.2.3', '1.2.3.a', '::ffff:1.2.3.4', '1.2.3.1000'])
      assert.equal(isPlainIPv4(s), false, s);
    fc.assert(fc.property(fc.ipV4(), (s) => isPlainIPv4(s)));
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9.]{0,16}$/), (s) => isPlainIPv4(s) === isIPv4(s)),
      { numRuns: 20_000 },
    );
  });
});
