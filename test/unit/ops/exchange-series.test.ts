// Request metrics are kept as plain per-series numbers and turned into Prometheus samples at scrape time
// (ops/metrics.ts): the exposition must be what prom-client's own Counter and Histogram write for the same
// exchanges, line for line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { Metrics, type Exchange } from '../../../src/ops/metrics.ts';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function reference(exchanges: Exchange[]): Promise<string> {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'threadmark_http_requests_total',
    help: 'HTTP responses by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status'],
    registers,
  });
  const latency = new Histogram({
    name: 'threadmark_http_request_duration_seconds',
    help: 'Time from request received to response sent, by route pattern and method.',
    labelNames: ['route', 'method'],
    buckets: BUCKETS,
    registers,
  });
  const cache = new Counter({
    name: 'threadmark_cache_results_total',
    help: 'Responses built from upstream reads, by X-Cache result (hit, miss, stale, bypass).',
    labelNames: ['result'],
    registers,
  });
  for (const x of exchanges) {
    const route = x.route ?? 'unmatched';
    requests.inc({ route, method: x.method, status: String(x.status) });
    latency.observe({ route, method: x.method }, x.durationS);
    if (x.cache) cache.inc({ result: x.cache });
  }
  return registry.metrics();
}

/** The request metrics' lines; sums to 12 significant digits (they add the same numbers in another order). */
const pick = (text: string) =>
  text
    .split('\n')
    .filter((l) => /threadmark_(http_requests_total|http_request_duration_seconds|cache_results_total)/.test(l))
    .map((l) => (l.includes('_sum{') ? l.replace(/ (\S+)$/, (_, v: string) => ` ${Number(v).toPrecision(12)}`) : l))
    .join('\n');

test('the exposition of exchange series is line for line what prom-client writes', async () => {
  const exchanges: Exchange[] = [];
  const routes = ['/:handle/status/:id', '/api/v1/posts', undefined];
  // Durations on and around every bucket bound, over several routes, statuses and cache results.
  const durations = [0, 0.0001, ...BUCKETS, ...BUCKETS.map((b) => b * 1.001), 31, 120];
  let i = 0;
  for (const d of durations) {
    for (const route of routes) {
      const status = [200, 200, 404, 500][i % 4]!;
      const cache = status === 200 ? (['hit', 'miss', 'stale', 'bypass'] as const)[i % 4] : undefined;
      exchanges.push({ route, method: 'GET', status, durationS: d, cache, rejectedBy: undefined });
      i++;
    }
  }
  const metrics = new Metrics({ providers: () => [] });
  for (const x of exchanges) metrics.observe(x);
  assert.equal(pick((await metrics.exposition()).body), pick(await reference(exchanges)));
});

test('a series handle counts what observe counts, and a scrape shows every exchange added before it', async () => {
  const metrics = new Metrics({ providers: () => [] });
  const hits = metrics.series('/:handle/status/:id', 'GET', 200, 'hit');
  assert.equal(hits, metrics.series('/:handle/status/:id', 'GET', 200, 'hit'), 'one series per combination');
  for (let i = 0; i < 1000; i++) hits.add(0.0002);
  metrics.observe({ route: '/:handle/status/:id', method: 'GET', status: 200, durationS: 0.2, cache: 'hit' });
  const text = (await metrics.exposition()).body;
  assert.match(
    text,
    /threadmark_http_requests_total\{route="\/:handle\/status\/:id",method="GET",status="200"\} 1001\n/,
  );
  assert.match(text, /threadmark_cache_results_total\{result="hit"\} 1001\n/);
  assert.match(
    text,
    /threadmark_http_request_duration_seconds_bucket\{le="0.005",route="\/:handle\/status\/:id",method="GET"\} 1000\n/,
  );
  assert.match(
    text,
    /threadmark_http_request_duration_seconds_count\{route="\/:handle\/status\/:id",method="GET"\} 1001\n/,
  );
});
