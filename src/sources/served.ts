// What the sources do with a run of the provider chain: its answer, or the typed failure the read rejects with
// (domain/failures.ts). A provider's "gone" and an unconfirmed "not found" are the content not being there, in the
// words of the provider that said it; any other failure goes on as the chain reported it, with how this read answers
// it (a failed search is a 503, a failed post read a 502: http/failures/problem-of.ts decides).
import { SourceError, plainDetail, type ChainFailure, type FailureAnswer } from '../domain/failures.ts';
import type { ChainOutcome } from '../providers/failure.ts';
import type { Loaded } from './cached-reader.ts';

/** The answer of a run, or the failure it is for this read. */
export function served<T>(outcome: ChainOutcome<T>, answer: FailureAnswer = {}): Loaded<T> {
  if (!outcome.ok) throw failureOf(outcome.failure, answer);
  return { value: outcome.value, source: outcome.source };
}

export function failureOf(failure: ChainFailure, answer: FailureAnswer = {}): SourceError {
  switch (failure.kind) {
    case 'gone':
      return new SourceError({
        kind: 'not_found',
        detail: plainDetail(failure.provider, failure.message),
        source: failure.provider,
        ...(answer.notFound ? { resolution: answer.notFound } : {}),
      });
    case 'unconfirmed':
      return new SourceError({
        kind: 'not_found',
        detail: `${failure.failures.map((f) => plainDetail(f.provider, f.message)).join('; ')}; no other provider could confirm it.`,
        source: failure.failures[0]!.provider,
        confirmed: false,
        ...(answer.notFound ? { resolution: answer.notFound } : {}),
      });
    case 'no_provider':
    case 'failed':
      return new SourceError({ kind: 'no_answer', failure, answer });
  }
}
