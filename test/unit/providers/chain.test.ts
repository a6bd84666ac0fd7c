import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderChain } from '../../../src/providers/chain.ts';
import { buildProviders, registerProvider, registeredProviders } from '../../../src/providers/registry.ts';
import { Problem } from '../../../src/problems/problem.ts';
import { ProviderError, type Capability, type FailureKind, type Provider } from '../../../src/providers/types.ts';

function fake(name: string, caps: Capability[], outcome: string | FailureKind | Error, opts: { retryAfterS?: number; status?: number } = {}) {
  const calls: string[] = [];
  const p: Provider & { calls: string[] } = {
    name,
    calls,
    capabilities: () => new Set(caps),
    async getPost(id: string) {
      calls.push(id);
      if (outcome instanceof Error) throw outcome;
      if (outcome.startsWith('ok')) return { id, from: name } as never;
      throw new ProviderError(name, outcome as FailureKind, `${name} said ${outcome}`, opts);
    },
  };
  return p;
}

const getPost = (p: Provider) => p.getPost!('7', {});

async function problemOf(p: Promise<unknown>): Promise<Problem> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof Problem, String(e));
    return e;
  }
  throw new Error('expected a Problem');
}

test('first capable provider that answers wins; incapable ones are not called', async () => {
  const a = fake('a', ['profile'], 'ok');
  const b = fake('b', ['post'], 'ok');
  const r = await new ProviderChain([a, b]).run('post', getPost);
  assert.equal(r.source, 'b');
  assert.deepEqual(a.calls, []);
});

test('error, empty, network and unavailable fall through; not_found stops the chain', async () => {
  for (const kind of ['error', 'empty', 'network', 'unavailable'] as const) {
    const r = await new ProviderChain([fake('a', ['post'], kind), fake('b', ['post'], 'ok')]).run('post', getPost);
    assert.equal(r.source, 'b', kind);
  }
  const c = fake('c', ['post'], 'ok');
  const p = await problemOf(new ProviderChain([fake('a', ['post'], 'not_found'), c]).run('post', getPost));
  assert.equal(p.code, 'not_found');
  assert.equal(p.status, 404);
  assert.deepEqual(c.calls, []);
});

test('one failed provider gives <name>_<kind>; unavailable reads as <name>_error', async () => {
  const net = await problemOf(new ProviderChain([fake('fxtwitter', ['post'], 'network')]).run('post', getPost));
  assert.deepEqual([net.code, net.status], ['fxtwitter_network', 502]);
  const un = await problemOf(new ProviderChain([fake('x', ['post'], 'unavailable')]).run('post', getPost));
  assert.equal(un.code, 'x_error');
  const empty = await problemOf(new ProviderChain([fake('fxtwitter', ['post'], 'empty'), fake('y', ['profile'], 'ok')]).run('post', getPost));
  assert.equal(empty.code, 'fxtwitter_empty');
});

test('several failures give all_providers_failed listing each one', async () => {
  const p = await problemOf(
    new ProviderChain([fake('fxtwitter', ['post'], 'error', { status: 500 }), fake('syndication', ['post'], 'network')]).run('post', getPost),
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

test('an unexpected exception counts as that provider failing; Problems and aborts pass straight through', async () => {
  const r = await new ProviderChain([fake('a', ['post'], new TypeError('boom')), fake('b', ['post'], 'ok')]).run('post', getPost);
  assert.equal(r.source, 'b');

  const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
  const b = fake('b', ['post'], 'ok');
  await assert.rejects(new ProviderChain([fake('a', ['post'], abort), b]).run('post', getPost), (e: unknown) => e === abort);
  assert.deepEqual(b.calls, []);

  const ac = new AbortController();
  ac.abort();
  await assert.rejects(new ProviderChain([fake('a', ['post'], 'error'), b]).run('post', getPost, { signal: ac.signal }), ProviderError);
});

test('no capable provider: upstream_error, or search_unavailable with Retry-After for search', async () => {
  const none = await problemOf(new ProviderChain([fake('a', ['post'], 'ok')]).run('profile', getPost));
  assert.deepEqual([none.code, none.status], ['upstream_error', 502]);
  const s = await problemOf(new ProviderChain([fake('a', ['post'], 'ok')]).run('search:users', getPost, { search: true }));
  assert.deepEqual([s.code, s.status, s.headers['Retry-After']], ['search_unavailable', 503, '30']);
});

test('search failures answer 503; all-unavailable becomes search_unavailable with the shortest Retry-After', async () => {
  const err = await problemOf(new ProviderChain([fake('fxtwitter', ['search:latest'], 'error')]).run('search:latest', getPost, { search: true }));
  assert.deepEqual([err.code, err.status, err.headers['Retry-After']], ['fxtwitter_error', 503, '30']);
  const un = await problemOf(
    new ProviderChain([fake('x', ['search:latest'], 'unavailable', { retryAfterS: 120 }), fake('y', ['search:latest'], 'unavailable', { retryAfterS: 45 })]).run(
      'search:latest',
      getPost,
      { search: true },
    ),
  );
  assert.deepEqual([un.code, un.status, un.headers['Retry-After']], ['search_unavailable', 503, '45']);
});

test('`only` pins the run to the provider that issued a cursor', async () => {
  const a = fake('a', ['post'], 'ok');
  const b = fake('b', ['post'], 'ok');
  const r = await new ProviderChain([a, b]).run('post', getPost, { only: 'b' });
  assert.equal(r.source, 'b');
  assert.deepEqual(a.calls, []);
  const p = await problemOf(new ProviderChain([a]).run('post', getPost, { only: 'gone' }));
  assert.equal(p.code, 'upstream_error');
});

test('repeated failures open the circuit: the provider is skipped until the cooldown ends', async () => {
  let now = 0;
  const a = fake('a', ['post'], 'network');
  const b = fake('b', ['post'], 'ok');
  const chain = new ProviderChain([a, b], { circuit: { threshold: 2, cooldownMs: 1000 }, now: () => now });
  await chain.run('post', getPost);
  await chain.run('post', getPost);
  assert.equal(a.calls.length, 2);
  await chain.run('post', getPost);
  assert.equal(a.calls.length, 2, 'skipped while open');
  now = 1500;
  await chain.run('post', getPost);
  assert.equal(a.calls.length, 3, 'one trial after the cooldown');
  // With every capable provider open, they are still tried rather than answering nothing.
  const lone = fake('lone', ['post'], 'error');
  const solo = new ProviderChain([lone], { circuit: { threshold: 1, cooldownMs: 10_000 }, now: () => now });
  await problemOf(solo.run('post', getPost));
  await problemOf(solo.run('post', getPost));
  assert.equal(lone.calls.length, 2);
});

test('registry builds providers in configured order, skips unknown names and accepts new factories', () => {
  const cfg = { order: ['syndication', 'nope', 'fxtwitter', 'syndication'], fxtwitterUrl: 'http://fx', syndicationUrl: 'http://syn', timeoutMs: 8000 };
  assert.deepEqual(buildProviders(cfg).map((p) => p.name), ['syndication', 'fxtwitter']);
  registerProvider('nope', () => fake('nope', ['post'], 'ok'));
  assert.ok(registeredProviders().includes('nope'));
  assert.deepEqual(buildProviders(cfg).map((p) => p.name), ['syndication', 'nope', 'fxtwitter']);
  registerProvider('nope', () => undefined);
  assert.deepEqual(buildProviders(cfg).map((p) => p.name), ['syndication', 'fxtwitter']);
});
