// /api, /openapi.json (checked with a real OpenAPI 3.1 validator), the RFC 9727 catalog, ard.json and llms.txt.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '@readme/openapi-parser';
import { startStack, type Stack, TEST_BASE } from '../helpers/stack.ts';
import { PUBLIC_ROUTES } from '../../src/route-table.ts';
import { CATALOG } from '../../src/problems/catalog.ts';

let s: Stack;
before(async () => {
  s = await startStack();
});
after(() => s.close());

async function json(path: string): Promise<{ res: Response; body: any }> {
  const res = await s.get(path);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text}`);
  return { res, body: JSON.parse(text) };
}

const PUBLIC_API_PATHS = PUBLIC_ROUTES.filter((r) => r.decl.surface !== 'discovery').map((r) => r.decl.path);

describe('GET /openapi.json', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const { res, body } = await json('/openapi.json');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(body.openapi, '3.1.0');
    const result = await validate(structuredClone(body));
    assert.ok(result.valid, `validator: ${JSON.stringify(result, null, 1)}`);
    assert.deepEqual(body.servers, [{ url: TEST_BASE }]);
    // The validator is not a rubber stamp: a broken copy fails.
    const broken = structuredClone(body);
    broken.paths['/api/v1/posts'].get.responses = 'none';
    assert.equal((await validate(broken)).valid, false);
  });

  test('has one GET operation per declared public route, the push routes, and nothing private', async () => {
    const { body } = await json('/openapi.json');
    const push = ['/api/v1/hub', '/api/v1/watches', '/api/v1/watches/{id}'];
    assert.deepEqual(Object.keys(body.paths).sort(), [...PUBLIC_ROUTES.map((r) => r.decl.path), ...push].sort());
    assert.deepEqual(Object.keys(body.paths['/api/v1/watches']), ['get', 'post']);
    assert.deepEqual(Object.keys(body.paths['/api/v1/watches/{id}']), ['get', 'delete']);
    assert.deepEqual(body.paths['/api/v1/watches'].post.security, [{ bearerKey: [] }]);
    for (const { decl } of PUBLIC_ROUTES) assert.equal(body.paths[decl.path].get.operationId, decl.operationId);
    assert.ok(!Object.keys(body.paths).some((p) => p.startsWith('/admin')));
    assert.ok(!('/mcp' in body.paths), '/mcp is POST-only JSON-RPC, described in /api and ard.json instead');
    for (const path of [
      '/api/v1/posts',
      '/api/v1/profiles/{handle}',
      '/api/v1/search',
      '/{handle}/status/{id}',
      '/api/v1/oembed',
    ]) {
      assert.ok(body.paths[path], path);
    }
  });

  test('parameters carry schemas and descriptions from the zod declarations', async () => {
    const { body } = await json('/openapi.json');
    const posts = body.paths['/api/v1/posts'].get;
    const thread = posts.parameters.find((p: any) => p.name === 'thread');
    assert.equal(thread.in, 'query');
    assert.equal(thread.required, false);
    assert.match(thread.description, /off/);
    assert.equal(thread.schema.pattern, '^(off|full|conversation|[2-9]|[1-9][0-9]|100)$');
    const format = posts.parameters.find((p: any) => p.name === 'format');
    assert.deepEqual(format.schema.enum, ['markdown', 'obsidian', 'json']);
    const handle = body.paths['/api/v1/profiles/{handle}'].get.parameters.find((p: any) => p.name === 'handle');
    assert.equal(handle.in, 'path');
    assert.equal(handle.required, true);
    assert.ok(handle.description);
  });

  test('responses: 200 per representation, each error status with the Problem schema', async () => {
    const { body } = await json('/openapi.json');
    const op = body.paths['/api/v1/posts'].get;
    assert.deepEqual(Object.keys(op.responses['200'].content).sort(), [
      'application/json',
      'text/html',
      'text/markdown',
      'text/markdown; variant=obsidian',
    ]);
    for (const status of ['400', '404', '405', '406', '429', '500', '502']) {
      const r = op.responses[status];
      assert.ok(r, status);
      assert.deepEqual(r.content['application/problem+json'].schema, { $ref: '#/components/schemas/Problem' });
    }
    assert.ok(op.responses['400']['x-problem-codes'].includes('invalid_thread'));
    assert.deepEqual(body.components.schemas.Problem.required.sort(), [
      'code',
      'detail',
      'documentation_url',
      'resolution',
      'status',
      'title',
      'type',
    ]);
    assert.equal(body.paths['/api/v1/search'].get.responses['503']['x-problem-codes'][0], 'search_unavailable');
  });

  test('the bearer key is optional, and only on key-aware routes', async () => {
    const { body } = await json('/openapi.json');
    assert.equal(body.components.securitySchemes.bearerKey.scheme, 'bearer');
    assert.deepEqual(body.paths['/api/v1/search'].get.security, [{}, { bearerKey: [] }]);
    assert.equal(body.paths['/api/v1/posts'].get.security, undefined);
    assert.equal(body.security, undefined, 'no global requirement');
  });

  test('x-api-lifecycle and the deprecated operations', async () => {
    const { body } = await json('/openapi.json');
    const lc = body['x-api-lifecycle'];
    assert.equal(lc.current_major_version, 'v1');
    assert.deepEqual(lc.supported_versions, ['v1']);
    assert.equal(lc.minimum_support_window_months, 12);
    assert.equal(lc.versioning_scheme, 'url-path');
    assert.ok(Array.isArray(lc.deprecation_signals) && lc.deprecation_signals.length >= 3);
    const byPath = Object.fromEntries(lc.deprecated_operations.map((o: any) => [o.path, o]));
    assert.deepEqual(Object.keys(byPath).sort(), ['/api/browse', '/api/convert']);
    assert.equal(byPath['/api/convert'].operationId, body.paths['/api/convert'].get.operationId);
    assert.equal(byPath['/api/convert'].deprecated, '2026-09-15');
    assert.equal(byPath['/api/convert'].sunset, '2027-09-15');
    assert.equal(byPath['/api/convert'].successor, '/api/v1/posts');
    assert.equal(byPath['/api/browse'].successor_parameter, 'resource');
    assert.deepEqual(byPath['/api/browse'].successors, {
      profile: '/api/v1/profiles/{handle}',
      followers: '/api/v1/profiles/{handle}/followers',
      following: '/api/v1/profiles/{handle}/following',
      search: '/api/v1/search',
    });
    const convert = body.paths['/api/convert'].get;
    assert.equal(convert.deprecated, true);
    assert.equal(convert['x-successor-version'], '/api/v1/posts');
    const browse = body.paths['/api/browse'].get;
    assert.equal(browse.deprecated, true);
    assert.equal(browse['x-successor-version-map'].search, '/api/v1/search');
    assert.equal(body.paths['/api/v1/posts'].get.deprecated, undefined);
  });
});

describe('GET /api', () => {
  test('name, version, links to every surface, versioning dates and health', async () => {
    const { res, body } = await json('/api');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(body.name, 'threadmark');
    assert.match(body.version, /^\d+\.\d+\.\d+/);
    for (const key of ['openapi', 'docs', 'mcp', 'api_catalog', 'ard', 'llms_txt', 'reliability', 'versioning']) {
      assert.ok(String(body.links[key]).startsWith(TEST_BASE), key);
    }
    const hrefs = [...body.surfaces.v1, ...body.surfaces.permalinks, ...body.surfaces.legacy].map((r: any) => r.path);
    assert.deepEqual(hrefs.sort(), [...PUBLIC_API_PATHS].sort());
    assert.deepEqual(
      body.surfaces.mcp.tools.sort(),
      PUBLIC_ROUTES.flatMap((r) => (r.decl.mcpTool ? [r.decl.mcpTool] : [])).sort(),
    );
    const v = body.versioning;
    assert.equal(v.current_major_version, 'v1');
    assert.deepEqual(v.supported_versions, ['v1']);
    const convert = v.deprecated_routes.find((d: any) => d.path === '/api/convert');
    assert.deepEqual(
      [convert.deprecated, convert.sunset, convert.successor],
      ['2026-09-15', '2027-09-15', '/api/v1/posts'],
    );
    const browse = v.deprecated_routes.find((d: any) => d.path === '/api/browse');
    assert.equal(browse.successor, undefined);
    assert.equal(browse.successor_parameter, 'resource');
    assert.equal(browse.successors.profile, '/api/v1/profiles/{handle}');
    assert.equal(browse.sunset, '2027-09-15');
    assert.ok('health' in body);
    assert.match(res.headers.get('link') ?? '', /rel="api-catalog"/);
  });

  test("health is the provider chain's own report, read on every request", async () => {
    const real = (await json('/api')).body.health;
    assert.deepEqual(
      real.providers.map((p: { name: string }) => p.name),
      s.app.services.providerHealth().map((p) => p.name),
    );
    const before = s.app.services.providerHealth;
    try {
      const report = [{ ...before()[0]!, breaker: 'open' as const }];
      s.app.services.providerHealth = () => report;
      assert.deepEqual((await json('/api')).body.health, { providers: report });
    } finally {
      s.app.services.providerHealth = before;
    }
  });
});

describe('well-known documents', () => {
  test('/.well-known/api-catalog is an RFC 9727 linkset', async () => {
    const { res, body } = await json('/.well-known/api-catalog');
    assert.match(
      res.headers.get('content-type') ?? '',
      /^application\/linkset\+json; profile="https:\/\/www\.rfc-editor\.org\/info\/rfc9727"/,
    );
    assert.equal(body.linkset.length, 1);
    const [entry] = body.linkset;
    assert.equal(entry.anchor, `${TEST_BASE}/api`);
    assert.deepEqual(entry['service-desc'], [
      { href: `${TEST_BASE}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1' },
    ]);
    assert.deepEqual(entry['service-doc'], [{ href: `${TEST_BASE}/docs`, type: 'text/html' }]);
    assert.equal(entry.status[0].href, `${TEST_BASE}/api`);
  });

  test('/.well-known/ard.json lists REST v1, permalinks, MCP and OpenAPI with their URLs', async () => {
    const { body } = await json('/.well-known/ard.json');
    const byType = (t: string) => body.entries.filter((e: any) => e.type === t);
    for (const e of body.entries) {
      assert.ok(e.identifier && e.displayName && e.type && e.url, JSON.stringify(e));
      assert.ok(e.url.startsWith(TEST_BASE));
    }
    assert.equal(byType('mcp')[0].url, `${TEST_BASE}/mcp`);
    assert.equal(byType('openapi')[0].url, `${TEST_BASE}/openapi.json`);
    const apis = byType('api');
    assert.ok(apis.some((e: any) => e.endpoints.includes(`${TEST_BASE}/api/v1/posts`)));
    assert.ok(apis.some((e: any) => e.endpoints.includes(`${TEST_BASE}/{handle}/status/{id}`)));
  });

  test('/llms.txt is a short Markdown guide naming the main routes and the MCP endpoint', async () => {
    const res = await s.get('/llms.txt');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; charset=utf-8/);
    const text = await res.text();
    assert.match(text, /^# threadmark\n\n> /);
    for (const needle of [
      '/api/v1/posts',
      '/api/v1/profiles/{handle}',
      '/api/v1/search',
      `${TEST_BASE}/mcp`,
      'nextCursor',
      'thread=off',
    ]) {
      assert.ok(text.includes(needle), needle);
    }
    // One terse line per read: the reads beyond the contract's (translations, hashtags, trends, profile tabs) need room.
    assert.ok(text.length < 12000, 'concise');
  });

  test('discovery routes share the public conventions: HEAD, OPTIONS and 405', async () => {
    const head = await s.get('/openapi.json', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
    const post = await s.get('/api', { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });

  test('every catalog code is documented in OpenAPI responses somewhere or is private', async () => {
    const { body } = await json('/openapi.json');
    const used = new Set<string>();
    for (const item of Object.values<any>(body.paths)) {
      for (const op of Object.values<any>(item))
        for (const r of Object.values<any>(op.responses)) for (const c of r['x-problem-codes'] ?? []) used.add(c);
    }
    const privateOnly = new Set([
      'unauthorized',
      'admin_unconfigured',
      'invalid_body',
      'not_ready',
      'key_store_unavailable',
      'batch_too_large',
    ]);
    for (const code of Object.keys(CATALOG)) if (!privateOnly.has(code)) assert.ok(used.has(code), code);
  });
});
