// The one place a failure becomes a problem document (RFC 9457 via problem-reply.ts): a use case's refusal
// (domain/errors.ts), a source's failure (domain/failures.ts), a charge the caller's allowance refused, a request
// input the contract refuses (contract/refusal.ts), a media file the proxy could not fetch or hold (media/), and
// what Fastify itself rejects. The layers below say what is
// wrong in their own terms; the code, the status, the headers and the words the client reads are decided here.
//
// For a read the provider chain has no answer for (the code itself is domain/failures.ts `failureCode`, which the
// warning of a stale copy names too):
// - `not_found` carries the words of the provider that said it, and `confirmed: false` when no provider could
//   confirm it (see sources/served.ts).
// - Several failed providers are each named in the detail and in `extensions.failures`.
// - Search answers 503 with a Retry-After (the shortest a provider gave, else 30 s) instead of 502. Other
//   account-backed reads (X Lists) name their own 503 for "nothing can serve it now".
// - A provider with every session parked answers 503 with Retry-After until the earliest frees up.
import type { FastifyError } from 'fastify';
import { InputRefusal } from '../../contract/refusal.ts';
import { DomainError, type CursorRefusal, type DomainFailure } from '../../domain/errors.ts';
import {
  AllowanceRefused,
  SourceError,
  failureCode,
  plainDetail,
  type ChainFailure,
  type Failure,
  type FailureAnswer,
  type SourceFailure,
} from '../../domain/failures.ts';
import { impossibleIdDetail } from '../../domain/ids.ts';
import type { LinkRefusal } from '../../domain/pasted-link.ts';
import { MediaFetchFailed } from '../../media/fetch.ts';
import { MediaProxyBusy } from '../../media/proxy.ts';
import { Problem, isProblem } from '../../problems/problem.ts';

/** Seconds advertised on 503s when no provider said when to come back. */
export const DEFAULT_RETRY_AFTER_S = 30;

/**
 * Any error as the problem to answer with. Invalid parameters never arrive here as Fastify validation errors: no
 * route carries a Fastify schema, the route kernel validates (contract/route-decl.ts).
 */
export function toProblem(err: unknown): Problem {
  if (isProblem(err)) return err;
  if (err instanceof DomainError) return domainProblem(err.failure);
  if (err instanceof SourceError) return sourceProblem(err.failure);
  if (err instanceof InputRefusal) return new Problem(err.code, err.detail);
  if (err instanceof AllowanceRefused) {
    return new Problem('rate_limited', `The ${err.allowance} allowance is used up; retry in ${err.resetS} s.`);
  }
  if (err instanceof MediaFetchFailed) return mediaProblem(err);
  if (err instanceof MediaProxyBusy) {
    return new Problem('media_proxy_busy', 'The media proxy is passing on as many bytes as it holds at once.', {
      headers: { 'retry-after': String(err.retryAfterS) },
    });
  }
  const fe = err as FastifyError;
  if (fe && fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return new Problem('invalid_body');
  // The body limit is the caller's doing, not ours: 413, not a 500 with a stack trace in the error log.
  if (fe && (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || fe.statusCode === 413)) {
    return new Problem('request_too_large', 'The request body is over the 1 MiB this service accepts.', {
      status: 413,
    });
  }
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode === 400 && /json/i.test(fe.message ?? '')) {
    return new Problem('invalid_body');
  }
  return new Problem('internal_error', 'The service hit an unexpected error; the log has the details.');
}

/** A file of X's media hosts the proxy could not serve. */
function mediaProblem(f: MediaFetchFailed): Problem {
  switch (f.reason) {
    case 'not_x_media':
      return new Problem(
        'invalid_media_url',
        'Only media of pbs.twimg.com, video.twimg.com and abs.twimg.com are served.',
      );
    case 'gone':
      return new Problem('not_found', 'X no longer serves this media file.');
    case 'too_large':
      return new Problem(
        'media_too_large',
        `The file is ${f.message}; this service serves at most the limit set by THREADMARK_MEDIA_MAX_MB.`,
      );
    default:
      return new Problem(
        'upstream_error',
        f.status !== undefined
          ? `X's media host answered ${f.status}.`
          : `X's media host did not answer (${f.message}).`,
      );
  }
}

/** A pasted link this service will not read: another host is 400 unsupported_host, a broken link 400 bad_request, a path naming nothing readable 404. */
function linkRefusalProblem(refusal: LinkRefusal): Problem {
  if (refusal.code === 'unsupported_host') return new Problem('unsupported_host', refusal.detail);
  if (refusal.code === 'invalid_url') return new Problem('bad_request', refusal.detail);
  return new Problem('route_not_found', refusal.detail);
}

const CURSOR_DETAIL: Record<CursorRefusal, string> = {
  not_issued: 'The cursor is not one this service issued.',
  forged: 'The cursor was edited, forged, or issued by another deployment.',
  elsewhere: 'The cursor belongs to another route, query or feed; send it only where it was issued.',
};

function domainProblem(failure: DomainFailure): Problem {
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
    case 'impossible_id':
      return new Problem('not_found', impossibleIdDetail(failure.of, failure.id));
    case 'refused_link':
      return linkRefusalProblem(failure.refusal);
  }
}

