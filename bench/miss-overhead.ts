// (2) Miss overhead: live reads through the service (cache bypassed with nocache, so every request reaches
// the simulator) against the same upstream request made directly, one of each in turn. Goal: ≤ 1 ms added at p50.
// The goal is the steady state of a running service: every contender first serves WARMUP reads, while the JIT
// compiles the miss path (a fresh process spends several times the CPU per read on its first reads). The first
// COLD reads of that warm-up are reported too, as the cost a just-started instance pays.
// Latency on a shared machine is the scheduler's as much as the service's: the service's CPU time per read is
// reported beside it (it does not count time spent waiting for a core), and a run on a machine whose load average
// exceeds its cores is marked inconclusive.
import { availableParallelism, loadavg } from 'node:os';
import { HANDLES, IDS } from '../sim/corpus.ts';
import type { BenchContext } from './lib/context.ts';
import type { BenchResult } from './lib/result.ts';
import { median, percentile, round } from './lib/stats.ts';
import { startBareProxy, startService, type SimInfo, type Target } from './lib/targets.ts';
import { timedGet } from './lib/timed-get.ts';
import { cpuSeconds } from './lib/wrk.ts';

const ID = IDS.threadPhoto;
const PATH = `/${HANDLES.alice}/status/${ID}?thread=off&nocache=true`;
const SAMPLES = 400;
const WARMUP = 2000;
const COLD = 400;
/** Added latency at p50 the service may cost over calling the upstream directly. */
const GOAL_MS = 1;

/** The upstream request the service makes for PATH, as the simulator logged it. */
async function upstreamUrl(sim: SimInfo): Promise<string> {
  const res = await fetch(`${sim.url}/__sim/calls?path=${ID}`);
  const { calls } = (await res.json()) as { calls: Array<{ target: string; path: string }> };
  const last = calls.at(-1);
  if (!last) throw new Error('the service made no upstream call');
  const bases: Record<string, string> = {
    fxtwitter: sim.fxtwitterUrl,
    syndication: sim.syndicationUrl,
    x: sim.xApiUrl,
  };
  const root = new URL(bases[last.target] ?? sim.url);
  return `${root.origin}${last.path}`;
}

/** Why latency figures taken now say little about the service, if they do not. */
function busyMachine(loads: number[]): string | undefined {
  const cores = availableParallelism();
  const worst = Math.max(...loads);
  if (worst <= cores) return undefined;
  return `load average reached ${worst.toFixed(1)} on ${cores} cores: other work decided when each process ran, so compare serviceCpuMsPerRead between builds rather than the latency`;
}

