// The catalog code a failed read answers with at the edge, as the failure mapper turns it into one (so these tests
// also pin what the client is told).
import { toProblem } from '../../../src/http/failures/problem-of.ts';

export function codeOf(err: unknown): string {
  const p = toProblem(err);
  return p.code === 'internal_error' ? String(err) : p.code;
}
