// The failures fake sources reject with, as the real sources do (domain/failures.ts).
import { SourceError } from '../../../src/domain/failures.ts';

/** The content is not there (deleted, protected, missing), in the source's words. */
export const notFound = (detail: string) => new SourceError({ kind: 'not_found', detail });

/** No provider could answer: the edge answers it as 502 upstream_error. */
export const upstreamFailed = () =>
  new SourceError({ kind: 'no_answer', failure: { kind: 'no_provider', capability: 'post' }, answer: {} });
