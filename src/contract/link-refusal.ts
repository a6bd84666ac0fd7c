// The answer to a pasted link this service will not read (domain/pasted-link.ts), shared by URL-prefix reads and
// the home page so both refuse with the same code and words.
import type { LinkRefusal } from '../domain/pasted-link.ts';
import { Problem } from '../problems/problem.ts';

/** Another host is 400 unsupported_host; a broken link 400 bad_request; a path naming nothing readable 404. */
export function linkRefusalProblem(refusal: LinkRefusal): Problem {
  if (refusal.code === 'unsupported_host') return new Problem('unsupported_host', refusal.detail);
  if (refusal.code === 'invalid_url') return new Problem('bad_request', refusal.detail);
  return new Problem('route_not_found', refusal.detail);
}
