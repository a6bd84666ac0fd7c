// Paired load comparison: every contender is measured once per round, in an order that rotates from round to
// round, so drift on a shared machine hits all of them; each ratio is the median of the per-round ratios
// against the baseline measured in the same round.
import { load, type LoadFigures, type LoadOptions } from './wrk.ts';
import { median, round } from './stats.ts';

export interface Contender {
  label: string;
  opts: LoadOptions;
}

export interface Compared {
  rounds: Array<Record<string, number>>;
  median: Record<string, number>;
  /** Median per-round ratio of each contender's req/s to the baseline's, by label. */
  ratios: Record<string, number>;
  /** Set when the baseline's own figure was not the server's (wrk-bound or a busy machine; see generatorBound). */
  generatorBound?: string;
}

/** wrk's threads this busy (in cores per thread) means the generator, not the server, set the pace. */
const SATURATED = 0.9;
/** A closed-loop run on loopback keeps generator + server near two busy cores; far below, something else ran. */
const STARVED = 1;

/**
 * Why a measurement was bound by the load generator, or undefined when it was not: wrk's threads were
 * saturated while the server under test still had CPU to spare.
 */
export function generatorBound(f: Pick<LoadFigures, 'wrkCpu' | 'serverCpu'>, threads: number): string | undefined {
  // Neither side busy: other work on the machine set the pace, and every ratio is the scheduler's.
  if (f.wrkCpu + f.serverCpu < STARVED) {
    return `wrk and the baseline server used ${round(f.wrkCpu, 2)} + ${round(f.serverCpu, 2)} cores: the machine was busy with other work`;
  }
  if (!(f.wrkCpu >= SATURATED * threads)) return undefined;
  if (f.serverCpu >= SATURATED) return undefined;
  return `wrk used ${round(f.wrkCpu, 2)} cores of its ${threads} thread(s) while the server used ${round(f.serverCpu, 2)}: the baseline measured the load generator`;
}

export async function compareUnderLoad(
  contenders: Contender[],
  baseline: string,
  rounds: number,
  warmS = 1,
): Promise<Compared> {
  for (const c of contenders) await load({ ...c.opts, durationS: warmS });
  const out: Array<Record<string, number>> = [];
  for (let i = 0; i < rounds; i++) {
    const figures = new Map<string, LoadFigures>();
    for (let k = 0; k < contenders.length; k++) {
      const c = contenders[(i + k) % contenders.length]!;
      figures.set(c.label, await load(c.opts));
    }
    const base = figures.get(baseline)!;
    const row: Record<string, number> = {};
    for (const [label, f] of figures) {
      row[`${label}Rps`] = round(f.rps, 0);
      row[`${label}P99Ms`] = round(f.p99Ms, 2);
      row[`${label}Errors`] = f.errors;
      row[`${label}WrkCpu`] = round(f.wrkCpu, 2);
      row[`${label}ServerCpu`] = round(f.serverCpu, 2);
      // CPU time per request: steadier than req/s when other work shares the cores (it still inflates a little).
      row[`${label}UsPerReq`] = round((f.serverCpu / f.rps) * 1e6, 1);
      if (label !== baseline) {
        row[`${label}Ratio`] = round(f.rps / base.rps);
        row[`${label}CpuRatio`] = round(base.serverCpu / base.rps / (f.serverCpu / f.rps));
      }
    }
    out.push(row);
  }
  const med: Record<string, number> = {};
  for (const k of Object.keys(out[0]!)) med[k] = round(median(out.map((r) => r[k]!)), 3);
  const ratios: Record<string, number> = {};
  for (const c of contenders) if (c.label !== baseline) ratios[c.label] = med[`${c.label}Ratio`]!;
  const threads = contenders.find((c) => c.label === baseline)?.opts.threads ?? 1;
  const bound = generatorBound({ wrkCpu: med[`${baseline}WrkCpu`]!, serverCpu: med[`${baseline}ServerCpu`]! }, threads);
  return { rounds: out, median: med, ratios, ...(bound ? { generatorBound: bound } : {}) };
}
