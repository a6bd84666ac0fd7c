// Behind a proxy the rate-limit identity is the address the trusted proxy saw, never a value
// the client wrote. THREADMARK_TRUST_PROXY takes false, true (one hop), a hop count or a list of trusted
// addresses/CIDRs; anything in X-Forwarded-For that is not an IP address falls back to the socket address.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '../../helpers/stack.ts';
import { loadConfig } from '../../../src/config.ts';

async function apiIpRemaining(s: Stack, xff?: string): Promise<number> {
  const res = await s.get('/api/v1/posts', xff === undefined ? {} : { headers: { 'x-forwarded-for': xff } });
  await res.arrayBuffer();
  return Number(/"api-ip";r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
}

async function withStack(trust: string, run: (s: Stack) => Promise<void>): Promise<void> {
  const s = await startStack({ THREADMARK_TRUST_PROXY: trust });
  try {
    await run(s);
  } finally {
    await s.close();
  }
}

describe('client identity behind proxies', () => {
  test('true trusts one hop: a client-chosen leftmost X-Forwarded-For entry is not an identity', async () => {
    await withStack('true', async (s) => {
      assert.equal(await apiIpRemaining(s, '198.51.100.7'), 599);
      // The proxy appended the real client (198.51.100.7); everything left of it is the client's own text.
      for (let i = 0; i < 5; i++) assert.equal(await apiIpRemaining(s, `203.0.113.${i}, 198.51.100.7`), 598 - i);
      assert.equal(await apiIpRemaining(s, '198.51.100.8'), 599, 'another client');
    });
  });

  test('a hop count picks the address that many hops from the socket', async () => {
    await withStack('2', async (s) => {
      assert.equal(await apiIpRemaining(s, 'spoofed, 198.51.100.20, 10.0.0.1'), 599);
      assert.equal(
        await apiIpRemaining(s, '203.0.113.9, 198.51.100.20, 10.0.0.2'),
        598,
        'same client through another edge',
      );
      assert.equal(await apiIpRemaining(s, '198.51.100.21, 10.0.0.1'), 599);
    });
  });

  test('a CIDR list trusts only those proxies, walking from the socket', async () => {
    await withStack('127.0.0.1/8, 10.0.0.0/8', async (s) => {
      assert.equal(await apiIpRemaining(s, '203.0.113.1, 198.51.100.30, 10.1.2.3'), 599);
      assert.equal(
        await apiIpRemaining(s, '203.0.113.2, 198.51.100.30, 10.9.9.9'),
        598,
        'first untrusted hop from the right',
      );
      assert.equal(await apiIpRemaining(s, '198.51.100.31'), 599);
    });
  });

  test('a forwarded value that is not an IP address is the socket address, not a partition of its own', async () => {
    await withStack('true', async (s) => {
      const socket = await apiIpRemaining(s);
      assert.equal(socket, 599);
      let expected = 598;
      for (const junk of ['not-an-ip', 'unknown', '_hidden', '[::1', '999.1.1.1', 'x'.repeat(200)]) {
        assert.equal(await apiIpRemaining(s, junk), expected--, junk);
      }
    });
  });

  test('the setting is validated at start', () => {
    const base = { THREADMARK_FXTWITTER_URL: 'http://127.0.0.1:1' };
    assert.equal(loadConfig({ ...base, THREADMARK_TRUST_PROXY: 'false' }).trustProxy, false);
    assert.equal(loadConfig({ ...base, THREADMARK_TRUST_PROXY: 'true' }).trustProxy, 1);
    assert.equal(loadConfig({ ...base, THREADMARK_TRUST_PROXY: '3' }).trustProxy, 3);
    assert.equal(loadConfig({ ...base, THREADMARK_TRUST_PROXY: '0' }).trustProxy, false);
    assert.deepEqual(loadConfig({ ...base, THREADMARK_TRUST_PROXY: '10.0.0.0/8, 192.168.1.1,::1' }).trustProxy, [
      '10.0.0.0/8',
      '192.168.1.1',
      '::1',
    ]);
    for (const bad of ['maybe', '-1', '10.0.0.0/33', '10.0.0', '1.5']) {
      assert.throws(() => loadConfig({ ...base, THREADMARK_TRUST_PROXY: bad }), /THREADMARK_TRUST_PROXY/, bad);
    }
  });
});
