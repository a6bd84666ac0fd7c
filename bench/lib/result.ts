// The shape every benchmark returns, and how it is printed.
export interface BenchResult {
  name: string;
  /** What "good" means, in words (printed and stored). */
  goal: string;
  /** Whether the goal was met by the median figures. */
  met: boolean;
  /** Set when the run could not decide (e.g. the baseline measured the load generator): why. */
  inconclusive?: string;
  /** Service figure over baseline figure (what the ratio means is in `ratioOf`). */
  ratio: number;
  ratioOf: string;
  /**
   * Throughput benchmarks: the same comparison in CPU time per request (baseline's µs per request ÷ the
   * service's), from the same rounds. Other work on the machine moves it far less than req/s.
   */
  cpu?: { ratio: number; baselineUs: number; serviceUs: number };
  /** Median figures over the rounds (absolute values, units in the key names). */
  median: Record<string, number>;
  /** Every round's figures, so the spread is visible. */
  rounds: Array<Record<string, number>>;
  notes?: string[];
}

export function printResult(r: BenchResult): void {
  const figures = Object.entries(r.median)
    .map(([k, v]) => `${k}=${v}`)
    .join('  ');
  const verdict = r.inconclusive ? 'INCONCLUSIVE' : r.met ? 'goal met' : 'GOAL MISSED';
  console.log(`\n[${r.name}] ${verdict}: ${r.goal}`);
  if (r.inconclusive) console.log(`  inconclusive: ${r.inconclusive}`);
  console.log(`  ratio ${r.ratio} (${r.ratioOf}), median of ${r.rounds.length} rounds`);
  if (r.cpu) console.log(`  ${cpuLine(r.cpu)}`);
  console.log(`  ${figures}`);
  for (const n of r.notes ?? []) console.log(`  note: ${n}`);
}

/** `cpu ratio 0.93 (12.9 ÷ 13.8 µs CPU per request)`. */
export function cpuLine(c: NonNullable<BenchResult['cpu']>): string {
  return `cpu ratio ${c.ratio} (${c.baselineUs} ÷ ${c.serviceUs} µs of server CPU per request)`;
}
