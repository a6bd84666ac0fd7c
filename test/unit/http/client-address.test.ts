// The address rule (src/http/guards/client-address.ts) agrees with Fastify's own `req.ip` wherever that is an address,
// since Fastify is handed the rule's trust function, and replaces what is not an address with the socket's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { addressRule, clientAddress, type TrustProxy } from '../../../src/http/guards/client-address.ts';

async function seen(setting: TrustProxy, remoteAddress: string, forwarded?: string) {
  const rule = addressRule(setting);
  const app = Fastify({ trustProxy: rule.trustProxy });
  app.decorate('addressRule', rule);
  app.get('/', (req) => ({ fastify: req.ip, rule: rule.addressOf(req.raw), guards: clientAddress(req) }));
  try {
    const res = await app.inject({
      url: '/',
      remoteAddress,
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    });
    return res.json<{ fastify: string; rule: string; guards: string }>();
  } finally {
    await app.close();
  }
}

test('trusted proxy, untrusted proxy and hop counts: the rule is Fastify’s req.ip, and the guards read the rule', async () => {
  const cases: Array<[TrustProxy, string, string | undefined, string]> = [
    [['10.0.0.1'], '10.0.0.1', '203.0.113.7', '203.0.113.7'],
    [['10.0.0.0/8'], '10.1.2.3', '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    [['10.0.0.1'], '192.0.2.1', '203.0.113.7', '192.0.2.1'],
    [false, '10.0.0.1', '203.0.113.7', '10.0.0.1'],
    [1, '10.0.0.1', '198.51.100.1, 203.0.113.7', '203.0.113.7'],
    [2, '10.0.0.1', '198.51.100.1, 203.0.113.7', '198.51.100.1'],
    [['10.0.0.1'], '10.0.0.1', undefined, '10.0.0.1'],
    [['10.0.0.1'], '10.0.0.1', '2001:db8::1', '2001:db8::1'],
  ];
  for (const [setting, remote, forwarded, want] of cases) {
    const got = await seen(setting, remote, forwarded);
    const what = `${JSON.stringify(setting)} from ${remote} forwarding ${forwarded}`;
    assert.deepEqual(got, { fastify: want, rule: want, guards: want }, what);
  }
});

test('junk X-Forwarded-For from a trusted proxy: Fastify would take it, the rule takes the socket address', async () => {
  for (const junk of ['unknown', 'not an address', '', '203.0.113.999']) {
    const got = await seen(['10.0.0.1'], '10.0.0.1', junk);
    assert.equal(got.rule, '10.0.0.1', junk);
    assert.equal(got.guards, '10.0.0.1', junk);
  }
});
