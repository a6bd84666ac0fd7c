// Upstream client: one miss's upstream call made by the client in use (src/providers/http.ts, on node:http) and by
// the alternatives on undici — Node's built-in fetch, and the undici package's request API when it is installed —
// each with the same contract (redirects with credentials dropped across origins, decoding, size cap, timeout).
// Measured in this process against loopback upstreams in their own processes: the simulator's FxTwitter status
// answer as it sends it, and the same bytes gzip-compressed as the real upstreams send them. Latency is the p50 of
// sequential calls on a kept-alive connection; CPU is this process's CPU time per call, sequential and 8 in flight.
// Ratios are alternative ÷ node:http: above 1 means the alternative costs more.
import { gzipSync } from 'node:zlib';
import { IDS } from '../sim/corpus.ts';
import { fetchUpstream } from '../src/providers/http.ts';
import type { BenchContext } from './lib/context.ts';
import { loadUndici, viaFetch, viaUndici } from './lib/fetch-upstream.ts';
import type { BenchResult } from './lib/result.ts';
import { median, percentile, round } from './lib/stats.ts';
import { startBare, type Target } from './lib/targets.ts';

const SEQUENTIAL = 300;
const IN_FLIGHT = 8;
const CONCURRENT = 400;
const WARMUP = 30;

type Client = (url: string) => Promise<{ status: number; text: string }>;

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

async function measure(client: Client, url: string, expect: string): Promise<Record<string, number>> {
  for (let i = 0; i < WARMUP; i++) await client(url);
  const first = await client(url);
  if (first.status !== 200 || first.text !== expect) throw new Error(`unexpected answer from ${url}`);
  const ms: number[] = [];
  let cpu0 = cpuUs();
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t0 = process.hrtime.bigint();
    await client(url);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const seqCpu = (cpuUs() - cpu0) / SEQUENTIAL;
  cpu0 = cpuUs();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < CONCURRENT) await client(url);
    }),
  );
  const concCpu = (cpuUs() - cpu0) / CONCURRENT;
  return { p50Ms: percentile(ms, 50), p90Ms: percentile(ms, 90), cpuUsSeq: seqCpu, cpuUsConc: concCpu };
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const plainUrl = `${ctx.sim.fxtwitterUrl}/2/status/${IDS.threadPhoto}`;
  const body = await (await fetch(plainUrl)).text();
  let gz: Target | undefined;
  try {
    gz = await startBare(gzipSync(body), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    const targets = { plain: plainUrl, gzip: gz.url };
    const undici = await loadUndici();
    const clients: Record<string, Client> = {
      nodeHttp: (url) => fetchUpstream('bench', url, { timeoutMs: 5000 }),
      fetch: (url) => viaFetch('bench', url, { timeoutMs: 5000 }),
      ...(undici ? { undici: (url: string) => viaUndici(undici, 'bench', url, { timeoutMs: 5000 }) } : {}),
    };
    const names = Object.keys(clients);
    const rounds: Array<Record<string, number>> = [];
    for (let r = 0; r < ctx.rounds; r++) {
      const row: Record<string, number> = {};
      for (const [target, url] of Object.entries(targets)) {
        // A different client goes first each round, so warm-up and drift do not favour one.
        const order = names.map((_, i) => names[(i + r) % names.length]!);
        const got: Record<string, Record<string, number>> = {};
        for (const name of order) got[name] = await measure(clients[name]!, url, body);
        for (const name of names) {
          for (const [k, v] of Object.entries(got[name]!))
            row[`${target}.${name}.${k}`] = round(v, k.startsWith('cpu') ? 1 : 3);
          if (name === 'nodeHttp') continue;
          for (const k of ['p50Ms', 'cpuUsSeq', 'cpuUsConc'])
            row[`${target}.${name}/nodeHttp.${k}`] = round(got[name]![k]! / got.nodeHttp![k]!);
        }
      }
      rounds.push(row);
    }
    const med: Record<string, number> = {};
    for (const k of Object.keys(rounds[0]!)) med[k] = round(median(rounds.map((x) => x[k]!)));
    const worst = Math.min(
      ...['plain', 'gzip'].flatMap((t) =>
        ['p50Ms', 'cpuUsSeq', 'cpuUsConc'].map((k) => med[`${t}.fetch/nodeHttp.${k}`]!),
      ),
    );
    return {
      name: 'upstream-client',
      goal: "the client in use (node:http) costs no more per miss than Node's fetch: fetch ÷ node:http ≥ 1 in p50 latency and CPU, plain and gzip",
      met: worst >= 1,
      ratio: med['plain.fetch/nodeHttp.p50Ms']!,
      ratioOf: 'fetch p50 ÷ node:http p50, one upstream call, plain body',
      median: med,
      rounds,
      notes: [
        `body ${Buffer.byteLength(body)} bytes (gzip ${gzipSync(body).byteLength}); ${SEQUENTIAL} sequential and ${CONCURRENT} calls ${IN_FLIGHT} in flight per client per round`,
        undici
          ? 'undici: the npm package (a transitive dev dependency here), not a dependency of the service'
          : 'undici package not installed: fetch only',
      ],
    };
  } finally {
    await gz?.stop();
  }
}
