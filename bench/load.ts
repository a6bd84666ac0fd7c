// Load test (`npm run load [seconds]`, or THREADMARK_LOAD_S): the real service and the simulator, each in its own
// process on loopback, under autocannon for 60 s by default with a mix of cache hits, misses (every post and
// profile of the corpus, with a short cache lifetime so entries keep expiring), caller errors (invalid
// parameters, not_found, unknown routes, refused methods) and rate-limited callers (a few addresses doing live
// searches past search-ip, one hammering past api-ip). Reports requests/s, latency, status counts and the
// service's RSS sampled every few seconds. Exits non-zero on any 5xx, any status outside the expected set, or
// transport errors. Not part of `npm test`.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { getCorpus, HANDLES, IDS, SEARCH_TERMS } from '../sim/corpus.ts';
import { startChild } from './lib/proc.ts';
import { BENCH_ENV, startSim } from './lib/targets.ts';

const DURATION_S = Number(process.argv[2] ?? process.env.THREADMARK_LOAD_S ?? 60);
const CONNECTIONS = Number(process.env.THREADMARK_LOAD_CONNECTIONS ?? 20);
const SAMPLE_MS = 5000;

type Result = Awaited<ReturnType<typeof autocannon>> & { statusCodeStats?: Record<string, { count: number }> };
const EXPECTED = new Set([200, 400, 404, 405, 429]);

// ---------- the request mix ----------

const corpus = getCorpus();
const handleOf = (userId: string) => corpus.users.get(userId)?.handle ?? HANDLES.alice;
const allPosts = [...corpus.posts.values()].map((p) => `/${handleOf(p.authorId)}/status/${p.id}`);
const allProfiles = [...corpus.users.values()].map((u) => `/api/v1/profiles/${u.handle}?format=json`);
const hot = [
  `/${HANDLES.alice}/status/${IDS.threadRoot}`,
  `/${HANDLES.alice}/status/${IDS.threadRoot}?format=json`,
  `/api/v1/posts?url=${encodeURIComponent(`https://x.com/${HANDLES.carol}/status/${IDS.carolQuoted}`)}`,
  `/${HANDLES.alice}`,
  `/api/v1/profiles/${HANDLES.big}/followers`,
  `/${HANDLES.alice}/status/${IDS.threadPoll}?format=html`,
  `/search?q=${SEARCH_TERMS.caching}`,
];
const errors = [
  { path: '/api/v1/posts?url=ftp%3A%2F%2Fexample.com%2Fa' }, // 400 invalid_url / unsupported_host
  { path: `/${HANDLES.alice}/status/${IDS.threadRoot}?thread=sideways` }, // 400 invalid_thread
  { path: `/${HANDLES.missing}/status/${IDS.unknown}?format=json` }, // 404 not_found (cached miss, still asks upstream when expired)
  { path: `/${HANDLES.alice}/status/${IDS.deleted}?format=json` }, // 404 not_found
  { path: '/api/v9/everything' }, // 404 route_not_found
  { path: `/${HANDLES.alice}`, method: 'DELETE' }, // 405 method_not_allowed
];

let seq = 0;
let missAt = 0;
let searchAt = 0;
/** 4000 ordinary clients: the mix stays well under api-ip (600 per minute) for each of them. */
const ordinaryIp = () => `10.1.${(seq >> 8) % 16}.${seq % 256}`;
const ABUSERS = ['192.0.2.1', '192.0.2.2', '192.0.2.3'];
const HAMMER = '198.51.100.7';

interface Planned {
  path: string;
  method: string;
  headers: Record<string, string>;
}

function nextRequest(): Planned {
  seq++;
  const r = seq % 20;
  const ip = ordinaryIp();
  if (r < 10) return { path: hot[seq % hot.length]!, method: 'GET', headers: { 'x-forwarded-for': ip } }; // hits
  if (r < 14) {
    // Misses: walk the whole corpus; with a 5 s cache lifetime the walk finds expired entries again and again.
    missAt++;
    const path = missAt % 3 === 0 ? allProfiles[missAt % allProfiles.length]! : allPosts[missAt % allPosts.length]!;
    return { path, method: 'GET', headers: { 'x-forwarded-for': ip } };
  }
  if (r < 17) {
    const e = errors[seq % errors.length]!;
    return { path: e.path, method: e.method ?? 'GET', headers: { 'x-forwarded-for': ip } };
  }
  if (r < 19) {
    // Live searches from a few addresses: five per minute each, then 429 rate_limited.
    searchAt++;
    return {
      path: `/api/v1/search?q=load${searchAt}`,
      method: 'GET',
      headers: { 'x-forwarded-for': ABUSERS[searchAt % ABUSERS.length]! },
    };
  }
  return { path: hot[0]!, method: 'GET', headers: { 'x-forwarded-for': HAMMER } }; // past api-ip within seconds
}

