// Operator routes through the real server: /healthz, /readyz (ready, and each way of not being ready),
// /metrics (real counters moving), exemption from rate limits, and socket timeouts against slow clients.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { HANDLES, IDS } from '../../sim/corpus.ts';
import { clientKey } from '../../src/stores/limits/client-key.ts';
import { problemOf, startStack, type Stack } from '../helpers/stack.ts';
import { DEAD_REDIS_URL, REDIS_URL, redisSkip, uniquePrefix } from '../unit/stores/redis-env.ts';

const POST = `/${HANDLES.alice}/status/${IDS.threadRoot}`;
const OPS = ['/healthz', '/readyz', '/metrics'];

/** One sample of a Prometheus text exposition; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

async function metricsOf(s: Stack): Promise<string> {
  const res = await s.get('/metrics');
  assert.equal(res.status, 200);
  return res.text();
}

describe('healthz, readyz and metrics on a healthy instance', () => {
  let s: Stack;
  before(async () => {
    s = await startStack({ THREADMARK_UPSTREAM_RETRIES: '0' });
  });
  after(() => s.close());

  test('GET /healthz answers 200 {"status":"ok"}, uncacheable', async () => {
    const res = await s.get('/healthz');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(await res.json(), { status: 'ok' });
  });

  test('GET /readyz answers 200 with the checks that passed', async () => {
    const res = await s.get('/readyz');
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, 'ready');
    assert.equal(body.checks.stores.ok, true);
    assert.equal(body.checks.stores.mode, 'embedded');
    assert.equal(body.checks.stores.keys, 'ok');
    assert.deepEqual(body.checks.providers.usable, ['fxtwitter', 'syndication']);
    for (const p of body.checks.providers.providers) assert.equal(p.breaker, 'closed');
  });

  test('operator routes take GET and HEAD; other methods are 405 with Allow', async () => {
    for (const path of OPS) {
      const head = await s.get(path, { method: 'HEAD' });
      assert.equal(head.status, 200, path);
      assert.equal(await head.text(), '');
      const post = await s.get(path, { method: 'POST' });
      assert.equal(post.status, 405, path);
      assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
      assert.equal((await problemOf(post)).code, 'method_not_allowed');
    }
  });

  test('operator routes are not in OpenAPI', async () => {
    const doc = await (await s.get('/openapi.json')).json();
    for (const path of OPS) assert.equal(doc.paths[path], undefined, path);
  });

  test('operator routes advertise api-ip like every response but are never charged to it', async () => {
    const before = await s.get(`/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.threadRoot}`);
    const remaining = Number(before.headers.get('ratelimit-remaining'));
    for (let i = 0; i < 10; i++) {
      for (const path of OPS) {
        const res = await s.get(path);
        await res.arrayBuffer();
        assert.equal(res.headers.get('ratelimit-policy'), '"api-ip";q=600;w=60', path);
        assert.equal(Number(res.headers.get('ratelimit-remaining')), remaining, `${path} is not charged`);
      }
    }
    const afterwards = await s.get(`/api/v1/posts?handle=${HANDLES.alice}&id=${IDS.threadRoot}`);
    await afterwards.arrayBuffer();
    // Exactly one more charge: the second public request, none for the 30 operator requests.
    assert.equal(Number(afterwards.headers.get('ratelimit-remaining')), remaining - 1);
  });

  test('operator routes still answer when the caller has used up its allowance', async () => {
    const limiter = s.app.services.stores.limiter;
    const partition = clientKey('127.0.0.1');
    await limiter.consume('api-ip', partition, 600);
    try {
      const refused = await s.get(POST);
      assert.equal(refused.status, 429);
      assert.equal((await problemOf(refused)).code, 'rate_limited');
      for (const path of OPS) {
        const res = await s.get(path);
        await res.arrayBuffer();
        assert.equal(res.status, 200, path);
      }
      const text = await metricsOf(s);
      assert.ok((sample(text, 'threadmark_rate_limit_rejections_total', { policy: 'api-ip' }) ?? 0) >= 1);
    } finally {
      await limiter.reset('api-ip', partition);
    }
  });

  test('metrics: requests by route pattern and status, latency, cache results, upstream calls', async () => {
    const route = '/:handle/status/:id';
    const t0 = await metricsOf(s);
    const count = (t: string, status: string) =>
      sample(t, 'threadmark_http_requests_total', { route, method: 'GET', status }) ?? 0;
    const latency = (t: string) =>
      sample(t, 'threadmark_http_request_duration_seconds_count', { route, method: 'GET' }) ?? 0;
    const cache = (t: string, result: string) => sample(t, 'threadmark_cache_results_total', { result }) ?? 0;
    const calls = (t: string) => sample(t, 'threadmark_upstream_calls_total', { provider: 'fxtwitter' }) ?? 0;

    const id = IDS.thread[6]!;
    for (let i = 0; i < 2; i++) assert.equal((await s.get(`/${HANDLES.alice}/status/${id}`)).status, 200);
    // Refused by validation (handle too long): counted, but never reaches the cache.
    assert.equal((await s.get(`/${'a'.repeat(16)}/status/1`)).status, 400);
    assert.equal((await s.get('/no/such/route/here')).status, 404);

    const t1 = await metricsOf(s);
    assert.equal(count(t1, '200') - count(t0, '200'), 2);
    assert.equal(count(t1, '400') - count(t0, '400'), 1);
    assert.equal(latency(t1) - latency(t0), 3);
    assert.equal(
      sample(t1, 'threadmark_http_request_duration_seconds_bucket', { route, method: 'GET', le: '+Inf' }),
      latency(t1),
    );
    // Raw URLs never become label values: the unknown path is counted as unmatched.
    assert.ok(!t1.includes('/no/such/route/here'));
    assert.ok(
      (sample(t1, 'threadmark_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }) ?? 0) >= 1,
    );
    assert.equal(cache(t1, 'miss') - cache(t0, 'miss'), 1);
    assert.equal(cache(t1, 'hit') - cache(t0, 'hit'), 1);
    assert.ok(calls(t1) - calls(t0) >= 1);
    assert.equal(sample(t1, 'threadmark_provider_breaker_state', { provider: 'fxtwitter', state: 'closed' }), 1);
    assert.equal(sample(t1, 'threadmark_provider_breaker_state', { provider: 'fxtwitter', state: 'open' }), 0);
    assert.equal(sample(t1, 'threadmark_provider_capabilities', { provider: 'syndication' }), 2);
    // Process-wide metrics come along.
    assert.ok((sample(t1, 'process_cpu_user_seconds_total') ?? -1) >= 0);
    assert.ok((sample(t1, 'nodejs_heap_size_used_bytes') ?? 0) > 0);
    // The in-process rate-limit counters (not in nodejs_external_memory_bytes): 16-byte slots, api-ip's at least.
    const tables = sample(t1, 'threadmark_rate_limit_table_bytes') ?? 0;
    assert.ok(tables > 0 && tables % 16 === 0 && tables <= 16 * 2 ** 20 * 8, `${tables} bytes`);
  });

  test('metrics: upstream failures by provider, and live-lookup 429s by policy', async () => {
    const t0 = await metricsOf(s);
    const id = IDS.thread[7]!;
    s.sim.addFault({ target: 'fxtwitter', match: id, kind: 'status', status: 500 });
    try {
      await (await s.get(`/${HANDLES.alice}/status/${id}?thread=off`)).arrayBuffer();
    } finally {
      s.sim.clearFaults();
    }
    // nocache reads are charged to search-ip (5 a minute): the sixth is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await s.get(`/${HANDLES.alice}/status/${IDS.thread[8]}?thread=off&nocache=true`);
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
    const t1 = await metricsOf(s);
    const failures = (t: string) => sample(t, 'threadmark_upstream_failures_total', { provider: 'fxtwitter' }) ?? 0;
    assert.ok(failures(t1) - failures(t0) >= 1);
    assert.equal(
      sample(t1, 'threadmark_upstream_failures_total', { provider: 'syndication' }),
      sample(t0, 'threadmark_upstream_failures_total', { provider: 'syndication' }),
    );
    const rejected = (t: string) => sample(t, 'threadmark_rate_limit_rejections_total', { policy: 'search-ip' }) ?? 0;
    assert.equal(rejected(t1) - rejected(t0), 1);
  });

  test('each app has its own registry: a second instance in this process starts from zero', async () => {
    const other = await startStack({}, { sim: s.sim });
    try {
      const text = await metricsOf(other);
      assert.equal(
        sample(text, 'threadmark_http_requests_total', { route: '/:handle/status/:id', method: 'GET', status: '200' }),
        undefined,
      );
      assert.equal(sample(text, 'threadmark_upstream_calls_total', { provider: 'fxtwitter' }), 0);
    } finally {
      await other.close();
    }
  });
});

describe('readyz when the instance cannot serve', () => {
  test('503 not_ready once every provider breaker is open, and metrics show it', async () => {
    const s = await startStack({ THREADMARK_UPSTREAM_RETRIES: '0' });
    try {
      s.sim.addFault({ target: '*', kind: 'status', status: 500 });
      let ready: Response | undefined;
      // The breaker opens after 5 consecutive failures of each provider; a few reads are enough.
      for (let i = 0; i < 10; i++) {
        const res = await s.get(`${POST}?thread=off`);
        assert.equal(res.status, 502);
        await res.arrayBuffer();
        ready = await s.get('/readyz');
        if (ready.status === 503) break;
        await ready.arrayBuffer();
      }
      assert.equal(ready!.status, 503);
      assert.match(ready!.headers.get('content-type') ?? '', /^application\/problem\+json/);
      const p = await problemOf(ready!);
      assert.equal(p.code, 'not_ready');
      assert.match(String(p.detail), /breaker open/);
      const checks = p.checks as {
        stores: { ok: boolean };
        providers: { ok: boolean; usable: string[]; providers: { breaker: string }[] };
      };
      assert.equal(checks.stores.ok, true);
      assert.equal(checks.providers.ok, false);
      assert.deepEqual(checks.providers.usable, []);
      assert.deepEqual(
        checks.providers.providers.map((x) => x.breaker),
        ['open', 'open'],
      );
      const text = await metricsOf(s);
      for (const provider of ['fxtwitter', 'syndication']) {
        assert.equal(sample(text, 'threadmark_provider_breaker_state', { provider, state: 'open' }), 1);
        assert.ok((sample(text, 'threadmark_upstream_failures_total', { provider }) ?? 0) >= 5);
      }
      // /healthz is about the process only.
      assert.equal((await s.get('/healthz')).status, 200);
    } finally {
      await s.close();
    }
  });

  test('503 not_ready when no provider has any capability', async () => {
    // The X provider without sessions declares no capabilities.
    const s = await startStack({ THREADMARK_PROVIDERS: 'x' });
    try {
      const res = await s.get('/readyz');
      assert.equal(res.status, 503);
      const p = await problemOf(res);
      assert.equal(p.code, 'not_ready');
      assert.match(String(p.detail), /x: no capabilities/);
    } finally {
      await s.close();
    }
  });

  test('503 not_ready when the SQLite key store stops answering', async () => {
    const s = await startStack();
    try {
      assert.equal((await s.get('/readyz')).status, 200);
      await s.app.services.stores.keys.close();
      const res = await s.get('/readyz');
      assert.equal(res.status, 503);
      const p = await problemOf(res);
      const checks = p.checks as { stores: { ok: boolean; keys: string }; providers: { ok: boolean } };
      assert.deepEqual([checks.stores.ok, checks.stores.keys, checks.providers.ok], [false, 'unavailable', true]);
      assert.match(String(p.detail), /SQLite/);
    } finally {
      await s.close();
    }
  });

  test('distributed mode with Redis unreachable: degraded but ready (every instance would fail alike)', async () => {
    const s = await startStack({ THREADMARK_REDIS_URL: DEAD_REDIS_URL }, { redisPrefix: uniquePrefix() });
    try {
      const res = await s.get('/readyz');
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.checks.stores.mode, 'distributed');
      assert.equal(body.checks.stores.shared, 'down');
      assert.match(body.checks.stores.detail, /Redis is unreachable/);
      assert.equal(sample(await metricsOf(s), 'threadmark_shared_store_up'), 0);
    } finally {
      await s.close();
    }
  });

  test('distributed mode with Redis up: ready, shared store up', { skip: redisSkip }, async () => {
    const s = await startStack({ THREADMARK_REDIS_URL: REDIS_URL }, { redisPrefix: uniquePrefix() });
    try {
      const res = await s.get('/readyz');
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.deepEqual([body.checks.stores.shared, body.checks.stores.keys], ['up', 'ok']);
      assert.equal(sample(await metricsOf(s), 'threadmark_shared_store_up'), 1);
    } finally {
      await s.close();
    }
  });
});

describe('server timeouts', () => {
  let s: Stack;
  const port = () => Number(new URL(s.url).port);
  before(async () => {
    s = await startStack(
      {},
      { timeouts: { headersMs: 400, requestMs: 800, keepAliveMs: 400, idleMs: 700, checkIntervalMs: 100 } },
    );
  });
  after(() => s.close());

  /** Resolves with what the server wrote once it closes the connection. */
  function closed(sock: Socket): Promise<string> {
    let got = '';
    sock.on('data', (d: Buffer) => (got += d.toString()));
    sock.on('error', () => {});
    return once(sock, 'close').then(() => got);
  }

  test('a client trickling its headers is answered 408 and disconnected', { timeout: 5000 }, async () => {
    const sock = connect(port(), '127.0.0.1');
    await once(sock, 'connect');
    const done = closed(sock);
    sock.write('GET /healthz HTTP/1.1\r\nHost: threadmark.test\r\n');
    // Keep the connection busy with a byte every 100 ms, so only the header deadline can end it.
    const drip = setInterval(() => !sock.destroyed && sock.write('X'), 100);
    try {
      const got = await done;
      assert.match(got, /^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
    }
    assert.ok((sample(await metricsOf(s), 'threadmark_http_client_errors_total', { reason: 'timeout' }) ?? 0) >= 1);
  });

  test('a client that stops reading its answers is disconnected once nothing moves', { timeout: 10_000 }, async () => {
    const sock = connect(port(), '127.0.0.1');
    await once(sock, 'connect');
    sock.on('error', () => {});
    // Twelve pipelined copies of the OpenAPI document (about 9 MB) fill every buffer between the two sides.
    const ask = 'GET /openapi.json HTTP/1.1\r\nHost: threadmark.test\r\nAccept-Encoding: identity\r\n\r\n';
    sock.write(ask.repeat(12));
    sock.pause();
    // A paused socket does not report the close, and reading would be traffic: the server's own count is watched.
    const server = s.app.server.server;
    const open = () => new Promise<number>((r) => server.getConnections((_e, n) => r(n)));
    const started = Date.now();
    assert.ok((await open()) >= 1);
    while ((await open()) > 0 && Date.now() - started < 8000) await new Promise((r) => setTimeout(r, 50));
    const took = Date.now() - started;
    assert.equal(await open(), 0, 'the server closed the stalled connection');
    assert.ok(took >= 600, `closed after ${took} ms`);
    sock.destroy();
    assert.equal((await s.get(POST)).status, 200, 'the server answers others');
  });

  test('an idle keep-alive connection is closed; ordinary requests are unaffected', { timeout: 5000 }, async () => {
    const sock = connect(port(), '127.0.0.1');
    await once(sock, 'connect');
    const done = closed(sock);
    sock.write('GET /healthz HTTP/1.1\r\nHost: threadmark.test\r\n\r\n');
    const got = await done;
    assert.match(got, /^HTTP\/1\.1 200 /);
    assert.match(got, /\{"status":"ok"\}$/);
    assert.equal((await s.get(POST)).status, 200);
  });
});
