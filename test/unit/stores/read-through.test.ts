import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AllowanceRefused, SourceError, type ChainFailure } from '../../../src/domain/failures.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import { Coalescer, RedisFillLock, type FillLock } from '../../../src/stores/cache/coalesce.ts';
import { MemoryCache } from '../../../src/stores/cache/memory.ts';
import { cachedRead, isUpstreamFailure } from '../../../src/stores/cache/read-through.ts';
import { RedisCache } from '../../../src/stores/cache/redis.ts';
import type { Cache } from '../../../src/stores/cache/types.ts';
import { redisSkip, useTestRedis, sleep } from './redis-env.ts';

const notFound = (detail: string) => new SourceError({ kind: 'not_found', detail });

/** Every provider failed: the read has no answer and a stale copy may stand in. */
function allFailed(): SourceError {
  const failure: ChainFailure = {
    kind: 'failed',
    failures: [
      { provider: 'fxtwitter', kind: 'error', message: 'down' },
      { provider: 'syndication', kind: 'network', message: 'reset' },
    ],
    skipped: [],
    untried: [],
  };
  return new SourceError({ kind: 'no_answer', failure, answer: {} });
}

const LONG = { freshMs: 60_000, staleMs: 60_000, bypass: false };

/** A promise with its resolver: the event a test waits on instead of a fixed sleep. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Waits for `p`, failing the test after `ms` so a missed event is a clear failure, not a hang. */
async function within<T>(p: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A fake upstream that counts its calls and can be told to fail. `started` settles on the first call;
 * a `hold` keeps every call open until the test lets it finish.
 */
function upstream<T>(value: T, delayMs = 0) {
  const started = deferred();
  const u = {
    calls: 0,
    fail: undefined as Error | undefined,
    hold: undefined as Promise<void> | undefined,
    started: started.promise,
    load: async (): Promise<T> => {
      u.calls++;
      started.resolve();
      if (delayMs) await sleep(delayMs);
      if (u.hold) await u.hold;
      if (u.fail) throw u.fail;
      return value;
    },
  };
  return u;
}

/** A fill lock that records what each acquire answered; `refused` settles when one found the lock held. */
function observedLock(lock: FillLock) {
  const refused = deferred();
  const answers: Array<string | null | undefined> = [];
  const observed: FillLock & { answers: typeof answers; refused: Promise<void> } = {
    waitMs: lock.waitMs,
    pollMs: lock.pollMs,
    answers,
    refused: refused.promise,
    async acquire(key) {
      const token = await lock.acquire(key);
      answers.push(token);
      if (token === null) refused.resolve();
      return token;
    },
    release: (key, token) => lock.release(key, token),
  };
  return observed;
}

/** A coalescer that reports each `run` call, i.e. each time a reader leads or joins a fill. */
class CountingCoalescer extends Coalescer {
  runs = 0;
  readonly #waiters: Array<{ n: number; resolve: () => void }> = [];

  override run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const p = super.run(key, fn);
    this.runs++;
    for (const w of this.#waiters) if (this.runs >= w.n) w.resolve();
    return p;
  }

  reached(n: number): Promise<void> {
    const d = deferred();
    if (this.runs >= n) d.resolve();
    else this.#waiters.push({ n, resolve: d.resolve });
    return d.promise;
  }
}

/**
 * Wraps a cache so its first read is answered only once `until` settles: that reader saw a miss
 * before someone else filled the key, and acts on it after the fill is done.
 */
function staleFirstRead(cache: Cache, until: Promise<void>) {
  const missed = deferred();
  let first = true;
  const wrapped: Cache & { missed: Promise<void> } = {
    missed: missed.promise,
    async get(key) {
      const entry = await cache.get(key);
      if (first) {
        first = false;
        missed.resolve();
        await until;
      }
      return entry;
    },
    set: (key, value, freshMs, staleMs) => cache.set(key, value, freshMs, staleMs),
    delete: (key) => cache.delete(key),
    close: () => cache.close(),
  };
  return wrapped;
}

function readThroughContract(makeCache: () => Cache) {
  test('miss loads and stores, then a fresh read is a hit without loading', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    const up = upstream({ id: '1' });
    const first = await cachedRead(cache, c, 'k1', LONG, up.load);
    assert.deepEqual(first, { value: { id: '1' }, cacheStatus: 'miss', charged: true, warnings: [] });
    const second = await cachedRead(cache, c, 'k1', LONG, up.load);
    assert.deepEqual(second, { value: { id: '1' }, cacheStatus: 'hit', charged: false, warnings: [] });
    assert.equal(up.calls, 1);
  });

  test('bypass always loads and refreshes the entry', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k2', 'old', 60_000, 60_000);
    const up = upstream('new');
    const r = await cachedRead(cache, c, 'k2', { ...LONG, bypass: true }, up.load);
    assert.equal(r.cacheStatus, 'bypass');
    assert.equal(r.value, 'new');
    assert.equal(r.charged, true);
    assert.equal((await cache.get('k2'))?.value, 'new');
  });

  test('a stale entry is reloaded (miss) when the upstream answers', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k3', 'old', 0, 60_000);
    const up = upstream('new');
    const r = await cachedRead(cache, c, 'k3', LONG, up.load);
    assert.equal(r.cacheStatus, 'miss');
    assert.equal(r.value, 'new');
  });

  test('stale-if-error: upstream failure with a stale copy serves it with a warning', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k4', { id: 'cached' }, 0, 60_000);
    const up = upstream('never');
    up.fail = allFailed();
    const r = await cachedRead(cache, c, 'k4', LONG, up.load);
    assert.equal(r.cacheStatus, 'stale');
    assert.deepEqual(r.value, { id: 'cached' });
    assert.equal(r.charged, true);
    assert.equal(r.warnings.length, 1);
    assert.match(r.warnings[0]!, /^stale: upstream failed \(all_providers_failed\)/);
  });

  test('stale-if-error also covers nocache requests', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k5', 'cached', 60_000, 60_000);
    const up = upstream('never');
    up.fail = new ProviderError('fxtwitter', 'network', 'socket hang up');
    const r = await cachedRead(cache, c, 'k5', { ...LONG, bypass: true }, up.load);
    assert.equal(r.cacheStatus, 'stale');
    assert.equal(r.value, 'cached');
    assert.match(r.warnings[0]!, /fxtwitter_network/);
  });

  test('not_found and caller errors propagate even with a stale copy', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    await cache.set('k6', 'cached', 0, 60_000);
    for (const err of [
      notFound('gone'),
      new ProviderError('fxtwitter', 'not_found', 'gone'),
      new AllowanceRefused('search-ip', 60),
    ]) {
      const up = upstream('x');
      up.fail = err;
      await assert.rejects(cachedRead(cache, c, 'k6', LONG, up.load), (e) => e === err);
    }
  });

  test('a "not found" is remembered for negativeMs and answered again without loading', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    const up = upstream('x');
    up.fail = new SourceError({ kind: 'not_found', detail: 'nobody is @nb1', source: 'x' });
    const opts = { ...LONG, negativeMs: 60_000 };
    await assert.rejects(cachedRead(cache, c, 'neg1', opts, up.load), (e) => e === up.fail);
    const again = await cachedRead(cache, c, 'neg1', opts, up.load).then(
      () => assert.fail('a hit'),
      (e: unknown) => e,
    );
    assert.ok(again instanceof SourceError);
    assert.deepEqual(again.failure, { kind: 'not_found', detail: 'nobody is @nb1', source: 'x', cached: true });
    assert.equal(up.calls, 1);
    const off = upstream('x');
    off.fail = notFound('gone');
    await assert.rejects(cachedRead(cache, c, 'neg2', LONG, off.load));
    await assert.rejects(cachedRead(cache, c, 'neg2', LONG, off.load));
    assert.equal(off.calls, 2, 'without negativeMs nothing is remembered');
  });

  test('an unconfirmed "not found" never replaces a copy that can stand in; a confirmed one does', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    const opts = { ...LONG, negativeMs: 60_000 };
    await cache.set('neg3', 'cached', 0, 60_000);
    const unconfirmed = upstream('x');
    unconfirmed.fail = new SourceError({ kind: 'not_found', detail: 'bare 404', confirmed: false });
    const r = await cachedRead(cache, c, 'neg3', opts, unconfirmed.load);
    assert.equal(r.cacheStatus, 'stale');
    assert.equal((await cache.get('neg3'))?.value, 'cached');
    const gone = upstream('x');
    gone.fail = notFound('deleted');
    await assert.rejects(cachedRead(cache, c, 'neg3', opts, gone.load), (e) => e === gone.fail);
    await assert.rejects(
      cachedRead(cache, c, 'neg3', opts, gone.load),
      (e) => e instanceof SourceError && e.failure.kind === 'not_found' && e.failure.detail === 'deleted',
    );
    assert.equal(gone.calls, 1, 'the deletion is remembered; the stale copy no longer stands in');
  });

  test('upstream failure without any copy propagates', async () => {
    const cache = makeCache();
    const up = upstream('x');
    up.fail = Object.assign(new Error('bad gateway'), { status: 502 });
    await assert.rejects(cachedRead(cache, new Coalescer(), 'k7', LONG, up.load), /bad gateway/);
    assert.equal(await cache.get('k7'), undefined, 'failures are not cached');
  });

  test('N concurrent misses for one key make one upstream call; only the leader is charged', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    const up = upstream({ n: 1 }, 30);
    const results = await Promise.all(Array.from({ length: 10 }, () => cachedRead(cache, c, 'k8', LONG, up.load)));
    assert.equal(up.calls, 1);
    assert.ok(results.every((r) => r.cacheStatus === 'miss' && r.value.n === 1));
    assert.equal(results.filter((r) => r.charged).length, 1);
    assert.equal(c.inflight, 0);
  });

  test('a reader that missed before an earlier fill finished answers from it instead of loading again', async () => {
    const cache = makeCache();
    const c = new Coalescer();
    const firstFillDone = deferred();
    const late = staleFirstRead(cache, firstFillDone.promise);
    const up = upstream({ n: 1 });
    const lateRead = cachedRead(late, c, 'k10', LONG, up.load);
    await within(late.missed, 'the late reader to see the miss');
    const first = await cachedRead(cache, c, 'k10', LONG, up.load);
    firstFillDone.resolve();
    const second = await lateRead;
    assert.equal(up.calls, 1);
    assert.equal(first.charged, true);
    assert.deepEqual(second, { value: { n: 1 }, cacheStatus: 'miss', charged: false, warnings: [] });
  });
}

