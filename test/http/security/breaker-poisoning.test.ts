// Nobody can switch a provider off for everyone. Ids the platform cannot have issued are
// answered 404 without an upstream call; an upstream 4xx (other than 429) is about the request, not the
// provider's health; and a breaker opened by one capability leaves the provider's other capabilities alone.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { problemOf, startStack, type Stack } from '../../helpers/stack.ts';
import { HANDLES, IDS, SEARCH_TERMS } from '../../../sim/corpus.ts';

let s: Stack | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const fxCalls = () => s!.sim.calls({ target: 'fxtwitter' });

async function readPost(id: string): Promise<Response> {
  const res = await s!.get(`/api/v1/posts?handle=${HANDLES.alice}&id=${id}&thread=off`);
  return res;
}

describe('breaker poisoning', () => {
  test('ids no platform post can have are 404 not_found with no upstream call, on every route shape', async () => {
    s = await startStack();
    const bogus = [
      '1234567890123456789012', // 22 digits: passes the contract pattern, FxTwitter answers 400
      '12345678901234567890', // 20 digits
      '9223372036854775808', // 2^63: 19 digits, beyond a signed 64-bit snowflake
      '99999999999999999999999',
    ];
    const before = fxCalls();
    for (let round = 0; round < 3; round++) {
      for (const id of bogus) {
        for (const path of [
          `/api/v1/posts?handle=${HANDLES.alice}&id=${id}`,
          `/${HANDLES.alice}/status/${id}`,
          `/api/v1/posts?url=https://x.com/${HANDLES.alice}/status/${id}`,
          `/api/v1/oembed?url=https://x.com/${HANDLES.alice}/status/${id}`,
        ]) {
          const res = await s.get(path, { headers: { accept: 'application/json' } });
          assert.equal(res.status, 404, path);
          assert.equal((await problemOf(res)).code, 'not_found', path);
        }
      }
    }
    assert.equal(fxCalls(), before, 'no upstream was asked');
    const real = await readPost(IDS.threadRoot);
    assert.equal(real.status, 200);
    assert.equal(real.headers.get('x-source'), 'fxtwitter', 'the default provider still serves');
    // The largest signed 64-bit value is still a possible id: it is looked up (and is simply not there).
    const max = await readPost('9223372036854775807');
    assert.equal(max.status, 404);
    assert.ok(fxCalls() > before);
  });

  test('an upstream 400 never counts towards the breaker', async () => {
    s = await startStack({ THREADMARK_BREAKER_THRESHOLD: '3' });
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 400, match: '/2/status/1111111111111111111' });
    for (let i = 0; i < 10; i++) {
      const res = await readPost('1111111111111111111');
      await res.arrayBuffer();
      assert.notEqual(res.status, 200);
    }
    const health = s.app.chain.health().find((p) => p.name === 'fxtwitter')!;
    assert.equal(health.breaker, 'closed');
    const real = await readPost(IDS.threadRoot);
    assert.equal(real.status, 200);
    assert.equal(real.headers.get('x-source'), 'fxtwitter');
  });

  test('a breaker opened by search failures leaves post reads on the same provider', async () => {
    s = await startStack({ THREADMARK_BREAKER_THRESHOLD: '3', THREADMARK_UPSTREAM_RETRIES: '0' });
    s.sim.addFault({ target: 'fxtwitter', kind: 'status', status: 500, match: '/2/search' });
    for (let i = 0; i < 4; i++) {
      const res = await s.get(`/api/v1/search?q=${SEARCH_TERMS.caching}&nocache=true`, {
        headers: { 'x-forwarded-for': `10.9.9.${i}` },
      });
      await res.arrayBuffer();
      assert.ok(res.status >= 500, `search ${i}: ${res.status}`);
    }
    const before = fxCalls();
    const skipped = await s.get(`/api/v1/search?q=${SEARCH_TERMS.threadmark}&nocache=true`);
    await skipped.arrayBuffer();
    assert.equal(fxCalls(), before, 'search on fxtwitter is skipped while its breaker is open');
    const post = await readPost(IDS.threadRoot);
    assert.equal(post.status, 200);
    assert.equal(post.headers.get('x-source'), 'fxtwitter', 'post reads keep their own breaker');
  });
});

test('/docs/reliability documents the safeguards and their trade-offs', async () => {
  s = await startStack();
  const html = await (await s.get('/docs/reliability')).text();
  for (const id of [
    'safeguards',
    'conditional-requests-are-charged',
    'impossible-status-ids',
    'breakers-per-capability',
    'refund-window',
    'credentials-stay-home',
    'linear-text-handling',
    'client-identity',
    'mcp-batches',
    'keyed-budget',
    'admin-surface',
    'upstream-values',
    'cli-terminal-output',
  ]) {
    assert.match(html, new RegExp(`id="${id}"`), id);
  }
});
