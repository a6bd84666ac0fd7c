import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderChain } from '../../../src/providers/chain.ts';
import { serve } from '../../helpers/chain.ts';
import { Circuit } from '../../../src/providers/circuit.ts';
import { Deadline } from '../../../src/providers/deadline.ts';
import { buildProviders, registerProvider, registeredProviders } from '../../../src/providers/registry.ts';
import type { Problem } from '../../../src/problems/problem.ts';
import { AllowanceRefused, SourceError } from '../../../src/domain/failures.ts';
import { toProblem } from '../../../src/http/failures/problem-of.ts';
import { ProviderError, type Capability, type FailureKind, type Provider } from '../../../src/providers/types.ts';
import { FREE_READ } from '../../helpers/payer.ts';

function fake(
  name: string,
  caps: Capability[],
  outcome: 'ok' | FailureKind | Error,
  opts: { retryAfterS?: number; status?: number } = {},
) {
  const calls: string[] = [];
  const p: Provider & { calls: string[] } = {
    name,
    calls,
    capabilities: () => new Set(caps),
    async getPost(id: string) {
      calls.push(id);
      if (outcome instanceof Error) throw outcome;
      if (outcome === 'ok') return { id, from: name } as never;
      throw new ProviderError(name, outcome, `${name} said ${outcome}`, opts);
    },
  };
  return p;
}

const getPost = (p: Provider) => p.getPost!('7', {});

/** The problem the read answers with: the source's typed failure, as the edge maps it. */
async function problemOf(p: Promise<unknown>): Promise<Problem> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof SourceError, String(e));
    return toProblem(e);
  }
  throw new Error('expected a failure');
}

test('first capable provider that answers wins; incapable ones are not called', async () => {
  const a = fake('a', ['profile'], 'ok');
  const b = fake('b', ['post'], 'ok');
  const r = await serve(new ProviderChain([a, b]).run('post', getPost, FREE_READ));
  assert.equal(r.source, 'b');
  assert.deepEqual(a.calls, []);
});

test('error, empty, network and unavailable fall through; not_found stops the chain', async () => {
  for (const kind of ['error', 'empty', 'network', 'unavailable'] as const) {
    const r = await serve(
      new ProviderChain([fake('a', ['post'], kind), fake('b', ['post'], 'ok')]).run('post', getPost, FREE_READ),
    );
    assert.equal(r.source, 'b', kind);
  }
  const c = fake('c', ['post'], 'ok');
  const p = await problemOf(
    serve(new ProviderChain([fake('a', ['post'], 'not_found'), c]).run('post', getPost, FREE_READ)),
  );
  assert.equal(p.code, 'not_found');
  assert.equal(p.status, 404);
  assert.deepEqual(c.calls, []);
});

test('one failed provider gives <name>_<kind>; unavailable reads as <name>_error', async () => {
  const net = await problemOf(
    serve(new ProviderChain([fake('fxtwitter', ['post'], 'network')]).run('post', getPost, FREE_READ)),
  );
  assert.deepEqual([net.code, net.status], ['fxtwitter_network', 502]);
  const un = await problemOf(
    serve(new ProviderChain([fake('x', ['post'], 'unavailable')]).run('post', getPost, FREE_READ)),
  );
  assert.equal(un.code, 'x_error');
  const empty = await problemOf(
    serve(
      new ProviderChain([fake('fxtwitter', ['post'], 'empty'), fake('y', ['profile'], 'ok')]).run(
        'post',
        getPost,
        FREE_READ,
      ),
    ),
  );
  assert.equal(empty.code, 'fxtwitter_empty');
});

test('several failures give all_providers_failed listing each one', async () => {
  const p = await problemOf(
    serve(
      new ProviderChain([
        fake('fxtwitter', ['post'], 'error', { status: 500 }),
        fake('syndication', ['post'], 'network'),
      ]).run('post', getPost, FREE_READ),
    ),
  );
  assert.equal(p.code, 'all_providers_failed');
  assert.equal(p.status, 502);
  assert.match(p.detail, /fxtwitter: error \(HTTP 500\)/);
  assert.match(p.detail, /syndication: network/);
  assert.deepEqual(p.extensions.failures, [
    { provider: 'fxtwitter', kind: 'error', status: 500 },
    { provider: 'syndication', kind: 'network' },
  ]);
});