describe('cachedRead over MemoryCache', () => {
  readThroughContract(() => new MemoryCache());

  test('a joiner that inherits the leader’s 429 retries with its own load', async () => {
    const cache = new MemoryCache();
    const c = new CountingCoalescer();
    const leaderMayFail = deferred();
    const leader = upstream('x');
    leader.fail = new AllowanceRefused('live-key', 60);
    leader.hold = leaderMayFail.promise;
    const joiner = upstream('joined');
    const leaderRead = cachedRead(cache, c, 'k9', LONG, leader.load);
    await within(leader.started, 'the leader’s load');
    const joinerRead = cachedRead(cache, c, 'k9', LONG, joiner.load);
    await within(c.reached(2), 'the joiner to join the leader’s fill');
    leaderMayFail.resolve();
    const [a, b] = await Promise.allSettled([leaderRead, joinerRead]);
    assert.equal(a.status, 'rejected');
    assert.equal(b.status, 'fulfilled');
    assert.equal(b.status === 'fulfilled' && b.value.value, 'joined');
    assert.equal(leader.calls, 1);
    assert.equal(joiner.calls, 1);
    assert.equal(c.runs, 3, 'leader, the joiner joining, the joiner retrying on its own');
  });
});

test('isUpstreamFailure classifies errors', () => {
  assert.equal(isUpstreamFailure(new ProviderError('x', 'error', 'm')), true);
  assert.equal(isUpstreamFailure(new ProviderError('x', 'unavailable', 'm')), true);
  assert.equal(isUpstreamFailure(new ProviderError('x', 'not_found', 'm')), false);
  assert.equal(isUpstreamFailure(allFailed()), true);
  assert.equal(isUpstreamFailure(new SourceError({ kind: 'no_trends_provider' })), true);
  assert.equal(isUpstreamFailure(notFound('gone')), false);
  assert.equal(isUpstreamFailure(new SourceError({ kind: 'not_found', detail: 'bare 404', confirmed: false })), true);
  assert.equal(isUpstreamFailure(new AllowanceRefused('live-key', 60)), false);
  assert.equal(isUpstreamFailure(Object.assign(new Error('x'), { status: 503 })), true);
  assert.equal(isUpstreamFailure(new TypeError('bug')), false);
});

