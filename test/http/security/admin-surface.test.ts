// Wrong admin tokens are rate-limited, and admin and operator responses carry no CORS grant
// (a browser page elsewhere must not be able to read them with a stolen or guessed token).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, problemOf, type Stack } from '../../helpers/stack.ts';

const ADMIN = 'admin-token-for-surface-tests';
let s: Stack;
before(async () => {
  s = await startStack({ THREADMARK_ADMIN_TOKEN: ADMIN, THREADMARK_TRUST_PROXY: 'true' });
});
after(() => s.close());

describe('admin and operator surface', () => {
  test('ten wrong tokens from one address, then 429 even for the right one; other addresses are unaffected', async () => {
    const from = (ip: string, token: string) =>
      s.get('/admin/keys', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip } });
    for (let i = 0; i < 10; i++) {
      const res = await from('198.51.100.50', `wrong-${i}`);
      assert.equal(res.status, 401, `attempt ${i + 1}`);
      await res.arrayBuffer();
    }
    const locked = await from('198.51.100.50', ADMIN);
    assert.equal(locked.status, 429);
    assert.equal((await problemOf(locked)).code, 'rate_limited');
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    const other = await from('198.51.100.51', ADMIN);
    assert.equal(other.status, 200, 'the right token from elsewhere still works');
    await other.arrayBuffer();
  });

  test('a right token costs nothing: many admin calls in a row are fine', async () => {
    for (let i = 0; i < 15; i++) {
      const res = await s.get('/admin/keys', {
        headers: { authorization: `Bearer ${ADMIN}`, 'x-forwarded-for': '198.51.100.60' },
      });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
  });

  test('no Access-Control-Allow-Origin on admin and operator routes; public routes keep it', async () => {
    for (const [path, init] of [
      ['/admin/keys', { headers: { authorization: `Bearer ${ADMIN}`, origin: 'https://evil.example' } }],
      ['/admin/keys', { headers: { origin: 'https://evil.example' } }],
      [
        '/admin/keys',
        { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } },
      ],
      ['/healthz', { headers: { origin: 'https://evil.example' } }],
      ['/readyz', { headers: { origin: 'https://evil.example' } }],
      ['/metrics', { headers: { origin: 'https://evil.example' } }],
    ] as Array<[string, RequestInit]>) {
      const res = await s.get(path, init);
      await res.arrayBuffer();
      assert.equal(res.headers.get('access-control-allow-origin'), null, `${init.method ?? 'GET'} ${path}`);
    }
    const pub = await s.get('/api', { headers: { origin: 'https://example.org' } });
    await pub.arrayBuffer();
    assert.equal(pub.headers.get('access-control-allow-origin'), '*');
  });
});

test('THREADMARK_OPS_PORT moves /healthz, /readyz and /metrics off the service port', async () => {
  const own = await startStack({ THREADMARK_OPS_PORT: '0' });
  try {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const res = await own.get(path);
      assert.equal(res.status, 404, path);
      assert.equal((await problemOf(res)).code, 'route_not_found');
    }
    const ops = own.app.ops!;
    await ops.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(ops.server.address() as { port: number }).port}`;
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal((await fetch(`${url}/readyz`)).status, 200);
    const metrics = await fetch(`${url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(await metrics.text(), /threadmark_/);
    const api = await fetch(`${url}/api`);
    assert.equal(api.status, 404, 'only the operator routes live there');
    await api.arrayBuffer();
  } finally {
    await own.close();
  }
});
