// The fast path and the guards charge the same client: both read the address through the one rule compiled from
// THREADMARK_TRUST_PROXY (src/http/guards/client-address.ts). For a trusted proxy, an untrusted one and junk in
// X-Forwarded-For, an answer from the fast path and one from the normal path for the same client count on one
// api-ip counter, and clients the rule tells apart get counters of their own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { rawRequest, type RawResponse } from '../../helpers/raw-http.ts';
import { HANDLES, IDS } from '../../../sim/corpus.ts';

const TARGET = `/${HANDLES.alice}/status/${IDS.threadPhoto}?thread=off`;
const served = (s: Stack) => s.app.server.responseLayer?.served ?? Number.NaN;
const remaining = (r: RawResponse) => Number(r.headers['ratelimit-remaining']);

function get(s: Stack, forwarded: string, extra: [string, string][] = []): Promise<RawResponse> {
  return rawRequest(Number(new URL(s.url).port), {
    method: 'GET',
    target: TARGET,
    headers: [['X-Forwarded-For', forwarded], ...extra],
  });
}

/**
 * For each X-Forwarded-For value in turn: one answer from the fast path, then one from the normal path
 * (a conditional request keeps off the fast path and charges the same allowance). Returns the
 * RateLimit-Remaining of each pair.
 */
async function pairs(s: Stack, forwarded: string[]): Promise<Array<[number, number]>> {
  // The first read is a miss and the second a hit through Fastify, which stores the answer.
  await get(s, '192.0.2.250');
  await get(s, '192.0.2.250');
  const out: Array<[number, number]> = [];
  for (const f of forwarded) {
    const before = served(s);
    const fast = await get(s, f);
    assert.equal(served(s), before + 1, `${f}: answered by the fast path`);
    const normal = await get(s, f, [['If-Modified-Since', 'Thu, 01 Jan 1970 00:00:00 GMT']]);
    assert.equal(served(s), before + 1, `${f}: answered by the normal path`);
    assert.equal(remaining(normal), remaining(fast) - 1, `${f}: both charged to one counter`);
    out.push([remaining(fast), remaining(normal)]);
  }
  return out;
}

async function withStack(env: Record<string, string>, fn: (s: Stack) => Promise<void>): Promise<void> {
  const s = await startStack(env);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

test('behind a trusted proxy, each forwarded client has its own counter, on both paths', () =>
  withStack({ THREADMARK_TRUST_PROXY: '127.0.0.1' }, async (s) => {
    const got = await pairs(s, ['203.0.113.10', '203.0.113.11', '198.51.100.7, 203.0.113.10']);
    // The third names 203.0.113.10 last (the address the trusted proxy saw): the first client again.
    assert.deepEqual(got, [
      [599, 598],
      [599, 598],
      [597, 596],
    ]);
  }));

test('from a proxy that is not trusted, X-Forwarded-For is ignored: every request is the socket, on both paths', () =>
  withStack({ THREADMARK_TRUST_PROXY: '10.9.9.9' }, async (s) => {
    const got = await pairs(s, ['203.0.113.20', '203.0.113.21']);
    // The two warm-up reads were the same client (loopback).
    assert.deepEqual(got, [
      [597, 596],
      [595, 594],
    ]);
  }));

test('junk in X-Forwarded-For from a trusted proxy is not a client: both paths charge the socket address', () =>
  withStack({ THREADMARK_TRUST_PROXY: 'true' }, async (s) => {
    const got = await pairs(s, ['unknown', 'not an address', '127.0.0.1']);
    // 'unknown', the junk and the loopback address itself are one client: the proxy's socket address.
    assert.deepEqual(got, [
      [599, 598],
      [597, 596],
      [595, 594],
    ]);
  }));
