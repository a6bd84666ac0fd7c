// Found by the load test (bench/load.ts): reads of deleted or unknown posts, where fxtwitter answers a bare 404
// ("empty", it may be its account pool) and the next provider says "not found", counted as fxtwitter failures,
// so a handful of such reads opened its breaker and turned every uncached read into a 502 for 30 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProviderChain } from '../../../src/providers/chain.ts';
import { serve } from '../../helpers/chain.ts';
import { isNotFound } from '../../../src/domain/failures.ts';
import { ProviderError, type Capability, type FailureKind, type Provider } from '../../../src/providers/types.ts';
import { FREE_READ } from '../../helpers/payer.ts';

function fake(name: string, outcome: FailureKind | 'ok'): Provider {
  return {
    name,
    capabilities: () => new Set<Capability>(['post']),
    async getPost(id: string) {
      if (outcome === 'ok') return { id, from: name } as never;
      throw new ProviderError(name, outcome, `${name} said ${outcome}`);
    },
  };
}

test('an empty answer followed by a positive not_found elsewhere does not count against the breaker', async () => {
  const chain = new ProviderChain([fake('a', 'empty'), fake('b', 'not_found')], {
    circuit: { threshold: 2, cooldownMs: 30_000 },
    now: () => 0,
  });
  for (let i = 0; i < 5; i++) {
    await assert.rejects(serve(chain.run('post', (p) => p.getPost!('1', {}), FREE_READ)), isNotFound);
  }
  const health = chain.health() as { name: string; breaker: string; failures: number }[];
  assert.equal(health[0]!.breaker, 'closed');
  assert.equal(health[0]!.failures, 0);
});

test('an empty answer still counts when another provider had the content, or when nobody answered', async () => {
  const served = new ProviderChain([fake('a', 'empty'), fake('b', 'ok')], {
    circuit: { threshold: 2, cooldownMs: 30_000 },
    now: () => 0,
  });
  for (let i = 0; i < 2; i++)
    assert.equal((await serve(served.run('post', (p) => p.getPost!('1', {}), FREE_READ))).source, 'b');
  assert.equal((served.health() as { breaker: string }[])[0]!.breaker, 'open');

  const none = new ProviderChain([fake('a', 'empty'), fake('b', 'error')], {
    circuit: { threshold: 2, cooldownMs: 30_000 },
    now: () => 0,
  });
  for (let i = 0; i < 2; i++) await assert.rejects(serve(none.run('post', (p) => p.getPost!('1', {}), FREE_READ)));
  assert.equal((none.health() as { breaker: string }[])[0]!.breaker, 'open');
});
