// API keys and the operator surface through the real server, on both key stores (SQLite and Redis):
// the key lifecycle by admin HTTP and by CLI, Bearer-only reading, posts routes ignoring the header,
// `unverified` with the store down, hashes only at rest, and the admin routes' own answers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { runKeysCommand } from '../../src/cli/keys.ts';
import { BACKENDS, startOn, type BackendStack } from '../helpers/backends.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';
import { DEAD_REDIS_URL, REDIS_URL, keysByPrefix } from '../unit/stores/redis-env.ts';

const ADMIN = 'admin-token-for-keys-tests';
const adminAuth = { authorization: `Bearer ${ADMIN}` };

interface Issued {
  id: string;
  key: string;
  name: string;
  accountQuota: number;
  enabled: boolean;
}

async function admin(
  s: Stack,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = adminAuth,
): Promise<Response> {
  return fetch(`${s.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function issue(s: Stack, name = 'partner'): Promise<Issued> {
  const res = await admin(s, 'POST', '/admin/keys', { name });
  assert.equal(res.status, 201);
  return (await res.json()) as Issued;
}

/** Status, X-Api-Key-Status and Cache-Control of a keyed profile read. */
async function keyed(
  s: Stack,
  key: string,
  path = `/api/v1/profiles/${HANDLES.alice}`,
): Promise<{ status: number; key: string | null; cc: string | null; code?: string; res: Response }> {
  const res = await s.get(path, { headers: { authorization: `Bearer ${key}` } });
  const text = await res.text();
  const code = res.status >= 400 ? (JSON.parse(text) as { code: string }).code : undefined;
  return {
    status: res.status,
    key: res.headers.get('x-api-key-status'),
    cc: res.headers.get('cache-control'),
    code,
    res,
  };
}

function assertValid(r: Awaited<ReturnType<typeof keyed>>) {
  assert.equal(r.status, 200);
  assert.equal(r.key, 'valid');
  assert.equal(r.cc, 'private, no-store');
}

function assertInvalid(r: Awaited<ReturnType<typeof keyed>>) {
  assert.equal(r.status, 401);
  assert.equal(r.code, 'invalid_key');
  assert.equal(r.key, 'invalid');
  assert.equal(r.res.headers.get('www-authenticate'), null);
}

function sink() {
  const chunks: string[] = [];
  return {
    write: (c: string) => void chunks.push(c),
    get text() {
      return chunks.join('');
    },
  };
}

for (const backend of BACKENDS) {
  describe(`API keys (${backend.name} store)`, { skip: backend.skip }, () => {
    let s: BackendStack;
    before(async () => {
      s = await startOn(backend, { THREADMARK_ADMIN_TOKEN: ADMIN });
    });
    after(() => s.close());

    test('admin HTTP: create → valid → disable → 401 on the next request → enable → valid → delete → 401', async () => {
      const k = await issue(s);
      assert.match(k.key, /^tm_[A-Za-z0-9_-]{43}$/, 'prefix + 256 random bits');
      assert.equal(k.enabled, true);
      assertValid(await keyed(s, k.key));
      for (const path of [
        `/${HANDLES.alice}/followers`,
        `/api/v1/profiles/${HANDLES.alice}/following`,
        '/search?q=caching',
        `/api/browse?resource=profile&handle=${HANDLES.alice}`,
      ]) {
        assertValid(await keyed(s, k.key, path));
      }

      const disabled = await admin(s, 'POST', `/admin/keys/${k.id}/disable`);
      assert.equal(disabled.status, 200);
      assert.equal(((await disabled.json()) as Issued).enabled, false);
      assertInvalid(await keyed(s, k.key));
      assertInvalid(await keyed(s, k.key, '/api/v1/search?q=caching'));

      assert.equal((await admin(s, 'POST', `/admin/keys/${k.id}/enable`)).status, 200);
      assertValid(await keyed(s, k.key));

      const listed = (await (await admin(s, 'GET', '/admin/keys')).json()) as { keys: Array<Record<string, unknown>> };
      const row = listed.keys.find((r) => r.id === k.id);
      assert.ok(row);
      assert.deepEqual(Object.keys(row).sort(), ['accountQuota', 'createdAt', 'enabled', 'id', 'name']);
      assert.equal(JSON.stringify(listed).includes(k.key), false, 'the key is shown only at creation');

      assert.equal((await admin(s, 'DELETE', `/admin/keys/${k.id}`)).status, 204);
      assertInvalid(await keyed(s, k.key));
      assert.equal((await admin(s, 'DELETE', `/admin/keys/${k.id}`)).status, 404);
    });

    test('CLI: a key created, disabled, enabled and deleted with `keys` is seen by the running server at once', async () => {
      const env = {
        THREADMARK_KEYS_DB: s.app.services.config.keysDb,
        ...(s.prefix ? { THREADMARK_REDIS_URL: REDIS_URL } : {}),
      };
      const cli = async (...argv: string[]) => {
        const out = sink();
        const err = sink();
        const code = await runKeysCommand(['keys', ...argv], out, err, { env, redisPrefix: s.prefix });
        assert.equal(code, 0, err.text);
        return out.text;
      };
      const created = await cli('create', '--name', 'cli partner', '--account-quota', '7');
      const key = /^key: (tm_\S+)$/m.exec(created)?.[1];
      const id = /^id: (\S+)$/m.exec(created)?.[1];
      assert.ok(key && id, created);
      assertValid(await keyed(s, key));
      await cli('disable', id);
      assertInvalid(await keyed(s, key));
      await cli('enable', id);
      assertValid(await keyed(s, key));
      await cli('delete', id);
      assertInvalid(await keyed(s, key));
    });

    test('only the Bearer scheme is read: Basic, ?key=, X-Api-Key are ignored (anonymous)', async () => {
      const k = await issue(s);
      const path = `/api/v1/profiles/${HANDLES.bob}`;
      const variants: Array<[string, RequestInit]> = [
        [`${path}?key=${k.key}`, {}],
        [`${path}?api_key=${k.key}`, {}],
        [path, { headers: { 'x-api-key': k.key } }],
        [path, { headers: { authorization: `Basic ${Buffer.from(`user:${k.key}`).toString('base64')}` } }],
        [path, { headers: { authorization: `Token ${k.key}` } }],
        [path, { headers: { authorization: k.key } }],
      ];
      for (const [p, init] of variants) {
        const res = await s.get(p, init);
        await res.arrayBuffer();
        assert.equal(res.status, 200, p);
        assert.equal(res.headers.get('x-api-key-status'), 'anonymous', JSON.stringify(init));
        assert.match(res.headers.get('cache-control') ?? '', /^public/);
      }
      // The scheme name is case-insensitive (RFC 9110).
      assertValid(await keyed(s, k.key, path));
      const lower = await s.get(path, { headers: { authorization: `bearer ${k.key}` } });
      await lower.arrayBuffer();
      assert.equal(lower.headers.get('x-api-key-status'), 'valid');
      // An unknown bearer is invalid; so is an empty one.
      assertInvalid(await keyed(s, `tm_${'A'.repeat(43)}`, path));
      assertInvalid(await keyed(s, 'not-even-shaped-like-a-key', path));
    });

    test('posts routes ignore Authorization entirely, valid, disabled or invalid', async () => {
      const k = await issue(s);
      await admin(s, 'POST', `/admin/keys/${k.id}/disable`);
      const url = encodeURIComponent(`https://x.com/${HANDLES.alice}/status/${IDS.threadRoot}`);
      for (const path of [
        `/api/v1/posts?url=${url}&thread=off`,
        `/${HANDLES.alice}/status/${IDS.threadRoot}?thread=off`,
        `/api/convert?url=${url}&thread=off`,
      ]) {
        for (const authorization of [`Bearer ${k.key}`, `Bearer tm_${'B'.repeat(43)}`, 'Bearer garbage', 'Bearer']) {
          const res = await s.get(path, { headers: { authorization } });
          await res.arrayBuffer();
          assert.equal(res.status, 200, `${path} ${authorization}`);
          assert.equal(res.headers.get('x-api-key-status'), null);
          assert.match(
            res.headers.get('cache-control') ?? '',
            /^public, max-age=(\d+), s-maxage=\1, stale-while-revalidate=\1, stale-if-error=\d+$/,
          );
          assert.equal(res.headers.get('www-authenticate'), null);
        }
      }
      // And routes outside the key's reach ignore it too.
      for (const path of [
        '/api',
        '/openapi.json',
        `/api/v1/oembed?url=${encodeURIComponent(`http://threadmark.test/${HANDLES.alice}`)}`,
      ]) {
        const res = await s.get(path, { headers: { authorization: 'Bearer garbage' } });
        await res.arrayBuffer();
        assert.notEqual(res.status, 401, path);
      }
    });

    test('keys are stored only as hashes', async () => {
      const k = await issue(s, 'hash-check');
      const secret = k.key.slice(3);
      const hash = createHash('sha256').update(k.key).digest('hex');
      let stored: string;
      if (s.redis) {
        const parts: string[] = [];
        for (const name of await keysByPrefix(s.redis, s.prefix!)) {
          parts.push(name);
          const type = await s.redis.type(name);
          if (type === 'hash') parts.push(JSON.stringify(await s.redis.hgetall(name)));
          else if (type === 'string') parts.push((await s.redis.get(name)) ?? '');
        }
        stored = parts.join('\n');
      } else {
        const dir = dirname(s.app.services.config.keysDb);
        stored = readdirSync(dir)
          .map((f) => readFileSync(join(dir, f)).toString('latin1'))
          .join('\n');
      }
      assert.ok(stored.includes(k.id) && stored.includes('hash-check'), 'the record is there');
      assert.ok(stored.includes(hash), 'stored as its SHA-256');
      assert.equal(stored.includes(secret), false, 'the secret never is');
      assert.equal(stored.includes(k.key), false);
    });
  });
}