describe('cachedRead over RedisCache (real Redis)', { skip: redisSkip }, () => {
  const t = useTestRedis();

  readThroughContract(() => new RedisCache(t.redis, { prefix: t.prefix }));

  /** Two "instances": separate clients, caches and coalescers sharing only Redis. */
  function instances() {
    const a = {
      cache: new RedisCache(t.redis, { prefix: t.prefix }),
      c: new Coalescer({ lock: new RedisFillLock(t.redis, { prefix: t.prefix, pollMs: 10 }) }),
    };
    const bLock = observedLock(new RedisFillLock(t.peer, { prefix: t.prefix, pollMs: 10 }));
    const b = { cache: new RedisCache(t.peer, { prefix: t.prefix }), c: new Coalescer({ lock: bLock }), lock: bLock };
    return { a, b };
  }

  /**
   * A reads `key` and holds the lock while its load stays open; B reads once A's load has started and
   * A's load finishes only after B has found the lock held. Answers both reads, settled.
   */
  async function whileAHoldsTheLock<T>(
    key: string,
    aLoad: ReturnType<typeof upstream<T>>,
    bLoad: ReturnType<typeof upstream<T>>,
  ) {
    const { a, b } = instances();
    const aMayFinish = deferred();
    aLoad.hold = aMayFinish.promise;
    const aRead = cachedRead(a.cache, a.c, key, LONG, aLoad.load);
    // The load runs only once A holds the lock.
    await within(aLoad.started, 'A to take the lock and load');
    const bRead = cachedRead(b.cache, b.c, key, LONG, bLoad.load);
    await within(b.lock.refused, 'B to find the lock held');
    aMayFinish.resolve();
    const [ra, rb] = await Promise.allSettled([aRead, bRead]);
    return { ra, rb, bAnswers: b.lock.answers };
  }

  test('two instances with RedisFillLock: the second waits for the first fill instead of loading', async () => {
    const up = upstream({ shared: true });
    const settled = await whileAHoldsTheLock('lock1', up, up);
    assert.ok(settled.ra.status === 'fulfilled' && settled.rb.status === 'fulfilled');
    const [ra, rb] = [settled.ra.value, settled.rb.value];
    assert.equal(up.calls, 1);
    assert.deepEqual(ra.value, { shared: true });
    assert.deepEqual(rb.value, { shared: true });
    assert.equal(ra.charged, true);
    assert.equal(rb.charged, false);
    assert.equal(rb.cacheStatus, 'miss', 'B waited for the fill rather than reading a finished entry');
    assert.deepEqual(settled.bAnswers, [null], 'B never held the lock');
    assert.equal(await t.redis.exists(`${t.prefix}l:lock1`), 0, 'lock released');
  });

  test('a waiter takes over when the lock holder fails without filling', async () => {
    const failing = upstream('x');
    failing.fail = allFailed();
    const working = upstream('from b');
    const { ra, rb, bAnswers } = await whileAHoldsTheLock<string>('lock2', failing, working);
    assert.equal(ra.status, 'rejected');
    assert.equal(rb.status === 'fulfilled' && rb.value.value, 'from b');
    assert.equal(failing.calls, 1);
    assert.equal(working.calls, 1);
    assert.equal(bAnswers[0], null, 'B first found the lock held');
    assert.equal(typeof bAnswers.at(-1), 'string', 'then took it over');
    assert.equal(await t.redis.exists(`${t.prefix}l:lock2`), 0, 'lock released');
  });

  test('an instance whose read missed before a peer filled and released does not load again', async () => {
    const { a, b } = instances();
    const peerDone = deferred();
    const late = staleFirstRead(b.cache, peerDone.promise);
    const up = upstream({ shared: true });
    const bRead = cachedRead(late, b.c, 'lock3', LONG, up.load);
    await within(late.missed, 'B to see the miss');
    const ra = await cachedRead(a.cache, a.c, 'lock3', LONG, up.load);
    assert.equal(await t.redis.exists(`${t.prefix}l:lock3`), 0, 'A released the lock before B goes on');
    peerDone.resolve();
    const rb = await bRead;
    assert.equal(up.calls, 1);
    assert.equal(ra.charged, true);
    assert.deepEqual(rb, { value: { shared: true }, cacheStatus: 'miss', charged: false, warnings: [] });
    assert.equal(typeof b.lock.answers[0], 'string', 'B took the free lock, then found the fill');
    assert.equal(await t.redis.exists(`${t.prefix}l:lock3`), 0, 'lock released');
  });
});
