// What a run of the provider chain ends with: the first answer and who gave it, or the failure the providers
// reported (declared in the domain, domain/failures.ts, since the sources reject with it and the edge maps it).
import type { ChainFailure } from '../domain/failures.ts';

export type { ChainFailure, Failure } from '../domain/failures.ts';

/** A run's result: the first answer and who gave it, or why there is none. */
export type ChainOutcome<T> = { ok: true; value: T; source: string } | { ok: false; failure: ChainFailure };