describe('API keys across instances (redis)', { skip: BACKENDS[1]!.skip }, () => {
  let a: BackendStack;
  let b: BackendStack;
  before(async () => {
    a = await startOn(BACKENDS[1]!, { THREADMARK_ADMIN_TOKEN: ADMIN });
    b = await startOn(BACKENDS[1]!, { THREADMARK_ADMIN_TOKEN: ADMIN }, { sim: a.sim, redisPrefix: a.prefix });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  test('a key disabled on one instance is refused by the other on its very next request', async () => {
    const k = await issue(a);
    assertValid(await keyed(b, k.key));
    await admin(a, 'POST', `/admin/keys/${k.id}/disable`);
    assertInvalid(await keyed(b, k.key));
    await admin(b, 'POST', `/admin/keys/${k.id}/enable`);
    assertValid(await keyed(a, k.key));
    await admin(b, 'DELETE', `/admin/keys/${k.id}`);
    assertInvalid(await keyed(a, k.key));
  });
});

describe('key store down', () => {
  async function assertUnverified(s: Stack, key: string) {
    for (const path of [
      `/api/v1/profiles/${HANDLES.alice}`,
      `/api/v1/search?q=${encodeURIComponent(`unverified ${key.slice(3, 9)}`)}`,
    ]) {
      const res = await s.get(path, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('x-api-key-status'), 'unverified');
      assert.match(res.headers.get('cache-control') ?? '', /^public/, 'served as the public');
      if (path.includes('search')) {
        assert.match(res.headers.get('ratelimit-policy') ?? '', /"search-ip";q=5;w=60/, 'with the public allowance');
        assert.doesNotMatch(res.headers.get('ratelimit-policy') ?? '', /search-key/);
      }
    }
  }

  test('SQLite: a key checked while the store is closed is unverified and served with the public allowance', async () => {
    const s = await startStack({ THREADMARK_ADMIN_TOKEN: ADMIN });
    try {
      const k = await issue(s);
      assertValid(await keyed(s, k.key));
      await s.app.services.stores.keys.close();
      await assertUnverified(s, k.key);
      // Requests without a key are unaffected.
      const anon = await s.get(`/${HANDLES.alice}`);
      await anon.arrayBuffer();
      assert.equal(anon.headers.get('x-api-key-status'), 'anonymous');
    } finally {
      await s.close();
    }
  });

  test('Redis unreachable: unverified, and the service keeps answering', async () => {
    const s = await startStack({ THREADMARK_REDIS_URL: DEAD_REDIS_URL });
    try {
      await assertUnverified(s, `tm_${'C'.repeat(43)}`);
    } finally {
      await s.close();
    }
  });
});

describe('admin routes on the real server', () => {
  test('with the key store unreachable every admin route answers 503 key_store_unavailable, not 500', async () => {
    const s = await startStack({ THREADMARK_REDIS_URL: DEAD_REDIS_URL, THREADMARK_ADMIN_TOKEN: ADMIN });
    try {
      for (const [method, path] of [
        ['POST', '/admin/keys'],
        ['GET', '/admin/keys'],
        ['POST', '/admin/keys/x/disable'],
        ['POST', '/admin/keys/x/enable'],
        ['DELETE', '/admin/keys/x'],
      ] as const) {
        const res = await admin(
          s,
          method,
          path,
          method === 'POST' && path === '/admin/keys' ? { name: 'n' } : undefined,
        );
        assert.equal(res.status, 503, `${method} ${path}`);
        assert.equal((await problemOf(res)).code, 'key_store_unavailable', `${method} ${path}`);
        assert.ok(Number(res.headers.get('retry-after')) > 0, `${method} ${path}: Retry-After`);
      }
    } finally {
      await s.close();
    }
  });

  test('without THREADMARK_ADMIN_TOKEN every admin route answers 503 admin_unconfigured', async () => {
    const s = await startStack();
    try {
      for (const [method, path] of [
        ['POST', '/admin/keys'],
        ['GET', '/admin/keys'],
        ['POST', '/admin/keys/x/disable'],
        ['POST', '/admin/keys/x/enable'],
        ['DELETE', '/admin/keys/x'],
      ] as const) {
        const res = await admin(
          s,
          method,
          path,
          method === 'POST' && path === '/admin/keys' ? { name: 'n' } : undefined,
        );
        assert.equal(res.status, 503, `${method} ${path}`);
        const p = await problemOf(res);
        assert.equal(p.code, 'admin_unconfigured');
        assert.match(res.headers.get('content-type') ?? '', /^application\/(problem\+)?json/);
      }
    } finally {
      await s.close();
    }
  });

  test('a wrong or missing token is 401 unauthorized without WWW-Authenticate; admin is not public API', async () => {
    const s = await startStack({ THREADMARK_ADMIN_TOKEN: ADMIN });
    try {
      for (const headers of [
        {} as Record<string, string>,
        { authorization: 'Bearer wrong-token-wrong-token' },
        { authorization: `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}` },
      ]) {
        for (const [method, path] of [
          ['GET', '/admin/keys'],
          ['POST', '/admin/keys'],
          ['DELETE', '/admin/keys/x'],
        ] as const) {
          const res = await admin(s, method, path, undefined, headers);
          assert.equal(res.status, 401, `${method} ${path}`);
          assert.equal((await problemOf(res)).code, 'unauthorized');
          assert.equal(res.headers.get('www-authenticate'), null);
        }
      }
      const openapi = (await (await s.get('/openapi.json')).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      for (const [path, ops] of Object.entries(openapi.paths)) {
        assert.doesNotMatch(path, /^\/admin/);
        if (path === '/mcp') continue; // the tool protocol's own transport
        // The documented exception: keyed watches (POST, DELETE) and the WebSub hub's subscription requests (POST).
        if (['/api/v1/watches', '/api/v1/watches/{id}', '/api/v1/hub'].includes(path)) continue;
        for (const method of Object.keys(ops))
          assert.ok(!['post', 'put', 'patch', 'delete'].includes(method), `${method} ${path}`);
      }
      // The public surface takes no POST elsewhere.
      const post = await fetch(`${s.url}/api/v1/profiles/${HANDLES.alice}`, { method: 'POST' });
      assert.equal(post.status, 405);
      await post.arrayBuffer();
    } finally {
      await s.close();
    }
  });
});
