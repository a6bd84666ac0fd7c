// The catalog code a failed read answers with at the edge: a source's problem as it is, a use case's refusal as the
// problem mapper turns it into one (so these tests also pin what the client is told).
import { isDomainError } from '../../../src/domain/errors.ts';
import { domainProblem } from '../../../src/http/failures/domain-problem.ts';
import { isProblem } from '../../../src/problems/problem.ts';

export function codeOf(err: unknown): string {
  if (isProblem(err)) return err.code;
  if (isDomainError(err)) return domainProblem(err.failure).code;
  return String(err);
}
