// Prometheus metrics for GET /metrics. Each app owns its Registry, so several apps in one process (tests, the
// CLI's in-process mode) never collide; process-wide metrics (CPU, memory, event loop, GC) live in one shared
// registry, created on the first scrape and merged into every exposition.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallCounts, ProviderHealth } from '../providers/chain.ts';

export interface MetricsSources {
  /** Per-provider counters and breaker state of the chain (chain.health()). */
  providers: () => ProviderHealth[];
  /** Distributed mode only: whether Redis is reachable right now. */
  sharedStoreUp?: () => boolean;
  /** The response cache's size and lookups (stores/cache/responses.ts). */
  responses?: () => { entries: number; bytes: number; hits: number; misses: number };
  /** Bytes of the in-process rate-limit tables (stores/limits/window-table.ts). */
  limitTableBytes?: () => number;
  /** Upstream calls by the kind of payer charged and what they were for (chain.calls()). */
  callsByPayer?: () => CallCounts;
}

/** What one finished HTTP exchange contributes. */
export interface Exchange {
  /** Route pattern (e.g. /:handle/status/:id), never the raw URL, so label values stay bounded. */
  route: string | undefined;
  method: string;
  status: number;
  durationS: number;
  /** X-Cache of the response, when the route read through the cache. */
  cache?: string;
  /** The policy that refused the request, on 429s. */
  rejectedBy?: string;
}

/** Upper bounds (s) of the request-duration histogram's buckets. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The exchanges of one (route, method, status, X-Cache) combination, in plain numbers. Every response adds to
 * one of these (a few additions); the Prometheus metrics are computed from them when /metrics is scraped, so what a scrape shows is exact and
 * the request path pays no label hashing or validation.
 */
export class ExchangeSeries {
  count = 0;
  sum = 0;
  /** Observations per bucket (not cumulative); the last one is above every bound. */
  readonly buckets = new Float64Array(DURATION_BUCKETS.length + 1);

  constructor(
    readonly route: string,
    readonly method: string,
    readonly status: number,
    readonly cache: string | undefined,
  ) {}

  add(durationS: number): void {
    this.count++;
    this.sum += durationS;
    let i = 0;
    while (i < DURATION_BUCKETS.length && durationS > DURATION_BUCKETS[i]!) i++;
    this.buckets[i]!++;
  }
}

const DURATION = {
  name: 'threadmark_http_request_duration_seconds',
  help: 'Time from request received to response sent, by route pattern and method.',
};

/**
 * threadmark_http_request_duration_seconds, read from the exchange series at scrape time: the same samples
 * prom-client's Histogram writes (cumulative buckets, +Inf, sum, count per route and method).
 */
class SeriesHistogram extends Histogram<'route' | 'method'> {
  readonly #series: () => Iterable<ExchangeSeries>;

