// Paired load comparison: the service and its baseline are measured alternately in every round, so drift
// on a shared machine hits both; the ratio is the median of the per-round ratios.
import { load, type LoadFigures, type LoadOptions } from './load.ts';
import { median, round } from './stats.ts';

export interface Paired {
  rounds: Array<Record<string, number>>;
  median: Record<string, number>;
  ratio: number;
}

export async function compareUnderLoad(
  a: { label: string; opts: LoadOptions },
  b: { label: string; opts: LoadOptions },
  rounds: number,
  warmS = 1,
): Promise<Paired> {
  await load({ ...a.opts, durationS: warmS });
  await load({ ...b.opts, durationS: warmS });
  const out: Array<Record<string, number>> = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate who goes first: whatever else the machine does then is shared out evenly.
    let fa: LoadFigures;
    let fb: LoadFigures;
    if (i % 2 === 0) {
      fa = await load(a.opts);
      fb = await load(b.opts);
    } else {
      fb = await load(b.opts);
      fa = await load(a.opts);
    }
    out.push({
      [`${a.label}Rps`]: round(fa.rps, 0),
      [`${b.label}Rps`]: round(fb.rps, 0),
      [`${a.label}P99Ms`]: fa.p99Ms,
      [`${b.label}P99Ms`]: fb.p99Ms,
      [`${a.label}Non2xx`]: fa.non2xx + fa.errors,
      [`${b.label}Non2xx`]: fb.non2xx + fb.errors,
      ratio: round(fa.rps / fb.rps),
    });
  }
  const med: Record<string, number> = {};
  for (const k of Object.keys(out[0]!)) med[k] = round(median(out.map((r) => r[k]!)), 3);
  return { rounds: out, median: med, ratio: med.ratio! };
}
