// What the orchestrator hands every benchmark.
import type { SimInfo } from './targets.ts';

export interface BenchContext {
  sim: SimInfo;
  /** Rounds per measurement (the median is reported). */
  rounds: number;
  /** Seconds per load measurement. */
  durationS: number;
  /** Extra node flags for the service process (e.g. --cpu-prof while profiling). */
  serviceExecArgv: string[];
}
