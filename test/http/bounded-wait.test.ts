// Bounded waits through the real server with the default timeouts: when every upstream stalls (the simulator
// accepts the request and never answers), a read still answers within 10 s, with the stale copy when there
// is one, else the provider problem. The per-call timeout and the deadline are the defaults of config.ts,
// not the short ones the other HTTP tests use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack } from '../helpers/stack.ts';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { loadConfig } from '../../src/config.ts';

const LIMIT_MS = 10_000;
/** Unset = the built-in default (the test helper otherwise shortens the call timeout to 2 s). */
const DEFAULTS = {
  THREADMARK_UPSTREAM_TIMEOUT_MS: undefined,
  THREADMARK_UPSTREAM_DEADLINE_MS: undefined,
} as unknown as Record<string, string>;

async function timed(p: Promise<Response>) {
  const t0 = performance.now();
  const res = await p;
  const body = await res.text();
  return { res, body, ms: performance.now() - t0 };
}

test('the default deadline fits in 10 s and both settings stay configurable', () => {
  const d = loadConfig({});
  assert.ok(d.upstreamDeadlineMs < LIMIT_MS, `default deadline ${d.upstreamDeadlineMs} ms`);
  assert.ok(d.upstreamTimeoutMs <= d.upstreamDeadlineMs);
  const set = loadConfig({ THREADMARK_UPSTREAM_TIMEOUT_MS: '12000', THREADMARK_UPSTREAM_DEADLINE_MS: '30000' });
  assert.deepEqual([set.upstreamTimeoutMs, set.upstreamDeadlineMs], [12000, 30000]);
  assert.throws(
    () => loadConfig({ THREADMARK_UPSTREAM_DEADLINE_MS: 'soon' }),
    /THREADMARK_UPSTREAM_DEADLINE_MS must be a number of milliseconds/,
  );
  assert.throws(() => loadConfig({ THREADMARK_UPSTREAM_TIMEOUT_MS: '50' }), /THREADMARK_UPSTREAM_TIMEOUT_MS/);
});

test('every upstream stalled: a cached post answers stale and an uncached one answers the provider problem, both within 10 s', async () => {
  const s = await startStack({ ...DEFAULTS, THREADMARK_CACHE_TTL_S: '1' });
  try {
    const cached = `/${HANDLES.alice}/status/${IDS.threadLast}?thread=off`;
    const uncached = `/${HANDLES.alice}/status/${IDS.threadVideo}`;
    assert.equal((await timed(s.get(cached))).res.status, 200);
    await new Promise((r) => setTimeout(r, 1100));

    // Every provider accepts the connection and never answers.
    s.sim.addFault({ target: '*', kind: 'timeout' });
    const [stale, none] = await Promise.all([timed(s.get(cached)), timed(s.get(uncached))]);

    assert.equal(stale.res.status, 200, stale.body.slice(0, 300));
    assert.equal(stale.res.headers.get('x-cache'), 'stale');
    assert.ok(stale.ms < LIMIT_MS, `stale copy after ${Math.round(stale.ms)} ms`);

    assert.ok(none.ms < LIMIT_MS, `problem after ${Math.round(none.ms)} ms`);
    assert.equal(none.res.status, 502, none.body.slice(0, 300));
    const problem = JSON.parse(none.body) as { code: string; detail: string };
    assert.match(problem.code, /_network$/);
    assert.match(problem.detail, /deadline|within/);
    // Both providers were asked: the first one's stall did not use up the whole budget.
    assert.ok(s.sim.calls({ target: 'syndication' }) >= 1, 'syndication was never tried');
  } finally {
    await s.close();
  }
});
