// The answer to a use case's refusal (domain/errors.ts): the catalog code and the words the client reads. The
// domain says what is wrong in its own terms; which parameter carried it and what status that earns is the edge's.
import type { CursorRefusal, DomainFailure } from '../../domain/errors.ts';
import { impossibleIdDetail } from '../../domain/ids.ts';
import { Problem } from '../../problems/problem.ts';

const CURSOR_DETAIL: Record<CursorRefusal, string> = {
  not_issued: 'The cursor is not one this service issued.',
  forged: 'The cursor was edited, forged, or issued by another deployment.',
  elsewhere: 'The cursor belongs to another route, query or feed; send it only where it was issued.',
};

export function domainProblem(failure: DomainFailure): Problem {
  switch (failure.kind) {
    case 'missing_query':
      return new Problem('missing_query', 'Pass the search terms in `q`.');
    case 'query_too_long':
      return new Problem(
        'invalid_query',
        failure.withWindow
          ? `Search terms and date window are limited to ${failure.max} characters together.`
          : `Search terms are limited to ${failure.max} characters.`,
      );
    case 'bad_cursor':
      return new Problem(
        failure.of === 'export' ? 'invalid_export_cursor' : 'invalid_cursor',
        CURSOR_DETAIL[failure.why],
      );
    case 'impossible_list_id':
      return new Problem('not_found', impossibleIdDetail('list', failure.id));
  }
}
