// A provider chain run as the application's sources see it: the answer, or the catalog problem its failure
// is for the read (src/sources/chain-problem.ts).
import { served, type FailureAnswer } from '../../src/sources/chain-problem.ts';
import type { ChainOutcome } from '../../src/providers/failure.ts';

export async function serve<T>(run: Promise<ChainOutcome<T>>, answer?: FailureAnswer) {
  return served(await run, answer);
}
