// fetchUpstream's retry policy: which failures are asked again, Retry-After against the read's deadline,
// per-call timeouts shortened by the deadline, and aborts during a backoff wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Deadline } from '../../../src/providers/deadline.ts';
import { backoffMs, fetchUpstream, isRetryableStatus, type UpstreamPolicy } from '../../../src/providers/http.ts';
import { ProviderError } from '../../../src/providers/types.ts';
import { json, startServer } from './local-server.ts';

const policy: UpstreamPolicy = { retries: 2, backoffMs: 1 };

/** A server answering the n-th request (0-based) with `plan[n]` (the last entry repeats). */
async function scripted(
  plan: Array<(res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) => void>,
) {
  let n = 0;
  return startServer((req, res) => plan[Math.min(n++, plan.length - 1)]!(res, req));
}

const status =
  (code: number, headers: Record<string, string> = {}) =>
  (res: import('node:http').ServerResponse) =>
    json(res, code, { code }, headers);
const reset = () => (_res: import('node:http').ServerResponse, req: import('node:http').IncomingMessage) =>
  req.socket.destroy();

test('5xx and dropped connections are retried up to the policy, then the last answer stands', async () => {
  const srv = await scripted([status(500), reset(), status(200)]);
  try {
    const r = await fetchUpstream('fx', srv.url, { timeoutMs: 2000, policy });
    assert.equal(r.status, 200);
    assert.equal(srv.requests.length, 3);
  } finally {
    await srv.close();
  }
  const down = await scripted([status(502)]);
  try {
    const r = await fetchUpstream('fx', down.url, { timeoutMs: 2000, policy });
    assert.equal(r.status, 502, 'the provider interprets the final status');
    assert.equal(down.requests.length, 3, 'one attempt plus two retries');
  } finally {
    await down.close();
  }
});

test('without a policy, and for statuses a retry cannot change, the upstream is asked once', async () => {
  const srv = await scripted([status(500)]);
  try {
    assert.equal((await fetchUpstream('fx', srv.url, { timeoutMs: 2000 })).status, 500);
    assert.equal(srv.requests.length, 1);
    for (const code of [404, 401, 429, 501]) {
      const one = await scripted([status(code)]);
      assert.equal((await fetchUpstream('fx', one.url, { timeoutMs: 2000, policy })).status, code);
      assert.equal(one.requests.length, 1, String(code));
      await one.close();
    }
  } finally {
    await srv.close();
  }
  assert.deepEqual([500, 502, 503, 504, 501, 505, 404].map(isRetryableStatus), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});

test('a refused connection is retried and ends as a network failure', async () => {
  const srv = await scripted([status(200)]);
  const url = srv.url;
  await srv.close();
  await assert.rejects(fetchUpstream('syndication', url, { timeoutMs: 2000, policy }), (e: unknown) => {
    assert.ok(e instanceof ProviderError);
    assert.equal(e.kind, 'network');
    assert.match(e.message, /ECONNREFUSED/);
    return true;
  });
});

test('a 503 with Retry-After is retried after it only when the wait fits in the deadline', async () => {
  const fits = await scripted([status(503, { 'retry-after': '1' }), status(200)]);
  try {
    const r = await fetchUpstream('fx', fits.url, { timeoutMs: 2000, policy, deadline: new Deadline(5000) });
    assert.equal(r.status, 200);
    assert.equal(fits.requests.length, 2);
  } finally {
    await fits.close();
  }
  const tooLong = await scripted([status(503, { 'retry-after': '30' }), status(200)]);
  try {
    const r = await fetchUpstream('fx', tooLong.url, { timeoutMs: 2000, policy, deadline: new Deadline(5000) });
    assert.equal(r.status, 503, 'handed back at once for the chain to fall through');
    assert.equal(r.headers.get('retry-after'), '30');
    assert.equal(tooLong.requests.length, 1);
  } finally {
    await tooLong.close();
  }
});

test('a timed-out attempt is not retried; the deadline shortens the per-call timeout', async () => {
  const slow = await startServer((_req, res) => setTimeout(() => json(res, 200, {}), 1500));
  try {
    await assert.rejects(fetchUpstream('fx', slow.url, { timeoutMs: 100, policy }), (e: unknown) => {
      assert.ok(e instanceof ProviderError && e.kind === 'network' && e.opts.timedOut);
      assert.match(e.message, /within 100 ms/);
      return true;
    });
    assert.equal(slow.requests.length, 1);
    await assert.rejects(
      fetchUpstream('fx', slow.url, { timeoutMs: 5000, policy, deadline: new Deadline(150) }),
      (e: unknown) => {
        assert.ok(e instanceof ProviderError && e.kind === 'network');
        assert.match(e.message, /before the request deadline/);
        return true;
      },
    );
    const spent = new Deadline(1);
    await new Promise((r) => setTimeout(r, 5));
    await assert.rejects(fetchUpstream('fx', slow.url, { timeoutMs: 5000, policy, deadline: spent }), /was not asked/);
    assert.equal(slow.requests.length, 2, 'an expired deadline sends nothing');
  } finally {
    await slow.close();
  }
});

test("the caller's abort during a backoff wait is re-thrown, not turned into a failure", async () => {
  const srv = await scripted([status(500)]);
  try {
    const ac = new AbortController();
    const p = fetchUpstream('fx', srv.url, {
      timeoutMs: 2000,
      signal: ac.signal,
      policy: { retries: 3, backoffMs: 5000 },
    });
    setTimeout(() => ac.abort(), 100);
    await assert.rejects(p, (e: unknown) => !(e instanceof ProviderError) && (e as Error).name === 'AbortError');
    assert.equal(srv.requests.length, 1);
  } finally {
    await srv.close();
  }
});

test('backoff doubles per retry, with jitter in the upper half of each step', () => {
  const at = (r: number) => ({ retries: 3, backoffMs: 100, random: () => r });
  assert.deepEqual(
    [0, 1, 2].map((n) => backoffMs(at(0), n)),
    [50, 100, 200],
  );
  assert.deepEqual(
    [0, 1, 2].map((n) => backoffMs(at(1), n)),
    [100, 200, 400],
  );
  const d = backoffMs({ retries: 1, backoffMs: 100 }, 0);
  assert.ok(d >= 50 && d <= 100, String(d));
});