test('an unexpected exception counts as that provider failing; refused charges and aborts pass straight through', async () => {
  const r = await serve(
    new ProviderChain([fake('a', ['post'], new TypeError('boom')), fake('b', ['post'], 'ok')]).run(
      'post',
      getPost,
      FREE_READ,
    ),
  );
  assert.equal(r.source, 'b');

  const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
  const b = fake('b', ['post'], 'ok');
  await assert.rejects(
    serve(new ProviderChain([fake('a', ['post'], abort), b]).run('post', getPost, FREE_READ)),
    (e: unknown) => e === abort,
  );
  assert.deepEqual(b.calls, []);

  const refused = new AllowanceRefused('account-ip', 60);
  await assert.rejects(
    serve(new ProviderChain([fake('a', ['post'], refused), b]).run('post', getPost, FREE_READ)),
    (e: unknown) => e === refused,
  );
  assert.deepEqual(b.calls, []);

  const ac = new AbortController();
  ac.abort();
  await assert.rejects(
    serve(
      new ProviderChain([fake('a', ['post'], 'error'), b]).run('post', getPost, { ...FREE_READ, signal: ac.signal }),
    ),
    ProviderError,
  );
});

test('no capable provider: upstream_error, or search_unavailable with Retry-After for search', async () => {
  const none = await problemOf(
    serve(new ProviderChain([fake('a', ['post'], 'ok')]).run('profile', getPost, FREE_READ)),
  );
  assert.deepEqual([none.code, none.status], ['upstream_error', 502]);
  const s = await problemOf(
    serve(new ProviderChain([fake('a', ['post'], 'ok')]).run('search:users', getPost, FREE_READ), { search: true }),
  );
  assert.deepEqual([s.code, s.status, s.headers['Retry-After']], ['search_unavailable', 503, '30']);
});

test('search failures answer 503; all-unavailable becomes search_unavailable with the shortest Retry-After', async () => {
  const err = await problemOf(
    serve(new ProviderChain([fake('fxtwitter', ['search:latest'], 'error')]).run('search:latest', getPost, FREE_READ), {
      search: true,
    }),
  );
  assert.deepEqual([err.code, err.status, err.headers['Retry-After']], ['fxtwitter_error', 503, '30']);
  const un = await problemOf(
    serve(
      new ProviderChain([
        fake('x', ['search:latest'], 'unavailable', { retryAfterS: 120 }),
        fake('y', ['search:latest'], 'unavailable', { retryAfterS: 45 }),
      ]).run('search:latest', getPost, FREE_READ),
      { search: true },
    ),
  );
  assert.deepEqual([un.code, un.status, un.headers['Retry-After']], ['search_unavailable', 503, '45']);
});

test('`only` pins the run to the provider that issued a cursor', async () => {
  const a = fake('a', ['post'], 'ok');
  const b = fake('b', ['post'], 'ok');
  const r = await serve(new ProviderChain([a, b]).run('post', getPost, { ...FREE_READ, only: 'b' }));
  assert.equal(r.source, 'b');
  assert.deepEqual(a.calls, []);
  const p = await problemOf(serve(new ProviderChain([a]).run('post', getPost, { ...FREE_READ, only: 'gone' })));
  assert.equal(p.code, 'upstream_error');
});

