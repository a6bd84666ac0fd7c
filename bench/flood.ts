// (4) Distinct-client flood: 1,000,000 cache hits from 1,000,000 distinct client addresses (trusted
// X-Forwarded-For), as fast as wrk can send them, while a few active clients keep reading at a steady pace.
// Goal: the service's resident memory stays within its idle RSS + 50 MB, every active client's api-ip count is
// exact on every response, and one of them is refused exactly at request 601 after the flood.
import { readFileSync } from 'node:fs';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { round } from './lib/stats.ts';
import { timedGet } from './lib/timed-get.ts';
import { load } from './lib/wrk.ts';
import { CONNECTIONS, SINGLE_PATH, warmService } from './cache-hit.ts';

const FLOOD = Number(process.env.THREADMARK_BENCH_FLOOD ?? 1_000_000);
const BUDGET_MB = 50;
const QUOTA = 600;
const ACTIVE = ['192.0.2.10', '192.0.2.11', '192.0.2.12'];
const PACE_MS = 150;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

interface ActiveLog {
  requests: number;
  wrong: number;
  /** Requests in the current window, and that window's reset (s) at the last answer. */
  used: number;
  resetS: number;
}

/** One active client reading steadily; every answer's remaining allowance must be the exact count. */
async function activeClient(url: string, ip: string, until: () => boolean, log: ActiveLog): Promise<void> {
  let windowReset = Number.POSITIVE_INFINITY;
  let used = 0;
  while (!until()) {
    log.used = used;
    log.resetS = windowReset;
    const r = await timedGet(url, { 'x-forwarded-for': ip });
    const reset = Number(r.headers['ratelimit-reset']);
    // A new window (its reset jumped up): the count starts again.
    if (reset > windowReset + 1) used = 0;
    windowReset = reset;
    used++;
    log.requests++;
    if (r.status !== 200 || Number(r.headers['ratelimit-remaining']) !== QUOTA - used) log.wrong++;
    // At most 400 requests a minute: under the quota whatever the latency, so every answer is a 200.
    await new Promise((res) => setTimeout(res, PACE_MS));
  }
  log.used = used;
  log.resetS = windowReset;
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const { service } = await warmService(ctx, [SINGLE_PATH]);
  try {
    const url = service.url + SINGLE_PATH;
    // Idle: the service after a short load of its own (sockets, JIT, buffers settled), before any flood.
    await load({ url, serverPid: service.pid, connections: CONNECTIONS, durationS: 2, addresses: 1000 });
    await new Promise((r) => setTimeout(r, 1000));
    const idleMb = rssMb(service.pid);

    let peakMb = idleMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(service.pid))), 100);
    let flooding = true;
    const logs: ActiveLog[] = ACTIVE.map(() => ({ requests: 0, wrong: 0, used: 0, resetS: Number.POSITIVE_INFINITY }));
    const t0 = performance.now();
    const actives = ACTIVE.map((ip, i) => activeClient(url, ip, () => !flooding, logs[i]!));
    // A range of addresses of its own (10.0.0.0/8 from 2^23 up), none of them used before in this run.
    const flood = await load({
      url,
      serverPid: service.pid,
      connections: CONNECTIONS,
      durationS: 600,
      timeoutS: 600,
      mode: 'unique',
      addresses: FLOOD,
    }).finally(() => {
      flooding = false;
    });
    const floodS = (performance.now() - t0) / 1000;
    await Promise.all(actives);
    clearInterval(sampler);
    const afterMb = rssMb(service.pid);

    // The first active client, after the flood: its requests so far plus the rest of its quota are answered,
    // the next one is refused.
    const first = ACTIVE[0]!;
    // Close to the end of its window, wait for the next one: the burst below must fit in one window.
    let used = logs[0]!.used;
    if (logs[0]!.resetS < 5) {
      await new Promise((r) => setTimeout(r, (logs[0]!.resetS + 1) * 1000));
      used = 0;
    }
    let answered = 0;
    let refusedAt = 0;
    for (let n = 1; n <= QUOTA + 1; n++) {
      const r = await timedGet(url, { 'x-forwarded-for': first });
      if (r.status === 429) {
        refusedAt = n;
        break;
      }
      answered++;
    }
    const expectedRefusal = QUOTA - Math.min(QUOTA, used) + 1;
    const wrong = logs.reduce((a, l) => a + l.wrong, 0);
    const growthMb = peakMb - idleMb;
    const med = {
      floodRequests: flood.requests,
      floodRps: round(flood.rps, 0),
      floodS: round(floodS, 1),
      floodErrors: flood.errors,
      idleRssMb: round(idleMb, 1),
      peakRssMb: round(peakMb, 1),
      afterRssMb: round(afterMb, 1),
      growthMb: round(growthMb, 1),
      activeRequests: logs.reduce((a, l) => a + l.requests, 0),
      activeWrongCounts: wrong,
      refusedAt,
      expectedRefusalAt: expectedRefusal,
    };
    return {
      name: 'flood',
      goal: `${FLOOD.toLocaleString('en')} requests from as many distinct addresses: peak RSS ≤ idle + ${BUDGET_MB} MB, active clients counted exactly`,
      met:
        growthMb <= BUDGET_MB &&
        wrong === 0 &&
        refusedAt === expectedRefusal &&
        flood.requests >= FLOOD * 0.99 &&
        flood.errors === 0,
      ratio: round(peakMb / idleMb),
      ratioOf: 'peak RSS during the flood ÷ idle RSS of the same process',
      median: med,
      rounds: [med],
      notes: [
        `GET ${SINGLE_PATH} (a cache hit), wrk 1 thread, ${CONNECTIONS} connections, a new X-Forwarded-For on every request`,
        `${ACTIVE.length} active clients read every ${PACE_MS} ms during the flood; the first then reads until refused (expected at request ${expectedRefusal}, answered ${answered})`,
      ],
    };
  } finally {
    await service.stop();
  }
}
