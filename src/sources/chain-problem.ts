// The provider chain reports why a read has no answer (providers/failure.ts); this decides what the client is told.
//
// - `gone` is `not_found`; `unconfirmed` is `not_found` too, marked `confirmed: false` so that a stale copy still
//   stands in for it (read-through) and an ancestor walk retries.
// - One failed provider gives `<provider>_<kind>` (`unavailable` reads as `<provider>_error`: the catalog has no
//   `_unavailable` code); several give `all_providers_failed`, each failure in the detail and in
//   `extensions.failures`.
// - Search answers 503 with a Retry-After (the shortest a provider gave, else 30 s) instead of 502, and
//   `search_unavailable` when no provider can serve it or every one lacked a usable session. Other account-backed
//   reads (X Lists) name their own code for that case.
// - No capable provider otherwise: `upstream_error`, or a 503 `<provider>_error` with Retry-After while the
//   provider that has the capability has every session parked.
import { providerCode } from '../problems/catalog.ts';
import { Problem } from '../problems/problem.ts';
import type { ChainFailure, ChainOutcome, Failure } from '../providers/failure.ts';
import type { Loaded } from './cached-reader.ts';

/** How a read answers when the chain has no answer for it. */
export interface FailureAnswer {
  /** Search: 503 with Retry-After instead of 502, and `search_unavailable` when nothing can serve it. */
  search?: boolean;
  /** Reads other than search (X Lists, quotes, reposts, tabs, trends): the 503 when no provider can serve them. */
  unavailable?: 'list_unavailable' | 'read_unavailable' | 'trends_unavailable';
  /** What to do about a `not_found` when the catalog's (a post or profile) is not about this read. */
  notFound?: string;
}

/** Seconds advertised on search 503s when no provider said when to come back. */
export const DEFAULT_SEARCH_RETRY_AFTER_S = 30;

/** The answer of a run, or the problem its failure is for this read. */
export function served<T>(outcome: ChainOutcome<T>, answer: FailureAnswer = {}): Loaded<T> {
  if (!outcome.ok) throw problemFor(outcome.failure, answer);
  return { value: outcome.value, source: outcome.source };
}

export function problemFor(failure: ChainFailure, answer: FailureAnswer = {}): Problem {
  switch (failure.kind) {
    case 'gone':
      return new Problem('not_found', plainDetail(failure.provider, failure.message), {
        extensions: { source: failure.provider },
        resolution: answer.notFound,
      });
    case 'unconfirmed':
      return new Problem(
        'not_found',
        `${failure.failures.map((f) => plainDetail(f.provider, f.message)).join('; ')}; no other provider could confirm it.`,
        { extensions: { source: failure.failures[0]!.provider, confirmed: false }, resolution: answer.notFound },
      );
    case 'no_provider':
      return noProvider(failure, answer);
    case 'failed':
      return allFailed(failure, answer);
  }
}

function noProvider(failure: Extract<ChainFailure, { kind: 'no_provider' }>, answer: FailureAnswer): Problem {
  const { capability, only, parked } = failure;
  const detail = only
    ? `Provider ${only} cannot serve ${capability} right now.`
    : `No configured provider can serve ${capability}.`;
  const code = answer.search ? 'search_unavailable' : answer.unavailable;
  if (code) {
    const retryAfter = parked?.waitS ?? DEFAULT_SEARCH_RETRY_AFTER_S;
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
      `${parked.provider}_error`,
      `${detail} Every ${parked.provider} session that could serve it is parked; the first frees up in ${parked.waitS} s.`,
      { status: 503, headers: { 'Retry-After': String(parked.waitS) } },
    );
  }
  return new Problem('upstream_error', detail);
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
  if (search || retryAfter !== undefined) headers['Retry-After'] = String(retryAfter ?? DEFAULT_SEARCH_RETRY_AFTER_S);
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

  if (search && allUnavailable) {
    return new Problem('search_unavailable', `${listed(failures)}.${note}`, {
      headers,
      extensions,
      search,
    });
  }
  if (answer.unavailable && allUnavailable) {
    return new Problem(answer.unavailable, `${listed(failures)}.${note}`, {
      headers: { 'Retry-After': String(retryAfter ?? DEFAULT_SEARCH_RETRY_AFTER_S) },
      extensions,
    });
  }
  // Nothing failed, the capable providers only had no usable session: a wait, not an upstream failure.
  const waiting = allUnavailable && retryAfter !== undefined ? { status: 503 } : {};
  if (failures.length === 1) {
    const f = failures[0]!;
    // The code must stay inside the documented family: a breaker skip reports the last kind it saw (any of them).
    const kind = f.kind === 'unavailable' || f.kind === 'not_found' || f.kind === 'unconfirmed' ? 'error' : f.kind;
    return new Problem(providerCode(f.provider, kind), `${plainDetail(f.provider, f.message)}${note}`, {
      headers,
      extensions,
      search,
      ...waiting,
    });
  }
  return new Problem('all_providers_failed', `${listed(failures)}.${note}`, {
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

/**
 * A provider's message as the detail of a problem: the provider is named by a member of the problem (`source`,
 * `failures`), so the sentence never opens with its internal name (`syndication: post 1 not found` reads
 * `Post 1 not found`; `fxtwitter returned no post` reads `The upstream returned no post`).
 */
export function plainDetail(provider: string, message: string): string {
  const m = new RegExp(`^${provider.replace(/[^a-z0-9]/gi, '\\$&')}(:\\s+|\\s+)(.+)$`, 's').exec(message);
  if (!m) return message;
  const rest = m[2]!;
  // `x UserTweets: …`: the operation's name opens the sentence; a verb (`returned no post`) gets a subject.
  if (m[1]!.startsWith(':') || /^[^\s:]+(?: [^\s:]+)?: /.test(rest))
    return rest.charAt(0).toUpperCase() + rest.slice(1);
  return `The upstream ${rest}`;
}