test('repeated failures open the circuit: the provider is skipped until the cooldown ends', async () => {
  let now = 0;
  const a = fake('a', ['post'], 'network');
  const b = fake('b', ['post'], 'ok');
  const chain = new ProviderChain([a, b], { circuit: { threshold: 2, cooldownMs: 1000 }, now: () => now });
  await serve(chain.run('post', getPost, FREE_READ));
  await serve(chain.run('post', getPost, FREE_READ));
  assert.equal(a.calls.length, 2);
  assert.equal(chain.health()[0]!.breaker, 'open');
  await serve(chain.run('post', getPost, FREE_READ));
  assert.equal(a.calls.length, 2, 'skipped while open');
  now = 1500;
  assert.equal(chain.health()[0]!.breaker, 'half-open');
  await serve(chain.run('post', getPost, FREE_READ));
  assert.equal(a.calls.length, 3, 'one trial after the cooldown');
  assert.equal(chain.health()[0]!.breaker, 'open', 'the failed trial re-opens the circuit');
  await serve(chain.run('post', getPost, FREE_READ));
  assert.equal(a.calls.length, 3);
});

test('a skipped provider is named in the detail when another one was tried and failed', async () => {
  const a = fake('a', ['post'], 'network');
  const b = fake('b', ['post'], 'error');
  const chain = new ProviderChain([a, b], { circuit: { threshold: 1, cooldownMs: 1000 }, now: () => 0 });
  assert.equal((await problemOf(serve(chain.run('post', getPost, FREE_READ)))).code, 'all_providers_failed');
  const p = await problemOf(serve(chain.run('post', getPost, FREE_READ)));
  assert.equal(a.calls.length, 1);
  assert.equal(p.code, 'all_providers_failed', 'b is open too: both reported from their last failures');
  const c = fake('c', ['post'], 'empty');
  const mixed = new ProviderChain([a, c], { circuit: { threshold: 1, cooldownMs: 1000 }, now: () => 0 });
  const first = await serve(
    mixed.run('post', (p, o) => (p === c ? Promise.resolve({ id: '7' } as never) : p.getPost!('7', o)), FREE_READ),
  );
  assert.equal(first.source, 'c', 'a failed and opened; c answered');
  const one = await problemOf(serve(mixed.run('post', getPost, FREE_READ)));
  assert.equal(one.code, 'c_empty');
  assert.match(one.detail, /Skipped while failing repeatedly: a\./);
});

test('with every capable provider open the read fails at once with their last failure', async () => {
  let now = 0;
  const lone = fake('fxtwitter', ['search:latest'], 'network');
  const solo = new ProviderChain([lone], { circuit: { threshold: 1, cooldownMs: 10_000 }, now: () => now });
  assert.equal((await problemOf(serve(solo.run('search:latest', getPost, FREE_READ)))).code, 'fxtwitter_network');
  const fast = await problemOf(serve(solo.run('search:latest', getPost, FREE_READ), { search: true }));
  assert.equal(lone.calls.length, 1, 'not asked while open');
  assert.deepEqual([fast.code, fast.status, fast.headers['Retry-After']], ['fxtwitter_network', 503, '10']);
  assert.match(fast.detail, /not asked for the next 10 s/);
  now = 4000;
  assert.equal(
    (await problemOf(serve(solo.run('search:latest', getPost, FREE_READ), { search: true }))).headers['Retry-After'],
    '6',
  );
});

test('half-open lets exactly one trial through; concurrent reads keep skipping; success closes', async () => {
  let now = 0;
  let release!: () => void;
  let mode: 'fail' | 'hold' = 'fail';
  const calls: string[] = [];
  const a: Provider = {
    name: 'a',
    capabilities: () => new Set<Capability>(['post']),
    async getPost(id: string) {
      calls.push(id);
      if (mode === 'fail') throw new ProviderError('a', 'error', 'down', { status: 500 });
      await new Promise<void>((r) => (release = r));
      return { id, from: 'a' } as never;
    },
  };
  const b = fake('b', ['post'], 'ok');
  const chain = new ProviderChain([a, b], { circuit: { threshold: 1, cooldownMs: 1000 }, now: () => now });
  assert.equal((await serve(chain.run('post', getPost, FREE_READ))).source, 'b');
  assert.equal(chain.health()[0]!.breaker, 'open');
  now = 1000;
  mode = 'hold';
  const trial = serve(chain.run('post', getPost, FREE_READ));
  const others = await Promise.all([
    serve(chain.run('post', getPost, FREE_READ)),
    serve(chain.run('post', getPost, FREE_READ)),
  ]);
  assert.deepEqual(
    others.map((r) => r.source),
    ['b', 'b'],
    'others skip while the trial runs',
  );
  assert.equal(calls.length, 2, 'exactly one trial call');
  assert.equal(chain.health()[0]!.breaker, 'half-open');
  release();
  assert.equal((await trial).source, 'a');
  assert.equal(chain.health()[0]!.breaker, 'closed');
  const after = serve(chain.run('post', getPost, FREE_READ));
  release();
  assert.equal((await after).source, 'a', 'closed again: the provider is asked first');
});