export async function run(ctx: BenchContext): Promise<BenchResult> {
  const service = await startService(ctx.sim, {}, ctx.serviceExecArgv);
  const loads = [loadavg()[0]!];
  let proxy: Target | undefined;
  try {
    let ip = 0;
    const viaService = () =>
      timedGet(service.url + PATH, { 'x-forwarded-for': `10.88.${(++ip >> 8) & 255}.${ip & 255}` });
    const first = await viaService();
    if (first.status !== 200) throw new Error(`service answered ${first.status}`);
    const direct = await upstreamUrl(ctx.sim);
    proxy = await startBareProxy(direct);
    const viaProxy = proxy.url + PATH;
    const before = (await (await fetch(`${ctx.sim.url}/__sim/calls?path=${ID}`)).json()) as { count: number };
    const coldService: number[] = [];
    const coldDirect: number[] = [];
    const coldCpu0 = cpuSeconds(service.pid);
    let coldCpu1: number | undefined;
    for (let i = 0; i < WARMUP; i++) {
      const ms = (await viaService()).ms;
      await timedGet(viaProxy);
      const directMs = (await timedGet(direct)).ms;
      if (i < COLD) {
        coldService.push(ms);
        coldDirect.push(directMs);
      } else if (i === COLD) coldCpu1 = cpuSeconds(service.pid);
    }
    const cold = {
      coldAddedP50Ms: round(percentile(coldService, 50) - percentile(coldDirect, 50)),
      ...(coldCpu0 !== undefined && coldCpu1 !== undefined
        ? { coldServiceCpuMsPerRead: round(((coldCpu1 - coldCpu0) * 1000) / COLD) }
        : {}),
    };
    const rounds: Array<Record<string, number>> = [];
    for (let r = 0; r < ctx.rounds; r++) {
      const s: number[] = [];
      const d: number[] = [];
      const f: number[] = [];
      const p: number[] = [];
      const cpu0 = cpuSeconds(service.pid);
      for (let i = 0; i < SAMPLES; i++) {
        const a = await viaService();
        if (a.status !== 200 || a.headers['x-cache'] !== 'bypass')
          throw new Error(`unexpected ${a.status} ${String(a.headers['x-cache'])}`);
        s.push(a.ms);
        p.push((await timedGet(viaProxy)).ms);
        d.push((await timedGet(direct)).ms);
        // The same upstream request through fetch() (the client the providers use), for scale.
        const t0 = performance.now();
        await (await fetch(direct)).arrayBuffer();
        f.push(performance.now() - t0);
      }
      const cpu1 = cpuSeconds(service.pid);
      const sp50 = percentile(s, 50);
      const dp50 = percentile(d, 50);
      const pp50 = percentile(p, 50);
      rounds.push({
        serviceP50Ms: round(sp50),
        serviceP99Ms: round(percentile(s, 99)),
        directP50Ms: round(dp50),
        directP99Ms: round(percentile(d, 99)),
        directFetchP50Ms: round(percentile(f, 50)),
        addedP50Ms: round(sp50 - dp50),
        addedP99Ms: round(percentile(s, 99) - percentile(d, 99)),
        ratio: round(sp50 / dp50),
        // The same exchange through a proxy that does nothing: the share of the added latency that is the extra
        // hop itself on this machine, and what the service costs beyond it.
        bareProxyP50Ms: round(pp50),
        bareProxyAddedP50Ms: round(pp50 - dp50),
        serviceOverBareProxyP50Ms: round(sp50 - pp50),
        // Everything the service did per read (logging and metrics after the answer included), at /proc's 10 ms
        // resolution over the round.
        ...(cpu0 !== undefined && cpu1 !== undefined
          ? { serviceCpuMsPerRead: round(((cpu1 - cpu0) * 1000) / SAMPLES) }
          : {}),
      });
      loads.push(loadavg()[0]!);
    }
    const after = (await (await fetch(`${ctx.sim.url}/__sim/calls?path=${ID}`)).json()) as { count: number };
    // The direct calls (node:http, and fetch in the rounds) and the bare proxy's are counted by the simulator too.
    const sampled = ctx.rounds * SAMPLES;
    const upstreamPerRead = (after.count - before.count - sampled) / (WARMUP + sampled) - 2;
    const med: Record<string, number> = {};
    for (const k of Object.keys(rounds[0]!)) med[k] = round(median(rounds.map((x) => x[k]!)));
    med.upstreamCallsPerServiceRead = round(upstreamPerRead, 2);
    Object.assign(med, cold);
    const busy = busyMachine(loads);
    const added = rounds.map((x) => x.addedP50Ms!);
    return {
      name: 'miss-overhead',
      goal: `≤ ${GOAL_MS} ms added latency at p50 on a cache miss`,
      met: med.addedP50Ms! <= GOAL_MS,
      ratio: med.ratio!,
      ratioOf: 'service p50 ÷ direct upstream p50',
      median: med,
      ...(busy ? { inconclusive: busy } : {}),
      rounds,
      notes: [
        `GET ${PATH} (nocache, so every read is live), ${SAMPLES} sequential samples per round after ${WARMUP} warm-up reads: service, bare proxy, direct call in turn`,
        `a just-started service (its first ${COLD} reads): added p50 ${cold.coldAddedP50Ms} ms, CPU ${cold.coldServiceCpuMsPerRead ?? '?'} ms per read`,
        `a bare node:http proxy adds ${med.bareProxyAddedP50Ms} ms at p50 on this machine (the extra hop); the service ${med.serviceOverBareProxyP50Ms} ms beyond it`,
        `added p50 ${round(med.addedP50Ms!)} ms, p99 ${round(med.addedP99Ms!)} ms (service p50/p99 ${med.serviceP50Ms}/${med.serviceP99Ms} ms, direct ${med.directP50Ms}/${med.directP99Ms} ms); rounds ranged ${round(Math.min(...added))}–${round(Math.max(...added))} ms at p50; load average ${loads.map((l) => l.toFixed(1)).join(' → ')}`,
      ],
    };
  } finally {
    await proxy?.stop();
    await service.stop();
  }
}