  constructor(registers: Registry[], series: () => Iterable<ExchangeSeries>) {
    super({
      name: DURATION.name,
      help: DURATION.help,
      labelNames: ['route', 'method'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.#series = series;
  }

  async getForPromString() {
    const byRoute = new Map<string, { labels: { route: string; method: string }; sum: number; buckets: number[] }>();
    for (const s of this.#series()) {
      const key = `${s.route}\n${s.method}`;
      let agg = byRoute.get(key);
      if (!agg) {
        agg = {
          labels: { route: s.route, method: s.method },
          sum: 0,
          buckets: new Array<number>(s.buckets.length).fill(0),
        };
        byRoute.set(key, agg);
      }
      agg.sum += s.sum;
      for (let i = 0; i < s.buckets.length; i++) agg.buckets[i]! += s.buckets[i]!;
    }
    const { name } = DURATION;
    const values = [];
    for (const { labels, sum, buckets } of byRoute.values()) {
      let acc = 0;
      for (let i = 0; i < DURATION_BUCKETS.length; i++) {
        acc += buckets[i]!;
        values.push({
          labels: { le: DURATION_BUCKETS[i]! },
          value: acc,
          metricName: `${name}_bucket`,
          sharedLabels: labels,
        });
      }
      const count = acc + buckets[DURATION_BUCKETS.length]!;
      values.push(
        { labels: { le: '+Inf' }, value: count, metricName: `${name}_bucket`, sharedLabels: labels },
        { labels: {}, value: sum, metricName: `${name}_sum`, sharedLabels: labels },
        { labels: {}, value: count, metricName: `${name}_count`, sharedLabels: labels },
      );
    }
    return { name, help: DURATION.help, type: 'histogram' as const, values, aggregator: 'sum' as const };
  }
}

const BREAKER_STATES = ['closed', 'half-open', 'open', 'off'] as const;
const CACHE_RESULTS = new Set(['hit', 'miss', 'stale', 'bypass']);
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);
const CLIENT_ERROR_REASONS: Record<string, string> = {
  ERR_HTTP_REQUEST_TIMEOUT: 'timeout',
  HPE_HEADER_OVERFLOW: 'header_overflow',
};

let processRegistry: Registry | undefined;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();
  readonly #series = new Map<string, ExchangeSeries>();
  readonly #rejections: Counter<'policy'>;
  readonly #clientErrors: Counter<'reason'>;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    const series = () => this.#series.values();
    new Counter({
      name: 'threadmark_http_requests_total',
      help: 'HTTP responses by route pattern, method and status code.',
      labelNames: ['route', 'method', 'status'],
      registers,
      collect() {
        this.reset();
        for (const s of series())
          if (s.count) this.inc({ route: s.route, method: s.method, status: String(s.status) }, s.count);
      },
    });
    new SeriesHistogram(registers, series);
    new Counter({
      name: 'threadmark_cache_results_total',
      help: 'Responses built from upstream reads, by X-Cache result (hit, miss, stale, bypass).',
      labelNames: ['result'],
      registers,
      collect() {
        this.reset();
        for (const s of series()) if (s.cache && s.count) this.inc({ result: s.cache }, s.count);
      },
    });
    this.#rejections = new Counter({
      name: 'threadmark_rate_limit_rejections_total',
      help: 'Requests refused with 429 rate_limited, by the policy that was exhausted.',
      labelNames: ['policy'],
      registers,
    });
    this.#clientErrors = new Counter({
      name: 'threadmark_http_client_errors_total',
      help: 'Connections dropped before a request was parsed: slow headers (timeout), oversized headers, bad syntax.',
      labelNames: ['reason'],
      registers,
    });

    // Upstream figures are the chain's own counters, read at scrape time rather than duplicated here.
    new Counter({
      name: 'threadmark_upstream_calls_total',
      help: 'Calls the provider chain made to each provider (answers, not-found answers and failures).',
      labelNames: ['provider'],
      registers,
      collect() {
        this.reset();
        for (const p of sources.providers()) this.inc({ provider: p.name }, p.successes + p.failures);
      },
    });
    if (sources.callsByPayer) {
      const counts = sources.callsByPayer;
      new Counter({
        name: 'threadmark_upstream_calls_by_payer_total',
        help: 'Upstream calls the provider chain made, by the kind of payer they were charged to (key, address) and what they were for (read, poll, translation, media). Every call has a payer.',
        labelNames: ['payer', 'call'],
        registers,
        collect() {
          this.reset();
          for (const [payer, calls] of Object.entries(counts()))
            for (const [call, n] of Object.entries(calls)) this.inc({ payer, call }, n);
        },
      });
    }
    new Counter({
      name: 'threadmark_upstream_failures_total',
      help: "Provider calls that failed (error, empty answer, network, 5xx, 429); each one counts toward its capability's breaker.",
      labelNames: ['provider'],
      registers,
      collect() {
        this.reset();
        for (const p of sources.providers()) this.inc({ provider: p.name }, p.failures);
      },
    });
    new Gauge({
      name: 'threadmark_provider_breaker_state',
      help: 'Circuit breaker state per provider (its worst capability): 1 on the current state, 0 on the others.',
      labelNames: ['provider', 'state'],
      registers,
      collect() {
        this.reset();
        for (const p of sources.providers()) {
          for (const state of BREAKER_STATES) this.set({ provider: p.name, state }, p.breaker === state ? 1 : 0);
        }
      },
    });
    new Gauge({
      name: 'threadmark_provider_capabilities',
      help: 'Capabilities a provider declares right now (0 = it cannot serve anything, e.g. no usable session).',
      labelNames: ['provider'],
      registers,
      collect() {
        this.reset();
        for (const p of sources.providers()) this.set({ provider: p.name }, p.capabilities.length);
      },
    });
    // Account-backed providers (x): which operation broke after an upstream deploy, and what sessions are left.
    new Counter({
      name: 'threadmark_upstream_operation_answers_total',
      help: 'Answers per upstream operation of account-backed providers: success, failure (refused, rate limited, unusable) or stale (out-of-date query id or features).',
      labelNames: ['provider', 'operation', 'result'],
      registers,
      collect() {
        this.reset();
        for (const p of sources.providers()) {
          for (const [operation, o] of Object.entries(p.operations ?? {})) {
            for (const result of ['success', 'failure', 'stale'] as const)
              this.inc({ provider: p.name, operation, result }, o[result]);
          }
        }
      },
    });
    new Gauge({
      name: 'threadmark_upstream_sessions_usable',
      help: 'Sessions of an account-backed provider that can serve each operation right now (not parked, locked or logged out).',
      labelNames: ['provider', 'operation'],
      registers,
      collect() {
        this.reset();
        for (const p of sources.providers()) {
          for (const [operation, o] of Object.entries(p.operations ?? {}))
            this.set({ provider: p.name, operation }, o.usableSessions);
        }
      },
    });
    if (sources.responses) {
      const stats = sources.responses;
      new Gauge({
        name: 'threadmark_response_cache_entries',
        help: 'Entries in the response cache (assembled reads, rendered bodies, serialized feeds).',
        registers,
        collect() {
          this.set(stats().entries);
        },
      });
      new Gauge({
        name: 'threadmark_response_cache_bytes',
        help: 'Estimated bytes held by the response cache; bounded by THREADMARK_RESPONSE_CACHE_MB.',
        registers,
        collect() {
          this.set(stats().bytes);
        },
      });
      new Counter({
        name: 'threadmark_response_cache_lookups_total',
        help: 'Response cache lookups by result (hit, miss). A value seen for the first time is not looked up.',
        labelNames: ['result'],
        registers,
        collect() {
          const { hits, misses } = stats();
          this.reset();
          this.inc({ result: 'hit' }, hits);
          this.inc({ result: 'miss' }, misses);
        },
      });
    }
    if (sources.limitTableBytes) {
      const bytes = sources.limitTableBytes;
      // Their resizable buffers are not in nodejs_external_memory_bytes: this is where they show.
      new Gauge({
        name: 'threadmark_rate_limit_table_bytes',
        help: 'Bytes held by the in-process rate-limit counters (16 per client slot, at most 16 MB per policy).',
        registers,
        collect() {
          this.set(bytes());
        },
      });
    }
    if (sources.sharedStoreUp) {
      const up = sources.sharedStoreUp;
      new Gauge({
        name: 'threadmark_shared_store_up',
        help: 'Distributed mode: 1 while Redis is reachable, 0 while cache and limits fall back to this instance.',
        registers,
        collect() {
          this.set(up() ? 1 : 0);
        },
      });
    }
  }

  observe(x: Exchange): void {
    this.series(x.route, x.method, x.status, x.cache).add(x.durationS);
    if (x.status === 429) this.#rejections.inc({ policy: x.rejectedBy ?? 'unknown' });
  }

  /** The series an exchange of this kind adds to. */
  series(route: string | undefined, method: string, status: number, cache: string | undefined): ExchangeSeries {
    const r = route ?? 'unmatched';
    const m = KNOWN_METHODS.has(method) ? method : 'other';
    const c = cache && CACHE_RESULTS.has(cache) ? cache : undefined;
    const key = `${r}\n${m}\n${status}\n${c ?? ''}`;
    let s = this.#series.get(key);
    if (!s) {
      s = new ExchangeSeries(r, m, status, c);
      this.#series.set(key, s);
    }
    return s;
  }

  clientError(code: string | undefined): void {
    if (code === 'ECONNRESET') return;
    this.#clientErrors.inc({ reason: (code && CLIENT_ERROR_REASONS[code]) ?? 'bad_request' });
  }

  /** The Prometheus text exposition: this app's metrics plus the process-wide ones. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([this.registry, processMetrics()]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}