test('Circuit: threshold, cooldown, single trial, release without a verdict', () => {
  let now = 0;
  const c = new Circuit({ threshold: 3, cooldownMs: 100, now: () => now });
  c.failure();
  c.failure();
  assert.equal(c.state, 'closed');
  c.success();
  c.failure();
  c.failure();
  assert.equal(c.state, 'closed', 'a success resets the count of consecutive failures');
  c.failure();
  assert.equal(c.state, 'open');
  assert.equal(c.acquire(), undefined);
  assert.equal(c.retryInMs, 100);
  now = 100;
  assert.equal(c.state, 'half-open');
  assert.equal(c.acquire(), 'trial');
  assert.equal(c.acquire(), undefined, 'only one trial at a time');
  c.release('trial');
  assert.equal(c.acquire(), 'trial', 'a trial that proved nothing is handed back');
  c.failure('trial');
  assert.equal(c.state, 'open');
  now = 150;
  assert.equal(c.acquire(), undefined, 'cooldown restarts from the failed trial');
  now = 200;
  const t = c.acquire();
  assert.equal(t, 'trial');
  c.success(t);
  assert.equal(c.state, 'closed');
  assert.equal(c.acquire(), 'call');
});

test('a trial answered "unavailable" or aborted is handed back: the circuit stays half-open', async () => {
  let now = 0;
  let outcome: FailureKind | 'abort' = 'error';
  const calls: string[] = [];
  const a: Provider = {
    name: 'a',
    capabilities: () => new Set<Capability>(['post']),
    async getPost(id: string) {
      calls.push(id);
      if (outcome === 'abort') throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      throw new ProviderError('a', outcome, `a said ${outcome}`);
    },
  };
  const chain = new ProviderChain([a], { circuit: { threshold: 1, cooldownMs: 100 }, now: () => now });
  await problemOf(serve(chain.run('post', getPost, FREE_READ)));
  assert.equal(chain.health()[0]!.breaker, 'open');
  now = 100;
  outcome = 'unavailable';
  await problemOf(serve(chain.run('post', getPost, FREE_READ)));
  assert.equal(chain.health()[0]!.breaker, 'half-open');
  outcome = 'abort';
  await assert.rejects(serve(chain.run('post', getPost, FREE_READ)), { name: 'AbortError' });
  assert.equal(chain.health()[0]!.breaker, 'half-open');
  assert.equal(calls.length, 3, 'each read got the trial again');
  assert.equal(chain.health()[0]!.failures, 1, 'neither counts as a failure');
});

test('the deadline is handed to providers; once it has passed no further provider is asked', async () => {
  const seen: Array<Deadline | undefined> = [];
  const slow: Provider = {
    name: 'slow',
    capabilities: () => new Set<Capability>(['post']),
    async getPost(_id: string, o) {
      seen.push(o.deadline);
      await new Promise((r) => setTimeout(r, 40));
      throw new ProviderError('slow', 'network', 'slow did not answer before the request deadline');
    },
  };
  const b = fake('b', ['post'], 'ok');
  const chain = new ProviderChain([slow, b], { circuit: false, deadlineMs: 20 });
  const p = await problemOf(serve(chain.run('post', (p, o) => p.getPost!('7', o), FREE_READ)));
  assert.equal(p.code, 'slow_network');
  assert.match(p.detail, /Not tried, the request deadline had passed: b/);
  assert.deepEqual(b.calls, []);
  assert.ok(seen[0] instanceof Deadline);
  const shared = chain.deadline();
  const ok = new ProviderChain([b], { deadlineMs: 5000 });
  await serve(
    ok.run(
      'post',
      (p, o) => {
        assert.equal(o.deadline, shared, 'a deadline passed in is the one providers get');
        return p.getPost!('7', o);
      },
      { ...FREE_READ, deadline: shared },
    ),
  );
});