// ---------- memory sampling ----------

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

// ---------- run ----------

const sim = await startSim();
const service = await startChild<{ url: string; pid: number }>('service.ts', {
  env: {
    THREADMARK_FXTWITTER_URL: sim.info.fxtwitterUrl,
    THREADMARK_SYNDICATION_URL: sim.info.syndicationUrl,
    THREADMARK_X_API_URL: sim.info.xApiUrl,
    THREADMARK_BASE_URL: 'http://threadmark.test',
    THREADMARK_CACHE_TTL_S: '5',
    LOG_LEVEL: 'warn',
    ...BENCH_ENV,
  },
});
const { url, pid } = service.ready;
const samples: { atS: number; rssMb: number }[] = [{ atS: 0, rssMb: rssMb(pid) }];
const started = Date.now();
const sampler = setInterval(
  () => samples.push({ atS: Math.round((Date.now() - started) / 1000), rssMb: rssMb(pid) }),
  SAMPLE_MS,
);

/** The first few 5xx answers, with the request that got them, for the report. */
const failedSamples: string[] = [];
let result: Result;
try {
  result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    pipelining: 1,
    requests: [
      {
        setupRequest: (req, context) => {
          const n = nextRequest();
          context.last = `${n.method} ${n.path}`;
          return { ...req, path: n.path, method: n.method, headers: n.headers };
        },
        onResponse: (status, body, context) => {
          if (status >= 500 && failedSamples.length < 10)
            failedSamples.push(`${status} ${String(context.last)} ${body.slice(0, 300)}`);
        },
      },
    ],
  });
} finally {
  clearInterval(sampler);
  samples.push({ atS: Math.round((Date.now() - started) / 1000), rssMb: rssMb(pid) });
  await service.stop();
  await sim.stop();
}

const statuses: Record<string, number> = {};
for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = s.count;
const total = Object.values(statuses).reduce((a, b) => a + b, 0);
const unexpected = Object.keys(statuses).filter((c) => !EXPECTED.has(Number(c)));
const fivexx = Object.entries(statuses)
  .filter(([c]) => Number(c) >= 500)
  .reduce((a, [, n]) => a + n, 0);
const rss = samples.map((s) => s.rssMb);
// After the first sample past 10 s the heap has grown to its working size; growth from there is what a leak shows.
const warm = samples.find((s) => s.atS >= 10)?.rssMb ?? rss[0]!;
const figures = {
  durationS: DURATION_S,
  connections: CONNECTIONS,
  requests: total,
  requestsPerS: Math.round(result.requests.average),
  latencyMs: { p50: result.latency.p50, p99: result.latency.p99, avg: Math.round(result.latency.average * 100) / 100 },
  statuses,
  transportErrors: result.errors,
  timeouts: result.timeouts,
  rssMb: {
    start: rss[0],
    afterWarmup: warm,
    peak: Math.max(...rss),
    end: rss[rss.length - 1],
    samples: samples.map((s) => `${s.atS}s:${s.rssMb}`).join(' '),
  },
};
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);

const failures: string[] = [];
if (fivexx > 0) failures.push(`${fivexx} responses were 5xx, e.g.\n  ${failedSamples.join('\n  ')}\n`);
if (unexpected.length) failures.push(`unexpected statuses: ${unexpected.join(', ')}`);
if (result.errors > 0 || result.timeouts > 0)
  failures.push(`${result.errors} transport errors, ${result.timeouts} timeouts`);
if (!statuses['429']) failures.push('the rate-limited callers never saw a 429');
if (figures.rssMb.end! > warm * 2) failures.push(`RSS grew from ${warm} MB to ${figures.rssMb.end} MB`);
if (failures.length) {
  process.stderr.write(`load test FAILED: ${failures.join('; ')}\n`);
  process.exit(1);
}
process.stdout.write('load test passed: no 5xx, only the intended 4xx/429s, memory flat\n');
process.exit(0);
