// Every typed failure of the layers below as the client reads it (http/failures/problem-of.ts): code, status,
// headers and words, for a use case's refusals, a source's failures, a refused charge, a refused input and a media
// file the proxy could not serve.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputRefusal } from '../../../src/contract/refusal.ts';
import { DomainError, type DomainFailure } from '../../../src/domain/errors.ts';
import { AllowanceRefused, SourceError, type SourceFailure } from '../../../src/domain/failures.ts';
import { impossibleIdDetail } from '../../../src/domain/ids.ts';
import { toProblem } from '../../../src/http/failures/problem-of.ts';
import { MediaFetchFailed } from '../../../src/media/fetch.ts';
import { MediaProxyBusy } from '../../../src/media/proxy.ts';
import { usedUp } from '../../../src/stores/limits/payers.ts';

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
  assert.deepEqual(answer({ kind: 'impossible_id', of: 'list', id: '9'.repeat(40) }), {
    code: 'not_found',
    status: 404,
    detail: `No list has the id ${'9'.repeat(30)}…: ids run from 1 to 2^63 − 1 and are written without leading zeros.`,
    ...plain,
  });
});

test('ids that cannot exist, of posts and accounts too, are not_found with the same words', () => {
  assert.deepEqual(answer({ kind: 'impossible_id', of: 'post', id: '0' }).detail, impossibleIdDetail('post', '0'));
  assert.deepEqual(
    answer({ kind: 'impossible_id', of: 'account', id: '0' }).detail,
    impossibleIdDetail('account', '0'),
  );
});

test('a pasted link refused: another host, a broken link, a path that names nothing readable', () => {
  const refused = (code: 'unsupported_host' | 'invalid_url' | 'invalid_path') =>
    answer({ kind: 'refused_link', refusal: { code, detail: `words for ${code}` } });
  assert.deepEqual(refused('unsupported_host'), {
    code: 'unsupported_host',
    status: 400,
    detail: 'words for unsupported_host',
    ...plain,
  });
  assert.deepEqual(refused('invalid_url'), {
    code: 'bad_request',
    status: 400,
    detail: 'words for invalid_url',
    ...plain,
  });
  assert.deepEqual(refused('invalid_path'), {
    code: 'route_not_found',
    status: 404,
    detail: 'words for invalid_path',
    ...plain,
  });
});

const sourceAnswer = (failure: SourceFailure) => {
  const p = toProblem(new SourceError(failure));
  return { code: p.code, status: p.status, detail: p.detail, headers: p.headers, extensions: p.extensions };
};

test('a source\'s "not found": who said it, whether anyone could confirm it, whether it was remembered', () => {
  assert.deepEqual(sourceAnswer({ kind: 'not_found', detail: 'deleted', source: 'x' }), {
    code: 'not_found',
    status: 404,
    detail: 'deleted',
    headers: {},
    extensions: { source: 'x' },
  });
  assert.deepEqual(sourceAnswer({ kind: 'not_found', detail: 'bare 404', source: 'fxtwitter', confirmed: false }), {
    code: 'not_found',
    status: 404,
    detail: 'bare 404',
    headers: {},
    extensions: { source: 'fxtwitter', confirmed: false },
  });
  assert.deepEqual(sourceAnswer({ kind: 'not_found', detail: 'gone', source: 'x', cached: true }).headers, {
    'x-cache': 'hit',
  });
  const own = toProblem(new SourceError({ kind: 'not_found', detail: 'private', resolution: 'Check the list id.' }));
  assert.equal(own.resolution, 'Check the list id.');
});

test('no provider lists trends: 503 trends_unavailable with Retry-After and what to configure', () => {
  const a = sourceAnswer({ kind: 'no_trends_provider' });
  assert.deepEqual([a.code, a.status, a.headers], ['trends_unavailable', 503, { 'Retry-After': '30' }]);
  assert.match(a.detail, /add fxtwitter to THREADMARK_PROVIDERS, or x with THREADMARK_X_SESSIONS/);
});

test("a charge the caller's allowance refused, and a request input the contract refused", () => {
  const limited = toProblem(new AllowanceRefused('live-key', 12));
  assert.deepEqual(
    [limited.code, limited.status, limited.detail],
    ['rate_limited', 429, 'The live-key allowance is used up; retry in 12 s.'],
  );
  const input = toProblem(new InputRefusal('invalid_date', '`since` must be earlier than `until`.'));
  assert.deepEqual(
    [input.code, input.status, input.detail],
    ['invalid_date', 400, '`since` must be earlier than `until`.'],
  );
});

test("a payer's refused charge (stores/limits/payers.ts usedUp) is the same 429 as the guards'", () => {
  const refused = usedUp({ policy: 'translate-ip', allowed: false, limit: 60, remaining: 0, resetS: 41, windowS: 60 });
  assert.ok(refused instanceof AllowanceRefused);
  const p = toProblem(refused);
  assert.deepEqual(
    [p.code, p.status, p.detail, p.headers],
    ['rate_limited', 429, 'The translate-ip allowance is used up; retry in 41 s.', {}],
  );
});

test('a media file the proxy could not serve: not X, gone, too large, the host failing, the proxy full', () => {
  const media = (e: Error) => {
    const p = toProblem(e);
    return [p.code, p.status, p.detail, p.headers];
  };
  assert.deepEqual(media(new MediaFetchFailed('not_x_media', "not on X's media hosts")), [
    'invalid_media_url',
    400,
    'Only media of pbs.twimg.com, video.twimg.com and abs.twimg.com are served.',
    {},
  ]);
  assert.deepEqual(media(new MediaFetchFailed('gone', 'HTTP 404', 404)), [
    'not_found',
    404,
    'X no longer serves this media file.',
    {},
  ]);
  assert.deepEqual(media(new MediaFetchFailed('too_large', '9000000 bytes')), [
    'media_too_large',
    502,
    'The file is 9000000 bytes; this service serves at most the limit set by THREADMARK_MEDIA_MAX_MB.',
    {},
  ]);
  assert.deepEqual(media(new MediaFetchFailed('failed', 'HTTP 500', 500)), [
    'upstream_error',
    502,
    "X's media host answered 500.",
    {},
  ]);
  assert.deepEqual(media(new MediaFetchFailed('failed', 'connect ECONNREFUSED')), [
    'upstream_error',
    502,
    "X's media host did not answer (connect ECONNREFUSED).",
    {},
  ]);
  assert.deepEqual(media(new MediaProxyBusy(5)), [
    'media_proxy_busy',
    503,
    'The media proxy is passing on as many bytes as it holds at once.',
    { 'retry-after': '5' },
  ]);
});