test('a provider the transport did not ask because the deadline passed meanwhile is reported as not tried', async () => {
  // The race seen under load: the first provider's own timeout fires a moment before the read's deadline, the
  // chain still sees time left and moves on, and the transport then finds the deadline gone and asks nobody.
  const slow = fake(
    'slow',
    ['post'],
    new ProviderError('slow', 'network', 'slow did not answer before the request deadline'),
  );
  const late = fake(
    'late',
    ['post'],
    new ProviderError('late', 'network', 'late was not asked: the request deadline had passed', { notAsked: true }),
  );
  const breakers = new ProviderChain([slow, late], { deadlineMs: 5000 });
  const p = await problemOf(serve(breakers.run('post', getPost, FREE_READ)));
  assert.equal(p.code, 'slow_network');
  assert.match(p.detail, /Not tried, the request deadline had passed: late/);
  assert.equal(breakers.health().find((h) => h.name === 'late')!.failures, 0, 'not asked is not a failure');
});
test('with less of the deadline left than an attempt needs, the next provider is not asked', async () => {
  // The race behind a flaky "every upstream stalled" read: the first provider's last call ends a hair before the
  // read's deadline, and the next one was started with a few milliseconds left, only to time out as a failure.
  const slow: Provider = {
    name: 'slow',
    capabilities: () => new Set<Capability>(['post']),
    async getPost() {
      await new Promise((r) => setTimeout(r, 60));
      throw new ProviderError('slow', 'network', 'slow did not answer before the request deadline');
    },
  };
  const b = fake('b', ['post'], 'ok');
  const chain = new ProviderChain([slow, b], { circuit: false, deadlineMs: 90 });
  const p = await problemOf(serve(chain.run('post', (p, o) => p.getPost!('7', o), FREE_READ)));
  assert.equal(p.code, 'slow_network');
  assert.match(p.detail, /Not tried, the request deadline had passed: b/);
  assert.deepEqual(b.calls, []);
});

test('search with no capable provider waits as long as a temporarily incapable one says', async () => {
  const x: Provider = {
    name: 'x',
    capabilities: () => new Set(),
    retryAfterS: (cap) => (cap === 'search:photos' ? 420 : undefined),
  };
  const s = await problemOf(
    serve(new ProviderChain([fake('fxtwitter', ['search:latest'], 'ok'), x]).run('search:photos', getPost, FREE_READ), {
      search: true,
    }),
  );
  assert.deepEqual([s.code, s.status, s.headers['Retry-After']], ['search_unavailable', 503, '420']);
  assert.match(s.detail, /first frees up in 420 s/);
  const none = await problemOf(serve(new ProviderChain([x]).run('search:users', getPost, FREE_READ), { search: true }));
  assert.equal(none.headers['Retry-After'], '30');
});

test('registry builds providers in configured order, skips unknown names and accepts new factories', () => {
  const cfg = {
    order: ['syndication', 'nope', 'fxtwitter', 'syndication'],
    fxtwitterUrl: 'http://fx',
    syndicationUrl: 'http://syn',
    timeoutMs: 8000,
  };
  assert.deepEqual(
    buildProviders(cfg).map((p) => p.name),
    ['syndication', 'fxtwitter'],
  );
  registerProvider('nope', () => fake('nope', ['post'], 'ok'));
  assert.ok(registeredProviders().includes('nope'));
  assert.deepEqual(
    buildProviders(cfg).map((p) => p.name),
    ['syndication', 'nope', 'fxtwitter'],
  );
  registerProvider('nope', () => undefined);
  assert.deepEqual(
    buildProviders(cfg).map((p) => p.name),
    ['syndication', 'fxtwitter'],
  );
});
