// A use case's refusal, as the client reads it: code, status, headers and words, for every kind of refusal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DomainError, type DomainFailure } from '../../../src/domain/errors.ts';
import { toProblem } from '../../../src/http/failures/problem-reply.ts';

const answer = (failure: DomainFailure) => {
  const p = toProblem(new DomainError(failure));
  return { code: p.code, status: p.status, detail: p.detail, headers: p.headers, extensions: p.extensions };
};
const plain = { headers: {}, extensions: {} };

test('search terms: missing, too long alone, too long with the date window', () => {
  assert.deepEqual(answer({ kind: 'missing_query' }), {
    code: 'missing_query',
    status: 400,
    detail: 'Pass the search terms in `q`.',
    ...plain,
  });
  assert.deepEqual(answer({ kind: 'query_too_long', max: 512, withWindow: false }), {
    code: 'invalid_query',
    status: 400,
    detail: 'Search terms are limited to 512 characters.',
    ...plain,
  });
  assert.deepEqual(answer({ kind: 'query_too_long', max: 512, withWindow: true }), {
    code: 'invalid_query',
    status: 400,
    detail: 'Search terms and date window are limited to 512 characters together.',
    ...plain,
  });
});

test('cursors: each refusal has its own words, and an export cursor its own code', () => {
  const words = {
    not_issued: 'The cursor is not one this service issued.',
    forged: 'The cursor was edited, forged, or issued by another deployment.',
    elsewhere: 'The cursor belongs to another route, query or feed; send it only where it was issued.',
  } as const;
  for (const [why, detail] of Object.entries(words) as Array<[keyof typeof words, string]>) {
    assert.deepEqual(answer({ kind: 'bad_cursor', why, of: 'page' }), {
      code: 'invalid_cursor',
      status: 400,
      detail,
      ...plain,
    });
    assert.deepEqual(answer({ kind: 'bad_cursor', why, of: 'export' }), {
      code: 'invalid_export_cursor',
      status: 400,
      detail,
      ...plain,
    });
  }
});

test('a list id the platform cannot have issued is not_found, the id cut to 30 characters', () => {
  assert.deepEqual(answer({ kind: 'impossible_list_id', id: '9'.repeat(40) }), {
    code: 'not_found',
    status: 404,
    detail: `No list has the id ${'9'.repeat(30)}…: ids run from 1 to 2^63 − 1 and are written without leading zeros.`,
    ...plain,
  });
});
