import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { adminRoutes } from '../../src/http/routes/admin.ts';
import { isProblem } from '../../src/problems/problem.ts';
import { SqliteKeyStore } from '../../src/stores/keys/sqlite.ts';
import { DEFAULT_ACCOUNT_QUOTA } from '../../src/stores/limits/policies.ts';

const TOKEN = 'admin-secret-token';
const dir = mkdtempSync(join(tmpdir(), 'tm-admin-'));
const keys = new SqliteKeyStore(join(dir, 'keys.db'));
const apps: FastifyInstance[] = [];
after(async () => {
  for (const app of apps) await app.close();
  await keys.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Stand-in for the lead's problem mapper: just enough to read code and status back. */
async function build(token: string | undefined): Promise<FastifyInstance> {
  const app = Fastify();
  app.setErrorHandler((err, _req, reply) => {
    if (isProblem(err)) return reply.code(err.status).send({ code: err.code, status: err.status });
    return reply.code(500).send({ code: 'internal_error', status: 500, message: (err as Error).message });
  });
  await app.register(adminRoutes, { token, keys });
  await app.ready();
  apps.push(app);
  return app;
}

const auth = { authorization: `Bearer ${TOKEN}` };

describe('admin routes without a configured token', () => {
  test('every route answers 503 admin_unconfigured', async () => {
    const app = await build(undefined);
    const calls = [
      { method: 'POST' as const, url: '/admin/keys', payload: { name: 'x' } },
      { method: 'GET' as const, url: '/admin/keys' },
      { method: 'POST' as const, url: '/admin/keys/abc/disable' },
      { method: 'POST' as const, url: '/admin/keys/abc/enable' },
      { method: 'DELETE' as const, url: '/admin/keys/abc' },
    ];
    for (const c of calls) {
      const res = await app.inject({ ...c, headers: auth });
      assert.equal(res.statusCode, 503, c.url);
      assert.equal(res.json().code, 'admin_unconfigured');
    }
  });
});

describe('admin routes with a token', () => {
  test('missing, wrong or non-Bearer credentials answer 401 unauthorized without WWW-Authenticate', async () => {
    const app = await build(TOKEN);
    for (const headers of [
      {},
      { authorization: 'Bearer nope' },
      { authorization: `Basic ${Buffer.from(`a:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
    ]) {
      const res = await app.inject({ method: 'GET', url: '/admin/keys', headers });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'unauthorized');
      assert.equal(res.headers['www-authenticate'], undefined);
    }
  });

  test('authentication comes before body parsing', async () => {
    const app = await build(TOKEN);
    const res = await app.inject({
      method: 'POST',
      url: '/admin/keys',
      headers: { 'content-type': 'application/json' },
      payload: '{bad',
    });
    assert.equal(res.statusCode, 401);
  });

  test('create → list → disable → enable → delete', async () => {
    const app = await build(TOKEN);
    const created = await app.inject({
      method: 'POST',
      url: '/admin/keys',
      headers: auth,
      payload: { name: 'Partner', accountQuota: 40 },
    });
    assert.equal(created.statusCode, 201);
    assert.equal(created.headers['cache-control'], 'no-store');
    const issued = created.json();
    assert.deepEqual(Object.keys(issued).sort(), ['accountQuota', 'enabled', 'id', 'key', 'name']);
    assert.equal(issued.name, 'Partner');
    assert.equal(issued.accountQuota, 40);
    assert.equal(issued.enabled, true);
    assert.equal((await keys.verify(issued.key)).status, 'valid');

    const list = await app.inject({ method: 'GET', url: '/admin/keys', headers: auth });
    assert.equal(list.statusCode, 200);
    const entry = list.json().keys.find((k: { id: string }) => k.id === issued.id);
    assert.deepEqual(Object.keys(entry).sort(), ['accountQuota', 'createdAt', 'enabled', 'id', 'name']);
    assert.equal(list.body.includes(issued.key), false, 'the key is never listed');

    const disabled = await app.inject({ method: 'POST', url: `/admin/keys/${issued.id}/disable`, headers: auth });
    assert.equal(disabled.statusCode, 200);
    assert.equal(disabled.json().enabled, false);
    assert.equal((await keys.verify(issued.key)).status, 'invalid');

    const enabled = await app.inject({ method: 'POST', url: `/admin/keys/${issued.id}/enable`, headers: auth });
    assert.equal(enabled.statusCode, 200);
    assert.equal(enabled.json().enabled, true);
    assert.equal((await keys.verify(issued.key)).status, 'valid');

    const deleted = await app.inject({ method: 'DELETE', url: `/admin/keys/${issued.id}`, headers: auth });
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    assert.equal((await keys.verify(issued.key)).status, 'invalid');
  });

  test('create without accountQuota gets the default quota', async () => {
    const app = await build(TOKEN);
    const res = await app.inject({ method: 'POST', url: '/admin/keys', headers: auth, payload: { name: 'NoQuota' } });
    assert.equal(res.statusCode, 201);
    assert.equal(res.json().accountQuota, DEFAULT_ACCOUNT_QUOTA);
  });

  test('the admin hooks and body parser stay inside the plugin', async () => {
    const app = Fastify();
    app.post('/echo', async (req) => req.body);
    await app.register(adminRoutes, { token: TOKEN, keys });
    apps.push(app);
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { a: 1 });
    assert.equal(res.headers['cache-control'], undefined);
  });

  test('bad bodies answer 400 invalid_body', async () => {
    const app = await build(TOKEN);
    const bodies: { payload?: string; type?: string }[] = [
      { payload: '{bad', type: 'application/json' },
      { payload: '', type: 'application/json' },
      { payload: '[]', type: 'application/json' },
      { payload: '{"name": ""}', type: 'application/json' },
      { payload: '{"name": "x", "accountQuota": -1}', type: 'application/json' },
      { payload: '{"name": "x", "accountQuota": 2.5}', type: 'application/json' },
      { payload: '{"name": "x", "extra": 1}', type: 'application/json' },
      { payload: 'name=x', type: 'application/x-www-form-urlencoded' },
      {},
    ];
    for (const b of bodies) {
      const headers: Record<string, string> = { ...auth };
      if (b.type) headers['content-type'] = b.type;
      const res = await app.inject({ method: 'POST', url: '/admin/keys', headers, payload: b.payload });
      assert.equal(res.statusCode, 400, JSON.stringify(b));
      assert.equal(res.json().code, 'invalid_body');
    }
  });

  test('unknown ids answer 404', async () => {
    const app = await build(TOKEN);
    for (const [method, url] of [
      ['POST', '/admin/keys/nope/disable'],
      ['POST', '/admin/keys/nope/enable'],
      ['DELETE', '/admin/keys/nope'],
    ] as const) {
      const res = await app.inject({ method, url, headers: auth });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'not_found');
    }
  });
});
