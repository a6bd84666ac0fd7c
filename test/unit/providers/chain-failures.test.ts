// The chain reports why a read has no answer as a typed value; the problem and status are the caller's choice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureOf } from '../../../src/sources/served.ts';
import { toProblem } from '../../../src/http/failures/problem-of.ts';
import { ProviderChain } from '../../../src/providers/chain.ts';
import { ProviderError, type Capability, type FailureKind, type Provider } from '../../../src/providers/types.ts';
import { FREE_READ } from '../../helpers/payer.ts';

function fake(name: string, outcome: FailureKind | 'ok', opts: { status?: number; retryAfterS?: number } = {}) {
  const p: Provider = {
    name,
    capabilities: () => new Set<Capability>(['post']),
    async getPost(id: string) {
      if (outcome === 'ok') return { id } as never;
      throw new ProviderError(name, outcome, `${name} said ${outcome}`, opts);
    },
  };
  return p;
}

const getPost = (p: Provider) => p.getPost!('7', {});

test('an answer carries its source; a definite "not found" is gone, naming who said it', async () => {
  assert.deepEqual(await new ProviderChain([fake('a', 'error'), fake('b', 'ok')]).run('post', getPost, FREE_READ), {
    ok: true,
    value: { id: '7' },
    source: 'b',
  });
  assert.deepEqual(
    await new ProviderChain([fake('a', 'unconfirmed'), fake('b', 'not_found')]).run('post', getPost, FREE_READ),
    {
      ok: false,
      failure: { kind: 'gone', provider: 'b', message: 'b said not_found' },
    },
  );
});

test('"not found" nobody vouched for is unconfirmed, with what each provider said', async () => {
  const r = await new ProviderChain([fake('a', 'unconfirmed', { status: 404 })]).run('post', getPost, FREE_READ);
  assert.deepEqual(r, {
    ok: false,
    failure: {
      kind: 'unconfirmed',
      failures: [
        { provider: 'a', kind: 'unconfirmed', message: 'a said unconfirmed', status: 404, retryAfterS: undefined },
      ],
    },
  });
});

test('every provider failing is one failed value, whatever status the read will answer with', async () => {
  const chain = new ProviderChain([fake('a', 'network'), fake('b', 'error', { status: 500 })]);
  const r = await chain.run('post', getPost, FREE_READ);
  assert.ok(!r.ok);
  assert.equal(r.failure.kind, 'failed');
  assert.deepEqual(r.failure.kind === 'failed' && r.failure.failures.map((f) => [f.provider, f.kind, f.status]), [
    ['a', 'network', undefined],
    ['b', 'error', 500],
  ]);
  // The caller decides: the same failure is a 502 for a post read and a 503 with Retry-After for a search.
  const post = toProblem(failureOf(r.failure));
  const search = toProblem(failureOf(r.failure, { search: true }));
  assert.deepEqual([post.code, post.status, post.headers['Retry-After']], ['all_providers_failed', 502, undefined]);
  assert.deepEqual([search.code, search.status, search.headers['Retry-After']], ['all_providers_failed', 503, '30']);
});

test('providers skipped by their breaker carry the wait; with others asked they are only named', async () => {
  const solo = new ProviderChain([fake('a', 'network')], {
    circuit: { threshold: 1, cooldownMs: 10_000 },
    now: () => 0,
  });
  await solo.run('post', getPost, FREE_READ);
  const skipped = await solo.run('post', getPost, FREE_READ);
  assert.ok(!skipped.ok && skipped.failure.kind === 'failed');
  assert.deepEqual(
    skipped.failure.failures.map((f) => [f.provider, f.kind, f.skippedForS]),
    [['a', 'network', 10]],
  );
  assert.deepEqual(skipped.failure.skipped, []);

  const pair = new ProviderChain([fake('a', 'network'), fake('b', 'ok')], {
    circuit: { threshold: 1, cooldownMs: 10_000 },
    now: () => 0,
  });
  assert.ok((await pair.run('post', getPost, FREE_READ)).ok, 'a failed and opened; b answered');
  const mixed = await pair.run(
    'post',
    (p, o) => (p.name === 'b' ? Promise.reject(new Error('boom')) : p.getPost!('7', o)),
    FREE_READ,
  );
  assert.ok(!mixed.ok && mixed.failure.kind === 'failed');
  assert.deepEqual(mixed.failure.skipped, ['a']);
});

test('no capable provider is no_provider, with the parked one that has the capability back soonest', async () => {
  const parked = (name: string, waitS: number): Provider => ({
    name,
    capabilities: () => new Set(),
    retryAfterS: (cap) => (cap === 'search:latest' ? waitS : undefined),
  });
  const chain = new ProviderChain([fake('fx', 'ok'), parked('x', 420), parked('y', 60)]);
  const want = { kind: 'no_provider', capability: 'search:latest', parked: { provider: 'y', waitS: 60 } };
  assert.deepEqual(await chain.run('search:latest', getPost, FREE_READ), { ok: false, failure: want });
  assert.deepEqual(chain.unservable('search:latest'), want, 'refusable before the read starts');
  assert.equal(chain.unservable('post'), undefined);
  assert.deepEqual(chain.unservable('post', 'gone'), { kind: 'no_provider', capability: 'post', only: 'gone' });
});
