// A provider chain run as the application's sources see it: the answer, or the failure it is for the read
// (src/sources/served.ts).
import { served } from '../../src/sources/served.ts';
import type { FailureAnswer } from '../../src/domain/failures.ts';
import type { ChainOutcome } from '../../src/providers/failure.ts';

export async function serve<T>(run: Promise<ChainOutcome<T>>, answer?: FailureAnswer) {
  return served(await run, answer);
}