function sourceProblem(failure: SourceFailure): Problem {
  switch (failure.kind) {
    case 'not_found':
      return new Problem('not_found', failure.detail, {
        extensions: {
          ...(failure.source !== undefined ? { source: failure.source } : {}),
          ...(failure.confirmed === false ? { confirmed: false } : {}),
        },
        ...(failure.cached ? { headers: { 'x-cache': 'hit' } } : {}),
        resolution: failure.resolution,
      });
    case 'no_answer':
      return failure.failure.kind === 'no_provider'
        ? noProvider(failure.failure, failure.answer)
        : allFailed(failure.failure, failure.answer);
    case 'no_trends_provider':
      return new Problem(
        'trends_unavailable',
        'No configured provider lists trends: FxTwitter does, and X does with logged-in sessions ' +
          '(add fxtwitter to THREADMARK_PROVIDERS, or x with THREADMARK_X_SESSIONS).',
        { headers: { 'Retry-After': String(DEFAULT_RETRY_AFTER_S) } },
      );
  }
}

function noProvider(failure: Extract<ChainFailure, { kind: 'no_provider' }>, answer: FailureAnswer): Problem {
  const { capability, only, parked } = failure;
  const code = failureCode({ kind: 'no_answer', failure, answer });
  const detail = only
    ? `Provider ${only} cannot serve ${capability} right now.`
    : `No configured provider can serve ${capability}.`;
  if (answer.search || answer.unavailable) {
    const retryAfter = parked?.waitS ?? DEFAULT_RETRY_AFTER_S;
    const why = parked
      ? ` Every session that could serve it is parked; the first frees up in ${retryAfter} s.`
      : answer.search
        ? ''
        : code === 'read_unavailable'
          ? ' The configured providers do not serve it (FxTwitter does; X does with logged-in sessions).'
          : ' It is read with logged-in sessions, and the deployment has none configured.';
    return new Problem(code, `${detail}${why}`, { headers: { 'Retry-After': String(retryAfter) } });
  }
  // Account-backed reads whose provider has every session parked: 503 until the earliest one frees up.
  if (parked) {
    return new Problem(
      code,
      `${detail} Every ${parked.provider} session that could serve it is parked; the first frees up in ${parked.waitS} s.`,
      { status: 503, headers: { 'Retry-After': String(parked.waitS) } },
    );
  }
  return new Problem(code, detail);
}

function allFailed(failure: Extract<ChainFailure, { kind: 'failed' }>, answer: FailureAnswer): Problem {
  const search = !!answer.search;
  const { failures } = failure;
  // A breaker's wait is advertised only where a failed read asks to come back (search).
  const waits = failures
    .map((f) => f.retryAfterS ?? (search ? f.skippedForS : undefined))
    .filter((s): s is number => typeof s === 'number');
  const retryAfter = waits.length > 0 ? Math.min(...waits) : undefined;
  const headers: Record<string, string> = {};
  if (search || retryAfter !== undefined) headers['Retry-After'] = String(retryAfter ?? DEFAULT_RETRY_AFTER_S);
  const extensions = {
    failures: failures.map(({ provider, kind, status }) => ({ provider, kind, ...(status ? { status } : {}) })),
  };
  const notes = [
    ...(failure.skipped.length > 0 ? [`Skipped while failing repeatedly: ${failure.skipped.join(', ')}.`] : []),
    ...(failure.untried.length > 0
      ? [`Not tried, the request deadline had passed: ${failure.untried.join(', ')}.`]
      : []),
  ];
  const note = notes.length > 0 ? ` ${notes.join(' ')}` : '';
  const allUnavailable = failures.every((f) => f.kind === 'unavailable');

  const code = failureCode({ kind: 'no_answer', failure, answer });
  if (search && allUnavailable) {
    return new Problem(code, `${listed(failures)}.${note}`, {
      headers,
      extensions,
      search,
    });
  }
  if (answer.unavailable && allUnavailable) {
    return new Problem(code, `${listed(failures)}.${note}`, {
      headers: { 'Retry-After': String(retryAfter ?? DEFAULT_RETRY_AFTER_S) },
      extensions,
    });
  }
  // Nothing failed, the capable providers only had no usable session: a wait, not an upstream failure.
  const waiting = allUnavailable && retryAfter !== undefined ? { status: 503 } : {};
  if (failures.length === 1) {
    // The code stays inside the documented family: a breaker skip reports the last kind it saw (any of them).
    return new Problem(code, `${plainDetail(failures[0]!.provider, failures[0]!.message)}${note}`, {
      headers,
      extensions,
      search,
      ...waiting,
    });
  }
  return new Problem(code, `${listed(failures)}.${note}`, {
    headers,
    extensions,
    search,
    ...waiting,
  });
}

/** Several providers' failures: what each said, after a sentence of the detail's own (`failures` names them too). */
function listed(failures: Failure[]): string {
  const each = failures.map((f) => `${f.provider}: ${f.kind}${f.status ? ` (HTTP ${f.status})` : ''} ${f.message}`);
  return `No provider answered (each is in \`failures\`): ${each.join('; ')}`;
}
