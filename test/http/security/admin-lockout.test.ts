// The admin-token lockout bounds guessing without letting a neighbour shut the operator out: only presented,
// wrong bearer tokens count, the answers say how the lockout is keyed, and forwarded headers the service does not
// trust are pointed out to the operator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { startSimulator, type Simulator } from '../../../sim/server.ts';
import { loadConfig } from '../../../src/config.ts';
import { composeRuntime } from '../../../src/compose.ts';
import { startStack, problemOf, upstreamEnv, type Stack } from '../../helpers/stack.ts';

const ADMIN = 'admin-token-for-lockout-tests';

describe('behind a trusted proxy', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_ADMIN_TOKEN: ADMIN, THREADMARK_TRUST_PROXY: 'true' });
  });
  after(() => s.close());

  const from = (ip: string, authorization?: string) =>
    s.get('/admin/sessions', {
      headers: { 'x-forwarded-for': ip, ...(authorization === undefined ? {} : { authorization }) },
    });

  test('requests without a bearer token from the same /64 do not lock the operator out', async () => {
    for (const auth of [undefined, 'Basic bm9ib2R5Om5vdGhpbmc=', 'Bearer', '']) {
      for (let i = 0; i < 10; i++) {
        const res = await from('2001:db8:1:2::bad', auth);
        assert.equal(res.status, 401, `${auth} #${i + 1}`);
        await res.arrayBuffer();
      }
    }
    const admin = await s.get('/admin/keys', {
      headers: { 'x-forwarded-for': '2001:db8:1:2::1', authorization: `Bearer ${ADMIN}` },
    });
    assert.equal(admin.status, 200, 'the right token from the neighbour address still works');
    await admin.arrayBuffer();
  });

  test('the 401 says which tokens count and how the lockout is keyed', async () => {
    for (const auth of [undefined, 'Bearer not-the-token']) {
      const res = await from('198.51.100.70', auth);
      assert.equal(res.status, 401);
      const { code, detail } = (await problemOf(res)) as unknown as { code: string; detail: string };
      assert.equal(code, 'unauthorized');
      assert.match(detail, /presented, wrong bearer token/);
      assert.match(detail, /IPv6: its \/64/);
      assert.match(detail, /THREADMARK_TRUST_PROXY/);
      assert.match(detail, /198\.51\.100\.70/);
    }
  });

  test('wrong bearer tokens still lock the whole /64 out, right token included, and the 429 says why', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await from('2001:db8:9:9::bad', `Bearer wrong-${i}`);
      assert.equal(res.status, 401, `attempt ${i + 1}`);
      await res.arrayBuffer();
    }
    const locked = await s.get('/admin/keys', {
      headers: { 'x-forwarded-for': '2001:db8:9:9::1', authorization: `Bearer ${ADMIN}` },
    });
    assert.equal(locked.status, 429);
    const p = (await problemOf(locked)) as unknown as { code: string; detail: string };
    assert.equal(p.code, 'rate_limited');
    assert.match(p.detail, /2001:db8:9:9::\/64/);
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
  });
  test('/docs/reliability says how the lockout is keyed', async () => {
    const html = await (await s.get('/docs/reliability')).text();
    const section = /id="admin-surface"[\s\S]*?<\/section>|id="admin-surface"[\s\S]{0,4000}/.exec(html)?.[0] ?? '';
    assert.match(section, /presented, wrong/);
    assert.match(section, /IPv6 address by its \/64/);
    assert.match(section, /THREADMARK_TRUST_PROXY/);
    assert.match(section, /without one .* costs nothing/);
  });
});

describe('forwarded headers without THREADMARK_TRUST_PROXY', () => {
  let sim: Simulator;
  let dir: string;
  before(async () => {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    dir = mkdtempSync(join(tmpdir(), 'threadmark-lockout-'));
  });
  after(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function warningsOf(env: Record<string, string>, requests: Array<Record<string, string>>): Promise<string[]> {
    const stream = new PassThrough();
    let out = '';
    stream.on('data', (d) => (out += d));
    const config = loadConfig({
      ...upstreamEnv(sim),
      LOG_LEVEL: 'warn',
      THREADMARK_KEYS_DB: join(dir, `keys-${Math.random()}.db`),
      ...env,
    });
    const app = await composeRuntime(config, { logger: { level: 'warn', stream } });
    await app.server.listen({ host: '127.0.0.1', port: 0 });
    const addr = app.server.server.address();
    const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    try {
      for (const headers of requests) {
        const res = await fetch(`${url}/api`, { headers });
        await res.arrayBuffer();
      }
    } finally {
      await app.close();
    }
    return out
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg)
      .filter((m) => m.includes('THREADMARK_TRUST_PROXY'));
  }

  const forwarded: Array<Record<string, string>> = [
    {},
    { 'x-forwarded-for': '203.0.113.9' },
    { forwarded: 'for=203.0.113.9' },
    {},
  ];

  test('with an admin token: one warning, on the first forwarded request', async () => {
    const lines = await warningsOf({ THREADMARK_ADMIN_TOKEN: ADMIN }, forwarded);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0]!, /admin-token lockout/);
  });

  test('no forwarded header: no warning', async () => {
    assert.deepEqual(await warningsOf({ THREADMARK_ADMIN_TOKEN: ADMIN }, [{}, {}]), []);
  });

  test('a trusted proxy or no admin token: no warning', async () => {
    assert.deepEqual(
      await warningsOf({ THREADMARK_ADMIN_TOKEN: ADMIN, THREADMARK_TRUST_PROXY: 'true' }, forwarded),
      [],
    );
    assert.deepEqual(await warningsOf({}, forwarded), []);
  });
});
